/**
 * Live retrieval quality through the real gateway: SDK clients over streamable HTTP, real
 * upstreams (server-everything, server-memory). Each agent call is judged against its
 * session's last find_tools answer (rank, missed, unsearched, follow-up), direct calls in
 * pinned mode included and dashboard calls excluded; only ranks reach the disk (no query, no
 * arguments); the figures survive a restart, `mcp-lens stats` prints them (text and --json),
 * and nothing is stored when usage is off.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RetrievalWindow, UsageStats } from '../../protocol/model';
import { ensureWorkspaceStateDir } from '../../server/src/adapters/workspaceState';
import { connectAgent } from '../fixtures/agentClient';
import { EVERYTHING, MEMORY, ROOT, reopenLens, startHttpLens, type HttpLensWorld } from '../fixtures/gatewayLens';

const TOKEN = 'retrieval-token-' + Math.random().toString(36).slice(2);
const CLI = ['--import', 'tsx', join(ROOT, 'server/src/cli/main.ts')];
const QUERIES = ['add two numbers together and return their sum', 'echo back the message I send'];
const PLANTED = 'planted-argument-value-91c2';

interface FindToolsAnswer {
  matches: { name: string }[];
}

/** The window without its timestamps, for exact comparison. */
function counts(w: RetrievalWindow | undefined): Omit<RetrievalWindow, 'firstAt' | 'lastAt'> | undefined {
  if (!w) return undefined;
  const { firstAt: _f, lastAt: _l, ...rest } = w;
  return rest;
}

