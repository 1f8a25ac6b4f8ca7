// The LSP sidecar as the extension runs it: dist/server.js forked over Node IPC, driven with
// the custom messages of protocol/lspProtocol.ts, with a real MCP server (server-memory) behind
// it, a workspace .vscode/mcp.json in a temp dir, and the gateway reached over real HTTP.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IPCMessageReader, IPCMessageWriter, createMessageConnection, type MessageConnection } from 'vscode-languageserver-protocol/node';
import {
  ApprovalNeededNotificationMethod,
  CallToolRequestMethod,
  ConfigProblemsNotificationMethod,
  GatewayInfoRequestMethod,
  SearchRequestMethod,
  StateChangedNotificationMethod,
  UpdateSettingsNotificationMethod,
  type ApprovalNeededParams,
  type CallToolResultPayload,
  type ConfigProblemsParams,
  type GatewayInfo,
  type SearchResult,
  type SidecarInitOptions,
  type StateChangedParams,
} from '../../protocol/lspProtocol';
import { sanitizeSettings } from '../../protocol/settings';

const root = join(__dirname, '..', '..');
const serverJs = join(root, 'dist', 'server.js');
const memoryJs = join(root, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js');

interface World {
  dir: string;
  marker: string;
  child: ChildProcess;
  conn: MessageConnection;
  stdout: string[];
  /** Resolves with the first notification of `method` that satisfies `pred`. */
  next<P>(method: string, pred: (p: P) => boolean, what: string): Promise<P>;
  close(): Promise<number | null>;
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

async function start(trusted: boolean, approvals: Record<string, string> = {}): Promise<World & { mcpJson: string; init: SidecarInitOptions }> {
  assert.ok(existsSync(serverJs), 'dist/server.js is built (npm test builds it)');
  const { dir, marker, mcpJson } = workspace();
  const child = fork(serverJs, ['--node-ipc'], { stdio: ['ignore', 'pipe', 'pipe', 'ipc'], env: { ...process.env, OLLAMA_HOST: '127.0.0.1:9' } });
  const stdout: string[] = [];
  child.stdout?.on('data', (b: Buffer) => stdout.push(b.toString()));
  child.stderr?.resume();
  const conn = createMessageConnection(new IPCMessageReader(child), new IPCMessageWriter(child));
  const waiters: { method: string; pred: (p: unknown) => boolean; resolve: (p: unknown) => void }[] = [];
  const seen = new Map<string, unknown[]>();
  conn.onNotification((method: string, params: unknown) => {
    seen.set(method, [...(seen.get(method) ?? []), params]);
    for (const w of [...waiters]) {
      if (w.method === method && w.pred(params)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(params);
      }
    }
  });
  conn.listen();
  const init: SidecarInitOptions = {
    storageDir: join(dir, 'storage'),
    workspaceFolders: [join(dir, 'ws')],
    settings: sanitizeSettings({ embedding: { enabled: false }, importFrom: ['vscode'] }),
    trusted,
    approvals,
    inputs: {},
  };
  mkdirSync(init.storageDir, { recursive: true });
  await conn.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: {}, initializationOptions: init });
  await conn.sendNotification('initialized', {});
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return {
    dir,
    marker,
    mcpJson,
    init,
    child,
    conn,
    stdout,
    next<P>(method: string, pred: (p: P) => boolean, what: string): Promise<P> {
      const earlier = (seen.get(method) ?? []).find((p) => pred(p as P));
      if (earlier) return Promise.resolve(earlier as P);
      return new Promise<P>((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(`no ${method} where ${what} within 30 s`)), 30_000);
        waiters.push({ method, pred: pred as (p: unknown) => boolean, resolve: (p) => (clearTimeout(t), resolve(p as P)) });
      });
    },
    async close() {
      await conn.sendRequest('shutdown').catch(() => undefined);
      await conn.sendNotification('exit').catch(() => undefined);
      const code = await exited;
      conn.dispose();
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

const memoryReady = (p: StateChangedParams) => p.servers.some((s) => s.name === 'memory' && s.state === 'ready' && s.toolCount > 0);

test('approval, search, tool calls and the gateway through the LSP sidecar', async () => {
  const w = await start(true);
  try {
    const approval = await w.next<ApprovalNeededParams>(ApprovalNeededNotificationMethod, (p) => p.servers.some((s) => s.name === 'memory'), 'memory awaits approval');
    const memory = approval.servers.find((s) => s.name === 'memory')!;
    assert.equal(memory.sourceFile, w.mcpJson);
    assert.match(memory.summary, /node|server-memory/);
    assert.equal(processesWith(w.marker).length, 0, 'nothing starts before approval');

    const problems = await w.next<ConfigProblemsParams>(ConfigProblemsNotificationMethod, (p) => p.problems.some((x) => x.server === 'broken' || /broken/.test(x.path)), 'broken is reported');
    const text = readFileSync(w.mcpJson, 'utf8');
    const broken = problems.problems.find((x) => x.path === 'servers.broken.command');
    assert.ok(broken && broken.offset !== undefined, 'the problem carries an offset for the diagnostic');
    assert.equal(broken.file, w.mcpJson);
    assert.equal(text.slice(broken.offset, broken.offset + (broken.length ?? 0)), '42', 'the range is the offending value');

    await w.conn.sendNotification(UpdateSettingsNotificationMethod, { settings: w.init.settings, approvals: { memory: memory.fingerprint }, inputs: {}, trusted: true });
    const state = await w.next<StateChangedParams>(StateChangedNotificationMethod, memoryReady, 'memory is ready');
    assert.ok(state.stats.tools >= 5, 'memory tools are in the catalog');
    assert.ok(state.gateway?.url.startsWith('http://127.0.0.1:'));

    const found = await w.conn.sendRequest<SearchResult>(SearchRequestMethod, { query: 'create entities in the knowledge graph', limit: 5 });
    assert.ok(found.hits.some((h) => h.originalName === 'create_entities'), `create_entities found: ${found.hits.map((h) => h.name).join(', ')}`);

    const readGraph = found.hits.length ? (await w.conn.sendRequest<SearchResult>(SearchRequestMethod, { query: 'read graph', limit: 10 })).hits.find((h) => h.originalName === 'read_graph') : undefined;
    assert.ok(readGraph, 'read_graph found');
    const outcome = await w.conn.sendRequest<CallToolResultPayload>(CallToolRequestMethod, { name: readGraph.name, arguments: {} });
    assert.equal(outcome.isError, false);
    const unknown = await w.conn.sendRequest<CallToolResultPayload>(CallToolRequestMethod, { name: 'no_such_tool', arguments: {} });
    assert.equal(unknown.isError, true, 'an unknown tool is an error result, not a failed request');

    const gw = await w.conn.sendRequest<GatewayInfo>(GatewayInfoRequestMethod);
    assert.ok(gw.token.length >= 32);
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const denied = await fetch(gw.url, { method: 'POST', headers, body });
    assert.equal(denied.status, 401);
    await denied.body?.cancel();
    const ok = await fetch(gw.url, { method: 'POST', headers: { ...headers, authorization: `Bearer ${gw.token}` }, body });
    assert.equal(ok.status, 200);
    assert.match(await ok.text(), /serverInfo/);
    assert.equal(processesWith(w.marker).length, 1, 'the approved server runs once');

    // Revoking the approval stops the server.
    await w.conn.sendNotification(UpdateSettingsNotificationMethod, { settings: w.init.settings, approvals: {}, inputs: {}, trusted: true });
    await w.next<StateChangedParams>(StateChangedNotificationMethod, (p) => p.servers.some((s) => s.name === 'memory' && s.state === 'awaiting-approval'), 'memory awaits approval again');
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
    const state = await w.next<StateChangedParams>(StateChangedNotificationMethod, (p) => p.servers.some((s) => s.name === 'memory'), 'memory is listed');
    const memory = state.servers.find((s) => s.name === 'memory')!;
    assert.notEqual(memory.state, 'ready');
    assert.equal(processesWith(w.marker).length, 0);
  } finally {
    await w.close();
  }
});
