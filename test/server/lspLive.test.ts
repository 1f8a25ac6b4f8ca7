// The sidecar as the extension runs it (dist/server.js over Node IPC), for #15: it keeps the
// gateway token and port the extension gives it (so VS Code's server definition survives a
// sidecar restart), applies .vscode/mcp.json edits without a restart, reports a syntax error as
// a diagnostic while the last good servers keep running, and holds reloads while the client
// moves servers from mcp.json into settings, so no half-moved state (a server declared twice)
// is ever loaded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ApprovalNeededNotification,
  ConfigProblemsNotification,
  GatewayInfoRequest,
  HoldReloadsRequest,
  StateChangedNotification,
  UpdateSettingsNotification,
  type ConfigProblemsParams,
  type SidecarInitOptions,
  type StateChangedParams,
} from '../../protocol/lspProtocol';
import { sanitizeSettings, type RawServerEntry } from '../../protocol/settings';
import { startSidecarProcess as startSidecar, type SidecarProcess as Sidecar } from '../fixtures/lsp/sidecarProcess';

const ROOT = join(__dirname, '..', '..');
const GATED = join(ROOT, 'test', 'fixtures', 'servers', 'gated.mjs');
const gated = (prefix: string): RawServerEntry => ({
  type: 'stdio',
  command: process.execPath,
  args: [GATED, '--prefix', prefix],
});

const state = (pred: (p: StateChangedParams) => boolean) => (p: StateChangedParams) => pred(p);
const ready = (name: string) => state((p) => p.servers.some((s) => s.name === name && s.state === 'ready'));

/** A temp folder with a workspace whose mcp.json holds `a`, and the sidecar's init options for it (embeddings off, trusted, nothing approved). */
function liveWorkspace(extra: Partial<SidecarInitOptions> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-lens-lsp-live-'));
  mkdirSync(join(dir, 'ws', '.vscode'), { recursive: true });
  const mcpJson = join(dir, 'ws', '.vscode', 'mcp.json');
  const write = (servers: Record<string, RawServerEntry>) =>
    writeFileSync(mcpJson, JSON.stringify({ servers }, null, 2));
  write({ a: gated('a') });
  const settings = sanitizeSettings({ embedding: { enabled: false } });
  const init: SidecarInitOptions = {
    storageDir: join(dir, 'storage'),
    workspaceFolders: [join(dir, 'ws')],
    settings,
    trusted: true,
    approvals: {},
    inputs: {},
    ...extra,
  };
  mkdirSync(init.storageDir);
  return { dir, mcpJson, write, settings, init };
}

test('the sidecar keeps the gateway token and port it is given, and applies mcp.json edits live', async () => {
  const { dir, mcpJson, write, settings, init } = liveWorkspace({ gateway: { token: 'k'.repeat(43) } });
  let first: Sidecar | undefined = await startSidecar(init);
  let second: Sidecar | undefined;
  try {
    const gw = await first.conn.sendRequest(GatewayInfoRequest);
    assert.equal(gw.token, init.gateway!.token, 'the token the extension gave');
    const port = Number(new URL(gw.url).port);
    // Approve `a` (as the editor does after its prompt).
    const fingerprint = await first
      .next(ApprovalNeededNotification, (p) => p.servers.some((s) => s.name === 'a'), 'a awaits approval')
      .then((p) => p.servers.find((s) => s.name === 'a')!.fingerprint);
    await first.conn.sendNotification(UpdateSettingsNotification, {
      settings,
      approvals: { a: fingerprint },
      inputs: {},
      trusted: true,
    });
    await first.next(StateChangedNotification, ready('a'), 'a ready');
    await first.close();
    first = undefined;

    // A new sidecar (a crash and restart) listens on the same port with the same token.
    second = await startSidecar({
      ...init,
      approvals: { a: fingerprint },
      gateway: { token: init.gateway!.token, port },
    });
    const again = await second.conn.sendRequest(GatewayInfoRequest);
    assert.equal(again.url, gw.url, 'same URL');
    assert.equal(again.token, gw.token, 'same token');
    await second.next(StateChangedNotification, ready('a'), 'a ready again');

    // An edit adds a server: it waits for approval (a new definition), no restart needed.
    write({ a: gated('a'), b: gated('b') });
    await second.next(ApprovalNeededNotification, (p) => p.servers.some((s) => s.name === 'b'), 'b awaits approval');

    // A syntax error: a diagnostic with the position, and `a` keeps running.
    writeFileSync(mcpJson, '{\n  "servers": {\n    "a": \n');
    const problems = await second.next(
      ConfigProblemsNotification,
      (p) => p.problems.some((x) => /not valid JSON/.test(x.message)),
      'a syntax error',
    );
    const problem = problems.problems.find((x) => /not valid JSON/.test(x.message))!;
    assert.equal(problem.file, mcpJson);
    // Where it is goes with the offset: the editor marks the place.
    assert.equal(problem.message, 'not valid JSON: expected a value');
    assert.equal(problem.note, 'MCP Lens keeps running the servers of its last valid version');
    assert.ok(problem.offset !== undefined);
    const during = await second.next(
      StateChangedNotification,
      state((p) => p.servers.some((s) => s.configFile)),
      'the file row',
    );
    assert.equal(during.servers.find((s) => s.name === 'a')?.state, 'ready');
  } finally {
    await first?.close();
    await second?.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a hold keeps a half-moved configuration from ever being loaded', async () => {
  const { dir, mcpJson, settings, init } = liveWorkspace();
  const s = await startSidecar(init);
  try {
    const fp = (await s.next(ApprovalNeededNotification, (p) => p.servers.length > 0, 'a awaits approval')).servers[0]!
      .fingerprint;
    await s.conn.sendNotification(UpdateSettingsNotification, {
      settings,
      approvals: { a: fp },
      inputs: {},
      trusted: true,
    });
    await s.next(StateChangedNotification, ready('a'), 'a ready');

    // What "Move into MCP Lens" does: hold, settings gain `a`, mcp.json loses it, release.
    await s.conn.sendRequest(HoldReloadsRequest, { hold: true });
    const moved = sanitizeSettings({ embedding: { enabled: false }, servers: { a: gated('a') } });
    await s.conn.sendNotification(UpdateSettingsNotification, {
      settings: moved,
      approvals: { a: fp },
      inputs: {},
      trusted: true,
    });
    writeFileSync(mcpJson, JSON.stringify({ servers: {} }));
    await s.conn.sendRequest(HoldReloadsRequest, { hold: false });
    const after = await s.next(
      StateChangedNotification,
      state((p) => p.servers.some((x) => x.name === 'a' && x.source === 'settings' && x.state === 'ready')),
      'a served from settings',
    );
    assert.equal(after.servers.filter((x) => x.name === 'a').length, 1);
    // No state ever showed `a` declared twice, and no "also defined" problem was reported.
    const problems = (s.seen.get(ConfigProblemsNotification.method) ?? []) as ConfigProblemsParams[];
    assert.ok(!problems.some((p) => p.problems.some((x) => /also defined/.test(x.message))), JSON.stringify(problems));
    // `a` kept its approval (same definition, now from settings) and was never stopped.
    const states = (s.seen.get(StateChangedNotification.method) ?? []) as StateChangedParams[];
    const sinceReady = states.slice(
      states.findIndex((p) => p.servers.some((x) => x.name === 'a' && x.state === 'ready')),
    );
    assert.ok(
      sinceReady.every((p) => p.servers.find((x) => x.name === 'a')?.state === 'ready'),
      'a stayed up',
    );
  } finally {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