describe('live retrieval quality through the gateway', () => {
  let world: HttpLensWorld;
  const clients: Client[] = [];

  async function connect(): Promise<Client> {
    const c = await connectAgent(world.url, TOKEN, 'retrieval-test');
    clients.push(c);
    return c;
  }
  const name = (original: string) => world.lens.tools().find((t) => t.originalName === original)!.name;
  async function findTools(c: Client, query: string): Promise<string[]> {
    const r = await c.callTool({ name: 'find_tools', arguments: { query, limit: 5 } });
    assert.notEqual(r.isError, true, JSON.stringify(r.content));
    return (r.structuredContent as unknown as FindToolsAnswer).matches.map((m) => m.name);
  }
  async function callTool(c: Client, tool: string, args: Record<string, unknown>): Promise<void> {
    const r = await c.callTool({ name: 'call_tool', arguments: { tool_name: tool, arguments: args } });
    assert.notEqual(r.isError, true, JSON.stringify(r.content));
  }
  /** The rank judgeCall should give `tool` in `answer`, computed the obvious way. */
  const expected = (answer: string[], tool: string) => (answer.includes(tool) ? answer.indexOf(tool) + 1 : 'missed');

  // The Lens keeps its usage where the CLI does (the user's state folder, here a temp one), so
  // `mcp-lens stats` reads the same log.
  const state = mkdtempSync(join(tmpdir(), 'mcp-lens-state-'));
  const stateEnv = { ...process.env, XDG_STATE_HOME: state };
  before(async () => {
    world = await startHttpLens({ everything: EVERYTHING, memory: MEMORY }, TOKEN, {}, (dir) =>
      ensureWorkspaceStateDir(dir, { XDG_STATE_HOME: state }),
    );
  });

  after(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    await world?.close();
    rmSync(state, { recursive: true, force: true });
  });

  it("judges each agent call against its session's last find_tools answer, direct calls included", async () => {
    const ranks: (number | 'missed')[] = [];
    // Session 1: search, pick, then a follow-up call without a new search.
    const s1 = await connect();
    const a1 = await findTools(s1, QUERIES[0]!);
    ranks.push(expected(a1, name('get-sum')));
    await callTool(s1, name('get-sum'), { a: 1, b: 2 });
    await callTool(s1, name('echo'), { message: PLANTED });

    // Session 2: a call with no search at all, then a search whose answer lacks the tool called next.
    const s2 = await connect();
    await callTool(s2, name('echo'), { message: 'no search first' });
    const a2 = await findTools(s2, QUERIES[1]!);
    const outside = ['read_graph', 'create_entities', 'get-tiny-image', 'get-env']
      .map(name)
      .find((n) => !a2.includes(n))!;
    ranks.push(expected(a2, outside));
    assert.equal(ranks[1], 'missed');
    await callTool(s2, outside, {});

    // Session 3, pinned mode: the pinned tool is called directly (not through call_tool) after a search.
    await world.lens.updateSettings({ ...world.lens.settings(), exposure: 'pinned', pinnedTools: [name('get-sum')] });
    try {
      const s3 = await connect();
      assert.ok(
        (await s3.listTools()).tools.some((t) => t.name === name('get-sum')),
        'get-sum is listed directly',
      );
      const a3 = await findTools(s3, QUERIES[0]!);
      ranks.push(expected(a3, name('get-sum')));
      const direct = await s3.callTool({ name: name('get-sum'), arguments: { a: 2, b: 3 } });
      assert.notEqual(direct.isError, true);
    } finally {
      await world.lens.updateSettings({ ...world.lens.settings(), exposure: 'search', pinnedTools: [] });
    }

    // A person trying a tool in the dashboard is not an agent picking from an answer.
    await world.lens.callTool(name('echo'), { message: 'from the dashboard' }, { origin: 'dashboard' });

    const numeric = ranks.filter((r): r is number => typeof r === 'number');
    const retrieval = world.lens.usageStats()!.retrieval!;
    assert.deepEqual(counts(retrieval.recent), {
      sessions: 3,
      calls: 5,
      picks: 3,
      top1: numeric.filter((r) => r === 1).length,
      top5: numeric.filter((r) => r <= 5).length,
      missed: ranks.filter((r) => r === 'missed').length,
      unsearched: 1,
    });
    assert.equal(numeric.length, 2, `get-sum is in the top 5 for "${QUERIES[0]}": ${ranks.join(', ')}`);
    assert.equal(retrieval.earlier, undefined);
  });

  it('stores ranks only, keeps the figures across a restart, and `mcp-lens stats` prints them', async () => {
    const before = world.lens.usageStats()!.retrieval;
    await world.http.close();
    await world.lens.close();
    // Closing flushed the log: it holds ranks, and no query text or argument value.
    const dir = join(world.storageDir!, 'usage');
    const stored = readdirSync(dir)
      .map((f) => readFileSync(join(dir, f), 'latin1'))
      .join('\n');
    assert.match(stored, /"r":"missed"/, 'ranks are stored');
    for (const secret of [...QUERIES, PLANTED, 'no search first', 'two numbers', 'echo back'])
      assert.ok(!stored.includes(secret), `"${secret}" is not stored`);
    const again = await reopenLens(world);
    try {
      assert.deepEqual(again.usageStats()!.retrieval, before);
    } finally {
      await again.close();
    }
    // No gateway runs now: stats opens the workspace itself and reads the same usage log.
    const json = spawnSync(
      process.execPath,
      [...CLI, 'stats', '--json', '--workspace', world.workspace.dir, '--config', world.workspace.configFile],
      {
        cwd: ROOT,
        env: stateEnv,
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    assert.equal(json.status, 0, json.stderr);
    const usage = (JSON.parse(json.stdout) as { usage: UsageStats }).usage;
    assert.deepEqual(usage.retrieval, before);
    const text = spawnSync(
      process.execPath,
      [...CLI, 'stats', '--workspace', world.workspace.dir, '--config', world.workspace.configFile],
      {
        cwd: ROOT,
        env: stateEnv,
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    assert.equal(text.status, 0, text.stderr);
    const w = before!.recent;
    assert.match(text.stdout, new RegExp(`Search quality over the last 3 sessions \\(5 agent calls\\):`));
    assert.match(
      text.stdout,
      new RegExp(
        `picked tool ranked 1st by find_tools: +${Math.round((w.top1 / w.picks) * 100)}%  \\(${w.top1} of 3 picks\\)`,
      ),
    );
    assert.match(text.stdout, /called without a find_tools first: +20% {2}\(1 of 5 calls\)/);
    // Advice only when it applies: these sessions show no falling trend.
    assert.equal(before!.trend, undefined);
    assert.doesNotMatch(text.stdout, /A falling rate means/);
  });

  it('stores nothing when usage is off', async () => {
    const off = await startHttpLens({ everything: EVERYTHING }, TOKEN, {
      usage: { enabled: false, retentionDays: 90 },
    });
    try {
      const c = await connectAgent(off.url, TOKEN, 'retrieval-off');
      await c.callTool({ name: 'find_tools', arguments: { query: QUERIES[0]! } });
      const r = await c.callTool({
        name: 'call_tool',
        arguments: {
          tool_name: off.lens.tools().find((t) => t.originalName === 'get-sum')!.name,
          arguments: { a: 1, b: 1 },
        },
      });
      assert.notEqual(r.isError, true, 'the call itself works');
      await c.close();
      assert.deepEqual(off.lens.usageStats(), { enabled: false, callsRecorded: 0, topTools: [], pairs: [] });
      assert.equal(existsSync(join(off.workspace.dir, '.mcp-lens', 'usage')), false);
    } finally {
      await off.close();
    }
  });
});
