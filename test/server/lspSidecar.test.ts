// The LSP sidecar as the extension runs it: dist/server.js forked over Node IPC, driven with
// the custom messages of protocol/lspProtocol.ts, with a real MCP server (server-memory) behind
// it, a workspace .vscode/mcp.json in a temp dir, and the gateway reached over real HTTP.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ApprovalNeededNotification,
  CallToolRequest,
  ConfigProblemsNotification,
  DashboardRequest,
  GatewayInfoRequest,
  SearchRequest,
  StateChangedNotification,
  UpdateSettingsNotification,
  type SidecarInitOptions,
  type StateChangedParams,
} from '../../protocol/lspProtocol';
import type { ServerStatus, ToolCallOutcome } from '../../protocol/model';
import { sanitizeSettings } from '../../protocol/settings';
import { startSidecarProcess, type SidecarProcess } from '../fixtures/lsp/sidecarProcess';

const root = join(__dirname, '..', '..');
const memoryJs = join(root, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js');

interface World extends SidecarProcess {
  dir: string;
  marker: string;
}

function workspace(): { dir: string; marker: string; mcpJson: string } {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-lens-lsp-'));
  const marker = `lsp-test-${randomUUID()}`;
  mkdirSync(join(dir, 'ws', '.vscode'), { recursive: true });
  const mcpJson = join(dir, 'ws', '.vscode', 'mcp.json');
  writeFileSync(
    mcpJson,
    `{
  // a real server, and one whose command is not a string
  "servers": {
    "memory": { "type": "stdio", "command": ${JSON.stringify(process.execPath)}, "args": [${JSON.stringify(memoryJs)}, "${marker}"], "env": { "MEMORY_FILE_PATH": ${JSON.stringify(join(dir, 'memory.jsonl'))} } },
    "broken": { "type": "stdio", "command": 42 }
  }
}
`,
  );
  return { dir, marker, mcpJson };
}

async function start(
  trusted: boolean,
  approvals: Record<string, string> = {},
): Promise<World & { mcpJson: string; init: SidecarInitOptions }> {
  const { dir, marker, mcpJson } = workspace();
  const init: SidecarInitOptions = {
    storageDir: join(dir, 'storage'),
    workspaceFolders: [join(dir, 'ws')],
    settings: sanitizeSettings({ embedding: { enabled: false }, importFrom: ['vscode'] }),
    trusted,
    approvals,
    inputs: {},
  };
  mkdirSync(init.storageDir, { recursive: true });
  const sidecar = await startSidecarProcess(init);
  return {
    ...sidecar,
    dir,
    marker,
    mcpJson,
    init,
    async close() {
      const code = await sidecar.close();
      rmSync(dir, { recursive: true, force: true });
      return code;
    },
  };
}

/** Processes whose command line holds `marker` (the upstream servers this test started). */
function processesWith(marker: string): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker);
      } catch {
        return false;
      }
    })
    .map(Number);
}

const memoryReady = (p: StateChangedParams) =>
  p.servers.some((s) => s.name === 'memory' && s.state === 'ready' && s.toolCount > 0);

