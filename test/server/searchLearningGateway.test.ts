/**
 * Search learning through the real gateway, with a real SDK client and server-everything:
 * find_tools → call_tool teaches, a later find_tools with the same words ranks the tool first
 * (in the session that taught it; in every session, also after a restart, once a second session
 * taught it too), the learned file is 0600 in the state folder and nothing is written in the
 * workspace, the dashboard lists what was learned (as typed), and forgetting (the dashboard's and
 * the command's request; `mcp-lens forget` against a running `serve`) clears it. "tally" is a
 * word no tool of server-everything uses: cold, it finds nothing.
 */
import assert from 'node:assert/strict';
import {
  existsSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { sanitizeSettings } from '../../protocol/settings';
import { learnedFilePath } from '../../server/src/adapters/usage/learnedFile';
import { workspaceStateDir } from '../../server/src/adapters/workspaceState';
import { LensApp } from '../../server/src/app/lensApp';
import { inMemoryLensOptions } from '../../bench/src/inMemoryLens';
import { lineLogger, silentLogger } from '../../server/src/core/logger';
import { lensHandlers } from '../../server/src/gateway/dashboard/handlers';
import { GatewayHttpServer } from '../../server/src/gateway/http';
import { connectAgent, findToolsWhenStarted } from '../fixtures/agentClient';
import { EVERYTHING, makeWorkspace, ROOT, until, type TestWorkspace } from '../fixtures/gatewayLens';

const TOKEN = 'learn-token-' + Math.random().toString(36).slice(2);

interface FindToolsResult {
  matches: { name: string; signals: string[]; why: string }[];
}

async function findTools(c: Client, query: string): Promise<FindToolsResult['matches']> {
  const r = await c.callTool({ name: 'find_tools', arguments: { query } });
  return (r.structuredContent as unknown as FindToolsResult).matches;
}

/** Every file under `dir`, relative, sorted. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(relative(dir, p));
    }
  };
  walk(dir);
  return out.sort();
}

describe('search learning through the gateway', () => {
  let workspace: TestWorkspace;
  /** The user's state folder for this workspace (VS Code's workspace storage in the editor). */
  let state: string;
  let lens: LensApp;
  let http: GatewayHttpServer;
  let url: string;
  let workspaceFiles: string[];
  const clients: Client[] = [];
  const sumName = () => lens.tools().find((t) => t.originalName === 'get-sum')!.name;

  const start = async (settings: Record<string, unknown> = {}) => {
    lens = await LensApp.start({
      ...inMemoryLensOptions(workspace.dir),
      storageDir: state,
      settings: sanitizeSettings({ ...settings, embedding: { enabled: false } }),
      configFile: workspace.configFile,
    });
    http = new GatewayHttpServer({ lens, token: TOKEN, log: silentLogger, sessionIdleMs: 60_000 });
    ({ url } = await http.start());
  };
  const stop = async () => {
    for (const c of clients.splice(0)) await c.close().catch(() => undefined);
    await http.close();
    await lens.close();
  };
  const connect = async () => {
    const c = await connectAgent(url, TOKEN, 'learn-test');
    clients.push(c);
    return c;
  };

  before(async () => {
    workspace = makeWorkspace({ everything: EVERYTHING });
    workspaceFiles = filesUnder(workspace.dir);
    state = mkdtempSync(join(tmpdir(), 'mcp-lens-state-'));
    await start();
  });

  after(async () => {
    await stop().catch(() => undefined);
    workspace?.close();
    rmSync(state, { recursive: true, force: true });
  });

  /** One agent session's find_tools → call pair: it rephrases, finds get-sum and calls it (tally, sum → get-sum). */
  const teach = async (c: Client) => {
    await findTools(c, 'tally 3 and 4');
    assert.equal((await findTools(c, 'sum of 3 and 4'))[0]?.name, sumName());
    const r = await c.callTool({ name: 'call_tool', arguments: { tool_name: sumName(), arguments: { a: 3, b: 4 } } });
    assert.notEqual(r.isError, true);
  };

  it('find_tools → call_tool teaches its session; once a second session taught it, every session', async () => {
    const a = await connect();
    assert.deepEqual(await findTools(a, 'tally 3 and 4'), [], 'cold, no tool matches "tally"');
    await teach(a);
    const own = await findTools(a, 'tally 7 and 8');
    assert.equal(own[0]?.name, sumName(), JSON.stringify(own));
    assert.ok(own[0]!.signals.includes('usage'));
    assert.match(own[0]!.why, /^learned: 1 past request with these words led here(;|$)/);
    assert.equal(own[0]!.why.match(/learned/g)!.length, 1, `said once: ${own[0]!.why}`);
    assert.deepEqual(await findTools(await connect(), 'tally 7 and 8'), [], 'not yet for another session');
    await teach(await connect());
    const matches = await findTools(await connect(), 'tally 7 and 8');
    assert.equal(matches[0]?.name, sumName(), JSON.stringify(matches));
    assert.match(matches[0]!.why, /^learned: 2 past requests with these words led here(;|$)/);
    assert.equal(matches[0]!.why.split('learned:').length, 2, `learning said once: ${matches[0]!.why}`);
  });

  it('keeps it 0600 in the state folder, only analysed words, nothing in the workspace, across a restart', async () => {
    const file = learnedFilePath(state);
    await until('the learned file is written', () => existsSync(file));
    assert.equal(lstatSync(file).mode & 0o777, 0o600);
    assert.equal(lstatSync(dirname(file)).mode & 0o777, 0o700);
    const text = readFileSync(file, 'utf8');
    assert.match(text, /"talli"/);
    assert.match(text, /"tally"/, 'the word as typed, for the dashboard');
    assert.doesNotMatch(text, /tally 3|sum of 3|"a":3/, 'never the request text nor the arguments');
    assert.deepEqual(filesUnder(workspace.dir), workspaceFiles, 'nothing written in the workspace');
    await stop();
    await start();
    const c = await connect();
    assert.equal((await findTools(c, 'tally 7 and 8'))[0]?.name, sumName());
  });

  it('the dashboard lists what was learned; forgetting (the Forget button and the command) clears memory and file', async () => {
    const handlers = lensHandlers(
      lens,
      () => {
        throw new Error('not used');
      },
      undefined,
      () => undefined,
    );
    const view = await handlers.learnedSearch({});
    assert.ok(view && view.enabled);
    const sum = view.tools.find((t) => t.name === sumName())!;
    assert.deepEqual(sum.words.map((w) => [w.word, w.everyone]).sort(), [
      ['sum', true],
      ['tally', true],
    ]);
    assert.deepEqual([sum.requests, sum.sessions], [2, 2]);
    assert.deepEqual(await handlers.forgetLearnedSearch({}), { ok: true });
    assert.equal(existsSync(learnedFilePath(state)), false);
    assert.deepEqual((await handlers.learnedSearch({}))?.tools, []);
    const c = await connect();
    assert.deepEqual(await findTools(c, 'tally 7 and 8'), []);
  });

  it('a link in place of the learned file is neither read nor written through', async () => {
    const file = learnedFilePath(state);
    const outside = join(state, 'elsewhere.json');
    writeFileSync(outside, 'not ours\n', { mode: 0o600 });
    symlinkSync(outside, file);
    const warnings: string[] = [];
    await stop();
    lens = await LensApp.start({
      ...inMemoryLensOptions(workspace.dir),
      storageDir: state,
      settings: sanitizeSettings({ embedding: { enabled: false } }),
      configFile: workspace.configFile,
      log: lineLogger((level, line) => level === 'warn' && warnings.push(line)),
    });
    http = new GatewayHttpServer({ lens, token: TOKEN, log: silentLogger, sessionIdleMs: 60_000 });
    ({ url } = await http.start());
    // The file is read off the gateway's thread: the warning comes once that read is done.
    await until('the link is refused', () => warnings.some((w) => w.includes(file) && /symbolic link/.test(w)));
    const c = await connect();
    await findTools(c, 'sum of 3 and 4');
    await c.callTool({ name: 'call_tool', arguments: { tool_name: sumName(), arguments: { a: 1, b: 2 } } });
    await until('the write is refused', () => warnings.some((w) => w.includes('cannot write')));
    assert.equal(readFileSync(outside, 'utf8'), 'not ours\n');
    rmSync(file);
  });

  it('with mcpLens.search.learnFromUsage off nothing is learned or written', async () => {
    await stop();
    rmSync(learnedFilePath(state), { force: true });
    await start({ search: { learnFromUsage: false } });
    const a = await connect();
    await findTools(a, 'tally 3 and 4');
    await findTools(a, 'sum of 3 and 4');
    await a.callTool({ name: 'call_tool', arguments: { tool_name: sumName(), arguments: { a: 3, b: 4 } } });
    const b = await connect();
    assert.deepEqual(await findTools(b, 'tally 7 and 8'), []);
    assert.equal(lens.learnedSearch().enabled, false);
    // The gateway too: a listening one left behind would keep the test process running.
    await stop();
    assert.equal(existsSync(learnedFilePath(state)), false);
    await start();
  });
});

