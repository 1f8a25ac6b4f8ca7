// `mcp-lens serve` applies config edits live: a real process over stdio with a real SDK client.
// A server added to the workspace's .vscode/mcp.json shows up in find_tools and, in `all`
// exposure, in tools/list after a tools/list_changed notification; a syntax error is an error
// on stderr with file, line and column and a row in list_servers, while the last good servers
// keep running; approving a server from another terminal (the approval store) starts it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { saveApprovals } from '../../server/src/adapters/config/approvalStore';
import { loadWorkspaceConfig } from '../../server/src/adapters/config/loadConfig';
import { sanitizeSettings } from '../../protocol/settings';
import { fingerprintsOf } from '../fixtures/fingerprints';
import { ROOT } from '../fixtures/gatewayLens';

const GATED = join(ROOT, 'test', 'fixtures', 'servers', 'gated.mjs');
const gated = (prefix: string) => ({ type: 'stdio', command: process.execPath, args: [GATED, '--prefix', prefix] });

function text(r: unknown): string {
  return ((r as CallToolResult).content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

/** Re-checks `check` after each event `onEvent` subscribes to; never sleeps. */
function waitFor<T>(
  what: string,
  subscribe: (wake: () => void) => void,
  check: () => Promise<T | undefined>,
  ms = 30_000,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let busy = false;
    let again = false;
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms);
    const run = async () => {
      if (busy) return void (again = true);
      busy = true;
      try {
        const v = await check();
        if (v !== undefined) {
          clearTimeout(timer);
          resolve(v);
          return;
        }
      } finally {
        busy = false;
      }
      if (again) {
        again = false;
        void run();
      }
    };
    subscribe(() => void run());
    void run();
  });
}

test('mcp-lens serve applies .vscode/mcp.json edits live', { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-lens-live-serve-'));
  mkdirSync(join(dir, '.vscode'));
  const mcpJson = join(dir, '.vscode', 'mcp.json');
  const approvals = join(dir, 'approvals.json');
  const write = (servers: Record<string, unknown>) => writeFileSync(mcpJson, JSON.stringify({ servers }, null, 2));
  writeFileSync(
    join(dir, '.vscode', 'settings.json'),
    JSON.stringify({ 'mcpLens.embedding.enabled': false, 'mcpLens.exposure': 'all' }),
  );
  write({ a: gated('a') });
  // The user approved both definitions (`mcp-lens tools`): --trust would approve only what is there at start.
  saveApprovals(dir, fingerprintsOf(dir, { a: gated('a'), b: gated('b') }), approvals);
  let stderr = '';
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(ROOT, 'dist', 'cli.js'), 'serve', '--workspace', dir],
    cwd: ROOT,
    env: { ...process.env, MCP_LENS_APPROVALS_FILE: approvals, MCP_LENS_LOG: 'warn' } as Record<string, string>,
    stderr: 'pipe',
  });
  const stderrWaiters = new Set<() => void>();
  transport.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
    for (const w of stderrWaiters) w();
  });
  const client = new Client({ name: 'live-serve-test', version: '1.0.0' });
  const listChanged = new Set<() => void>();
  let notifications = 0;
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
    notifications++;
    for (const w of listChanged) w();
  });
  await client.connect(transport);
  const names = async () => (await client.listTools()).tools.map((t) => t.name);
  const onListChanged = (wake: () => void) => listChanged.add(wake);
  try {
    await waitFor('a_ping listed', onListChanged, async () =>
      (await names()).includes('a_a_ping') ? true : undefined,
    );

    write({ a: gated('a'), b: gated('b') });
    await waitFor('list_changed with b', onListChanged, async () =>
      (await names()).includes('b_b_ping') ? true : undefined,
    );
    assert.ok(notifications >= 1);
    const found = await client.callTool({ name: 'find_tools', arguments: { query: 'pong from b' } });
    assert.match(text(found), /b_b_ping/);
    assert.match(
      text(await client.callTool({ name: 'call_tool', arguments: { tool_name: 'b_b_ping', arguments: {} } })),
      /pong from b/,
    );

    // A syntax error: an error line on stderr naming file, line and column; a and b keep running.
    writeFileSync(mcpJson, '{ "servers": { "a": ');
    await waitFor(
      'the syntax error on stderr',
      (w) => stderrWaiters.add(w),
      async () =>
        /\[mcp-lens error\] \.vscode\/mcp\.json:1:\d+: not valid JSON: .*; MCP Lens keeps running/.test(stderr)
          ? true
          : undefined,
    );
    const servers = JSON.parse(text(await client.callTool({ name: 'list_servers', arguments: {} }))) as {
      servers: { name: string; state: string; error?: string }[];
    };
    const row = servers.servers.find((s) => s.name === '.vscode/mcp.json');
    assert.equal(row?.state, 'error');
    assert.match(row?.error ?? '', /line 1, column/);
    assert.equal(servers.servers.find((s) => s.name === 'b')?.state, 'ready');
    assert.ok((await names()).includes('b_b_ping'));

    // Removing b: its tools go, with a notification.
    write({ a: gated('a') });
    await waitFor('b gone', onListChanged, async () => (!(await names()).includes('b_b_ping') ? true : undefined));
    assert.doesNotMatch(stderr, /\[mcp-lens (debug|trace)\]/);
  } finally {
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('mcp-lens serve starts a server once it is approved from another terminal', { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-lens-live-serve-'));
  mkdirSync(join(dir, '.vscode'));
  const approvals = join(dir, 'approvals.json');
  writeFileSync(
    join(dir, '.vscode', 'settings.json'),
    JSON.stringify({ 'mcpLens.embedding.enabled': false, 'mcpLens.exposure': 'all' }),
  );
  writeFileSync(join(dir, '.vscode', 'mcp.json'), JSON.stringify({ servers: { n: gated('n') } }));
  let stderr = '';
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(ROOT, 'dist', 'cli.js'), 'serve', '--workspace', dir],
    cwd: ROOT,
    env: { ...process.env, MCP_LENS_APPROVALS_FILE: approvals, MCP_LENS_LOG: 'warn' } as Record<string, string>,
    stderr: 'pipe',
  });
  const wakers = new Set<() => void>();
  transport.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
    for (const w of wakers) w();
  });
  const client = new Client({ name: 'live-serve-test', version: '1.0.0' });
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => wakers.forEach((w) => w()));
  await client.connect(transport);
  const state = async () =>
    (
      JSON.parse(text(await client.callTool({ name: 'list_servers', arguments: {} }))) as {
        servers: { name: string; state: string }[];
      }
    ).servers.find((s) => s.name === 'n')?.state;
  try {
    await waitFor(
      'the approval hint',
      (w) => wakers.add(w),
      async () => (/\[n\] not started: .* needs your approval \(run `mcp-lens tools`/.test(stderr) ? true : undefined),
    );
    assert.equal(await state(), 'awaiting-approval');
    // What `mcp-lens tools` does after the user answers yes (the fingerprint from the status line).
    const config = loadWorkspaceConfig({ workspaceFolder: dir, settings: sanitizeSettings({}) });
    await client.listTools(); // the session has seen a list, so it is told when it changes
    saveApprovals(dir, { n: config.servers[0]!.fingerprint }, approvals);
    await waitFor(
      "n's tool listed",
      (w) => wakers.add(w),
      async () => ((await client.listTools()).tools.some((t) => t.name === 'n_n_ping') ? true : undefined),
    );
    assert.equal(await state(), 'ready');
  } finally {
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