test('approval, search, tool calls and the gateway through the LSP sidecar', async () => {
  const w = await start(true);
  try {
    const approval = await w.next(
      ApprovalNeededNotification,
      (p) => p.servers.some((s) => s.name === 'memory'),
      'memory awaits approval',
    );
    const memory = approval.servers.find((s) => s.name === 'memory')!;
    assert.equal(memory.sourceFile, w.mcpJson);
    assert.match(memory.summary, /node|server-memory/);
    assert.equal(processesWith(w.marker).length, 0, 'nothing starts before approval');

    const problems = await w.next(
      ConfigProblemsNotification,
      (p) => p.problems.some((x) => x.server === 'broken' || /broken/.test(x.path)),
      'broken is reported',
    );
    const text = readFileSync(w.mcpJson, 'utf8');
    const broken = problems.problems.find((x) => x.path === 'servers.broken.command');
    assert.ok(broken && broken.offset !== undefined, 'the problem carries an offset for the diagnostic');
    assert.equal(broken.file, w.mcpJson);
    assert.equal(
      text.slice(broken.offset, broken.offset + (broken.length ?? 0)),
      '42',
      'the range is the offending value',
    );

    await w.conn.sendNotification(UpdateSettingsNotification, {
      settings: w.init.settings,
      approvals: { memory: memory.fingerprint },
      inputs: {},
      trusted: true,
    });
    const state = await w.next(StateChangedNotification, memoryReady, 'memory is ready');
    assert.ok(state.stats.tools >= 5, 'memory tools are in the catalog');
    assert.ok(state.gateway?.url.startsWith('http://127.0.0.1:'));

    const found = await w.conn.sendRequest(SearchRequest, {
      query: 'create entities in the knowledge graph',
      limit: 5,
    });
    assert.ok(
      found.hits.some((h) => h.originalName === 'create_entities'),
      `create_entities found: ${found.hits.map((h) => h.name).join(', ')}`,
    );

    const readGraph = found.hits.length
      ? (await w.conn.sendRequest(SearchRequest, { query: 'read graph', limit: 10 })).hits.find(
          (h) => h.originalName === 'read_graph',
        )
      : undefined;
    assert.ok(readGraph, 'read_graph found');
    const outcome = await w.conn.sendRequest(CallToolRequest, { name: readGraph.name, arguments: {} });
    assert.equal(outcome.isError, false);
    const unknown = await w.conn.sendRequest(CallToolRequest, { name: 'no_such_tool', arguments: {} });
    assert.equal(unknown.isError, true, 'an unknown tool is an error result, not a failed request');

    // The webview panel's requests reach the same handlers as the browser dashboard's.
    const servers = (await w.conn.sendRequest(DashboardRequest, {
      method: 'listServers',
      params: {},
    })) as ServerStatus[];
    assert.ok(servers.some((x) => x.name === 'memory' && x.state === 'ready'));
    const tried = (await w.conn.sendRequest(DashboardRequest, {
      method: 'callTool',
      params: { name: readGraph.name, arguments: {} },
    })) as ToolCallOutcome;
    assert.equal(tried.isError, false);
    await assert.rejects(
      w.conn.sendRequest(DashboardRequest, { method: 'callTool', params: { name: readGraph.name } }),
      /"arguments" must be a JSON object/,
    );
    await assert.rejects(
      w.conn.sendRequest(DashboardRequest, { method: 'nope' as never, params: {} }),
      /dashboard: "method" must be one of "search", /,
    );

    const gw = await w.conn.sendRequest(GatewayInfoRequest);
    assert.ok(gw.token.length >= 32);
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const denied = await fetch(gw.url, { method: 'POST', headers, body });
    assert.equal(denied.status, 401);
    await denied.body?.cancel();
    const ok = await fetch(gw.url, {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${gw.token}` },
      body,
    });
    assert.equal(ok.status, 200);
    assert.match(await ok.text(), /serverInfo/);
    assert.equal(processesWith(w.marker).length, 1, 'the approved server runs once');

    // Revoking the approval stops the server.
    await w.conn.sendNotification(UpdateSettingsNotification, {
      settings: w.init.settings,
      approvals: {},
      inputs: {},
      trusted: true,
    });
    await w.next(
      StateChangedNotification,
      (p) => p.servers.some((s) => s.name === 'memory' && s.state === 'awaiting-approval'),
      'memory awaits approval again',
    );
    const deadline = Date.now() + 10_000;
    while (processesWith(w.marker).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.equal(processesWith(w.marker).length, 0, 'a revoked server is stopped');
  } finally {
    const code = await w.close();
    assert.equal(code, 0, 'the sidecar exits cleanly');
    assert.deepEqual(processesWith(w.marker), [], 'no upstream process outlives the sidecar');
    assert.equal(w.stdout.join(''), '', 'the sidecar writes nothing to stdout');
  }
});

test('an untrusted workspace starts nothing from workspace config, even when approved', async () => {
  const w = await start(false, { memory: 'whatever' });
  try {
    const state = await w.next(
      StateChangedNotification,
      (p) => p.servers.some((s) => s.name === 'memory'),
      'memory is listed',
    );
    const memory = state.servers.find((s) => s.name === 'memory')!;
    assert.notEqual(memory.state, 'ready');
    assert.equal(processesWith(w.marker).length, 0);
  } finally {
    await w.close();
  }
});
