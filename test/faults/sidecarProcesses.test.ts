/**
 * Real `mcp-lens serve --http` processes on one workspace: two at once (the second reads the
 * tool store and the usage log, never writes them; both serve), and `kill -9` of a sidecar
 * recording calls at random moments (the usage log parses, at most a torn last record is
 * dropped, nothing recorded more than a second before the kill is lost, the next sidecar
 * takes over). The tracker-level kill -9 test is test/server/usageCrash.test.ts.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { readLog } from '../../server/src/adapters/usage/framedLog';
import { fromStored } from '../../server/src/adapters/usage/usageRecord';
import { LOG_FILE } from '../../server/src/adapters/usage/usageStore';
// serve keeps the index and usage in the user's state folder (the env it inherits says where).
import { workspaceStateDir } from '../../server/src/adapters/workspaceState';
import { findToolsWhenStarted } from '../fixtures/agentClient';
import { startFakeOllama } from '../fixtures/fakeOllama';
import { EVERYTHING, ROOT, makeWorkspace, until, type TestWorkspace } from '../fixtures/gatewayLens';
import { text } from './faultWorld';

const TOKEN = `two-sidecars-${Math.random().toString(36).slice(2)}`;
const children = new Set<ChildProcess>();
after(() => {
  for (const c of children) c.kill('SIGKILL');
});

interface Served {
  child: ChildProcess;
  client: Client;
  stderr(): string;
  exited: Promise<void>;
}

/** `mcp-lens serve --http` on the workspace; Ollama at `ollamaHost` (default: a closed port, so none). */
async function serve(ws: TestWorkspace, ollamaHost = '127.0.0.1:9'): Promise<Served> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(ROOT, 'server/src/cli/main.ts'),
      'serve',
      '--http',
      '--workspace',
      ws.dir,
      '--config',
      ws.configFile,
    ],
    {
      cwd: ROOT,
      env: { ...process.env, MCP_LENS_TOKEN: TOKEN, MCP_LENS_LOG: 'info', OLLAMA_HOST: ollamaHost },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  children.add(child);
  const exited = new Promise<void>((r) => child.once('exit', () => (children.delete(child), r())));
  let err = '';
  child.stderr!.setEncoding('utf8');
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (c: string) => {
      err += c;
      const m = /MCP Lens listening on (\S+)/.exec(err);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`serve exited (${code}):\n${err}`)));
  });
  const client = new Client({ name: 'sidecar-faults', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }),
  );
  return { child, client, stderr: () => err, exited };
}

async function addViaGateway(client: Client, a: number): Promise<void> {
  // On a first run `everything` may still be starting: find_tools says so rather than wait.
  const { result: found } = await findToolsWhenStarted(client, { query: 'add two numbers', limit: 3 });
  const sum = (found.structuredContent as { matches: { name: string }[] }).matches.find((m) => /get-sum$/.test(m.name));
  assert.ok(sum, text(found));
  const r = (await client.callTool({
    name: 'call_tool',
    arguments: { tool_name: sum.name, arguments: { a, b: 1 } },
  })) as CallToolResult;
  assert.ok(!r.isError, text(r));
  assert.match(text(r), new RegExp(`\\b${a + 1}\\b`));
}

describe('sidecar processes on one workspace', () => {
  it('two sidecars at once: both serve; the second reads and never writes', async () => {
    // Embeddings on and an Ollama that answers: only then is there a tool store to share (keyword
    // mode has none, and the store is opened only once the embedder answers).
    const ollama = await startFakeOllama();
    const ws = makeWorkspace({ everything: EVERYTHING }, { embedding: { enabled: true } });
    const first = await serve(ws, ollama.url);
    // The first holds the store's writer lock before the second starts: the roles are decided.
    await until(
      'the first sidecar to open its tool store',
      () => existsSync(join(workspaceStateDir(ws.dir), 'index', 'toolStore.lock')),
      60_000,
    );
    const second = await serve(ws, ollama.url);
    try {
      await addViaGateway(first.client, 1);
      await addViaGateway(second.client, 2);
      await addViaGateway(first.client, 3);
      assert.match(second.stderr(), /usage: .* written by another process; this one only reads it/);
      // The second opens the store once its own embedder answered: wait for it, not for a time.
      await until(
        'the second sidecar to open the tool store read-only',
        () => /tool store .*read-only/.test(second.stderr()),
        60_000,
      );
      assert.doesNotMatch(first.stderr(), /only reads it|read-only/);
    } finally {
      for (const s of [second, first]) {
        await s.client.close().catch(() => undefined);
        s.child.kill('SIGTERM');
        await s.exited;
      }
      await ollama.close();
    }
    try {
      // Only the writer's two calls are on disk; the reader's stayed in its memory.
      const { records } = await readLog(join(workspaceStateDir(ws.dir), 'usage', LOG_FILE), fromStored);
      assert.equal(records.filter((r) => r.toolKey === 'everything/get-sum').length, 2);
    } finally {
      ws.close();
    }
  });

  it('kill -9 at random moments: the usage log parses and keeps every call older than a second', async (t) => {
    const ws = makeWorkspace({ everything: EVERYTHING });
    const log = join(workspaceStateDir(ws.dir), 'usage', LOG_FILE);
    // Calls acknowledged to us, with when: what the log must hold once they are a second old.
    const acknowledged: number[] = [];
    let before = 0;
    try {
      for (let round = 0; round < 3; round++) {
        const s = await serve(ws);
        const runMs = 1200 + Math.floor(Math.random() * 1500); // long enough that some calls are a second old
        const stopAt = Date.now() + runMs;
        let a = 0;
        while (Date.now() < stopAt) {
          await addViaGateway(s.client, a++);
          acknowledged.push(Date.now());
        }
        const killedAt = Date.now();
        s.child.kill('SIGKILL');
        await s.exited;
        const { records, dropped } = await readLog(log, fromStored);
        const sums = records.filter((r) => r.toolKey === 'everything/get-sum').length;
        // Calls lost in an earlier round's last second stay lost: count from what was on disk then.
        const old = acknowledged.filter((at) => at < killedAt - 1000).length;
        const mustHave = before + old;
        t.diagnostic(
          `round ${round}: killed after ${runMs} ms; ${acknowledged.length} calls acknowledged this round, ${old} of them older than 1 s; log: ${before} → ${sums} calls, ${dropped} torn`,
        );
        assert.ok(dropped <= 1, `dropped ${dropped}`);
        assert.ok(
          sums >= mustHave,
          `log has ${sums} calls, ${mustHave} were recorded more than a second before the kill`,
        );
        assert.ok(sums <= before + acknowledged.length, 'nothing invented');
        acknowledged.length = 0;
        before = sums;
      }
      // A new sidecar takes the dead one's lock and goes on recording.
      const next = await serve(ws);
      await addViaGateway(next.client, 100);
      assert.doesNotMatch(next.stderr(), /only reads it/);
      await next.client.close();
      next.child.kill('SIGTERM');
      await next.exited;
      const final = await readLog(log, fromStored);
      assert.equal(final.dropped, 0, 'the torn tail (if any) was cut off when the new writer opened the log');
      assert.equal(final.records.filter((r) => r.toolKey === 'everything/get-sum').length, before + 1);
    } finally {
      ws.close();
    }
  });
});