describe('mcp-lens forget', () => {
  it('clears what a running `mcp-lens serve` learned, which then ranks cold again', { timeout: 120_000 }, async () => {
    const workspace = makeWorkspace({ everything: EVERYTHING });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(ROOT, 'dist', 'cli.js'), 'serve', '--workspace', workspace.dir, '--config', workspace.configFile],
      cwd: ROOT,
      env: { ...process.env, MCP_LENS_LOG: 'warn' } as Record<string, string>,
      stderr: 'ignore',
    });
    const client = new Client({ name: 'forget-test', version: '1.0.0' });
    try {
      await client.connect(transport);
      const sum = 'everything_get-sum';
      await findToolsWhenStarted(client, { query: 'tally 3 and 4' });
      assert.equal((await findTools(client, 'sum of 3 and 4'))[0]?.name, sum);
      await client.callTool({ name: 'call_tool', arguments: { tool_name: sum, arguments: { a: 3, b: 4 } } });
      assert.equal((await findTools(client, 'tally 7 and 8'))[0]?.name, sum);
      // The file the CLI keeps for this workspace, found the way `mcp-lens forget` finds it.
      const file = learnedFilePath(workspaceStateDir(workspace.dir));
      await until('serve wrote the learned file', () => existsSync(file), 30_000);
      const run = spawnSync(process.execPath, [join(ROOT, 'dist', 'cli.js'), 'forget', '--workspace', workspace.dir], {
        encoding: 'utf8',
      });
      assert.equal(run.status, 0, run.stderr);
      assert.match(run.stdout, /^Forgot 1 learned request \(/);
      assert.equal(existsSync(file), false);
      // The running gateway sees the file gone at its next search.
      assert.deepEqual(await findTools(client, 'tally 7 and 8'), []);
      const again = spawnSync(
        process.execPath,
        [join(ROOT, 'dist', 'cli.js'), 'forget', '--workspace', workspace.dir, '--json'],
        { encoding: 'utf8' },
      );
      assert.deepEqual(JSON.parse(again.stdout), { file, forgotten: 0 });
    } finally {
      await client.close().catch(() => undefined);
      workspace.close();
    }
  });
});
