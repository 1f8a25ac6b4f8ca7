/**
 * What one session's teaching may do to another's search (issue 31, "One session steers search for
 * everyone"), through the real gateway with real SDK client sessions over HTTP and a real stdio
 * fixture server (test/fixtures/servers/opsTools.mjs: everyday tools, `destroy_backups` annotated
 * destructive, `archive_logs` not):
 * - six find_tools → call pairs in one session teaching `destroy_backups` everyday words leave a
 *   fresh session's answers as they were, also after a restart; a second session teaching the
 *   same spreads it, but a destructive tool is never first by learning alone, not even in the
 *   sessions that taught it;
 * - a tool that is not destructive, taught by two sessions, is first for every session;
 * - the learned file names no session.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { sanitizeSettings } from '../../protocol/settings';
import { learnedFilePath } from '../../server/src/adapters/usage/learnedFile';
import { LensApp } from '../../server/src/app/lensApp';
import { inMemoryLensOptions } from '../../bench/src/inMemoryLens';
import { silentLogger } from '../../server/src/core/logger';
import { GatewayHttpServer } from '../../server/src/gateway/http';
import { connectAgent } from '../fixtures/agentClient';
import { makeWorkspace, ROOT, until, type TestWorkspace } from '../fixtures/gatewayLens';

const TOKEN = 'sessions-token-' + Math.random().toString(36).slice(2);
const OPS = {
  type: 'stdio' as const,
  command: process.execPath,
  args: [join(ROOT, 'test/fixtures/servers/opsTools.mjs')],
};
const DESTROY = 'ops_destroy_backups';
const ARCHIVE = 'ops_archive_logs';
/** Everyday requests, and the sixth pair's words: what the poisoning session teaches `destroy_backups`. */
const EVERYDAY = [
  'show the files in my folder',
  'read the project notes',
  'send a message to my teammate',
  'search the docs about setup',
  'create a reminder for tomorrow',
];
const SIXTH = 'what is new in the project';

describe('search learning: one session cannot steer another', () => {
  let workspace: TestWorkspace;
  let state: string;
  let lens: LensApp;
  let http: GatewayHttpServer;
  let url: string;
  const clients: Client[] = [];

  const start = async () => {
    lens = await LensApp.start({
      ...inMemoryLensOptions(workspace.dir),
      storageDir: state,
      // Consent is off: the agent calls a destructive tool here to teach search, and a client that
      // cannot be asked would be refused it (toolConsent.test.ts covers consent).
      settings: sanitizeSettings({ embedding: { enabled: false }, consent: 'off' }),
      configFile: workspace.configFile,
    });
    http = new GatewayHttpServer({ lens, token: TOKEN, log: silentLogger, sessionIdleMs: 60_000 });
    ({ url } = await http.start());
    await until('the ops tools are listed', () => lens.tools().some((t) => t.name === DESTROY));
  };
  const stop = async () => {
    for (const c of clients.splice(0)) await c.close().catch(() => undefined);
    await http.close();
    await lens.close();
  };
  const session = async () => {
    const c = await connectAgent(url, TOKEN, 'sessions-test');
    clients.push(c);
    return c;
  };
  const findTools = async (c: Client, query: string): Promise<string[]> => {
    const r = await c.callTool({ name: 'find_tools', arguments: { query, limit: 8 } });
    return (r.structuredContent as { matches: { name: string }[] }).matches.map((m) => m.name);
  };
  /** One find_tools → call pair: the agent searches, then calls `tool` whatever the answer was. */
  const pair = async (c: Client, query: string, tool: string) => {
    await findTools(c, query);
    const r = await c.callTool({ name: 'call_tool', arguments: { tool_name: tool, arguments: {} } });
    assert.notEqual(r.isError, true);
  };
  /** What a fresh session is answered for each request. */
  const answers = async (queries: readonly string[]) => {
    const c = await session();
    const out: string[][] = [];
    for (const q of queries) out.push(await findTools(c, q));
    return out;
  };
  /** Waits until what was learned is on disk (the learned file is written a moment after each lesson). */
  const written = async (requests: number) =>
    until(`${requests} learned requests written`, () => {
      const file = learnedFilePath(state);
      return (
        existsSync(file) &&
        (JSON.parse(readFileSync(file, 'utf8')) as { examples: unknown[] }).examples.length >= requests
      );
    });

  before(async () => {
    workspace = makeWorkspace({ ops: OPS });
    state = mkdtempSync(join(tmpdir(), 'mcp-lens-state-'));
    await start();
  });
  after(async () => {
    await stop().catch(() => undefined);
    workspace?.close();
    rmSync(state, { recursive: true, force: true });
  });

  it('six pairs in one session leave fresh sessions unaffected, after a restart too; the file names no session', async () => {
    const cold = await answers([...EVERYDAY, SIXTH]);
    const poisoner = await session();
    for (const q of [...EVERYDAY, SIXTH]) await pair(poisoner, q, DESTROY);
    assert.deepEqual(await answers([...EVERYDAY, SIXTH]), cold, 'a fresh session is answered as before');
    // In the session that taught it, learning moves it up, but never to first place.
    for (const q of EVERYDAY) {
      const own = await findTools(poisoner, q);
      assert.notEqual(own[0], DESTROY, q);
      assert.ok(own.includes(DESTROY), `${q}: ${own.join(', ')}`);
    }
    await written(6);
    const text = readFileSync(learnedFilePath(state), 'utf8');
    const sessionId = (poisoner.transport as StreamableHTTPClientTransport).sessionId!;
    assert.ok(!text.includes(sessionId), 'the file holds a hash of who taught, never a session id');
    assert.ok((JSON.parse(text) as { examples: { by: string }[] }).examples.every((e) => /^[0-9a-f]{16}$/.test(e.by)));
    await stop();
    await start();
    assert.deepEqual(await answers([...EVERYDAY, SIXTH]), cold, 'after a restart, the lessons are still its own');
  });

  it('a second session teaching the same spreads it, but never makes the destructive tool first', async () => {
    const cold = await answers(EVERYDAY);
    const second = await session();
    for (const q of [...EVERYDAY, SIXTH]) await pair(second, q, DESTROY);
    const now = await answers(EVERYDAY);
    for (const [i, q] of EVERYDAY.entries()) {
      const was = cold[i]!.indexOf(DESTROY);
      const is = now[i]!.indexOf(DESTROY);
      assert.ok(is > 0, `${q}: ${now[i]!.join(', ')}`);
      assert.ok(was === -1 || is < was, `${q}: ${was} → ${is}`);
      assert.equal(now[i]![0], cold[i]![0], `${q}: the first tool stays first`);
    }
  });

  it('a tool that is not destructive, taught by two sessions, is first for every session; by one, only for it', async () => {
    const request = 'free up some space';
    const [cold] = await answers([request]);
    assert.notEqual(cold![0], ARCHIVE);
    const first = await session();
    await pair(first, request, ARCHIVE);
    assert.equal((await findTools(first, request))[0], ARCHIVE, 'first for the session that taught it');
    assert.deepEqual((await answers([request]))[0], cold, 'not for a fresh session');
    await pair(await session(), request, ARCHIVE);
    assert.equal((await answers([request]))[0]![0], ARCHIVE, 'first for every session once two taught it');
  });
});
