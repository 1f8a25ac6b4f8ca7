/**
 * The learned-search file as an attacker with a write tool that reaches the user's state folder
 * leaves it (issue 31): a 15 MB file and a deeply nested one are set aside (renamed beside it,
 * with a warning naming both), none of either parsed on the gateway's thread, and the first
 * find_tools is answered; one forged entry for the request's 5th tool, in the format MCP Lens wrote
 * before (which made it 1st) or naming a teacher, counts for no fresh session; one claiming the
 * user shared it moves the tool by at most the learned ranking's bound (core/usage/learnedLimits.ts),
 * and one with a weight out of range sets the whole file aside. Through the real gateway, an SDK
 * client and a stdio fixture server (test/fixtures/servers/opsTools.mjs).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { sanitizeSettings } from '../../protocol/settings';
import { ensureLearnedFolder, learnedFilePath, writeLearnedFile } from '../../server/src/adapters/usage/learnedFile';
import { readLearnedFileOffThread } from '../../server/src/adapters/usage/learnedFileReader';
import type { LearnedExample } from '../../server/src/core/usage/learnedExamples';
import { LensApp } from '../../server/src/app/lensApp';
import { inMemoryLensOptions } from '../../bench/src/inMemoryLens';
import { lineLogger, silentLogger } from '../../server/src/core/logger';
import { LEARNED_RANKING_KNOBS } from '../../server/src/core/usage/learnedRanking';
import { learnedTermsOf } from '../../server/src/core/usage/learnedTerms';
import { toolFingerprint } from '../../server/src/core/usage/toolFingerprint';
import { GatewayHttpServer } from '../../server/src/gateway/http';
import { connectAgent } from '../fixtures/agentClient';
import { makeWorkspace, ROOT, until, type TestWorkspace } from '../fixtures/gatewayLens';

const TOKEN = 'bounds-token-' + Math.random().toString(36).slice(2);
const OPS = {
  type: 'stdio' as const,
  command: process.execPath,
  args: [join(ROOT, 'test/fixtures/servers/opsTools.mjs')],
};
const REQUEST = 'read the project notes';

/**
 * Runs `run` and returns the longest text JSON.parse was given meanwhile on this thread: the
 * gateway's, since LensApp runs in the test's process (a worker thread has JSON of its own).
 */
async function longestParsedDuring(run: () => Promise<void>): Promise<number> {
  const parse = JSON.parse;
  let longest = 0;
  JSON.parse = ((text: string, reviver?: Parameters<typeof JSON.parse>[1]) => {
    longest = Math.max(longest, typeof text === 'string' ? text.length : 0);
    return parse(text, reviver);
  }) as typeof JSON.parse;
  try {
    await run();
  } finally {
    JSON.parse = parse;
  }
  return longest;
}

describe('search learning: the learned file as an attacker leaves it', () => {
  let workspace: TestWorkspace;
  let state: string;
  let file: string;
  let lens: LensApp | undefined;
  let http: GatewayHttpServer | undefined;
  let client: Client | undefined;
  let warnings: string[] = [];
  /** The cold answer to REQUEST, with scores, and each ops tool's catalog entry. */
  let cold: { key: string; score: number }[];
  /** The ops tools as the catalog held them (a forger can make their fingerprints too). */
  let catalog: ReturnType<LensApp['tools']>;

  const stop = async () => {
    await client?.close().catch(() => undefined);
    await http?.close();
    await lens?.close();
    client = http = lens = undefined;
  };
  const start = async () => {
    await stop(); // a subtest that failed half-way leaves its gateway running
    warnings = [];
    lens = await LensApp.start({
      ...inMemoryLensOptions(workspace.dir),
      storageDir: state,
      settings: sanitizeSettings({ embedding: { enabled: false } }),
      configFile: workspace.configFile,
      log: lineLogger((level, line) => level === 'warn' && warnings.push(line)),
    });
    http = new GatewayHttpServer({ lens, token: TOKEN, log: silentLogger, sessionIdleMs: 60_000 });
    const { url } = await http.start();
    await until('the ops tools are listed', () => lens!.tools().some((t) => t.originalName === 'destroy_backups'));
    client = await connectAgent(url, TOKEN, 'bounds-test');
  };
  const findTools = async (query: string): Promise<string[]> => {
    const r = await client!.callTool({ name: 'find_tools', arguments: { query, limit: 8 } });
    return (r.structuredContent as { matches: { name: string }[] }).matches.map((m) => m.name);
  };
  const tool = (original: string) => catalog.find((t) => t.originalName === original)!;
  const nameOf = (key: string) => catalog.find((t) => t.key === key)!.name;
  const setAside = () => readdirSync(dirname(file)).filter((n) => n.startsWith('search.json.set-aside-'));
  /** A learned example for `original` as MCP Lens would write it, with `extra` over it. */
  const entry = (original: string, request: string, extra: Record<string, unknown> = {}) => {
    const t = tool(original);
    const terms = [...new Set(learnedTermsOf(request))].sort();
    return {
      terms,
      words: terms,
      key: t.key,
      server: t.server,
      fingerprint: toolFingerprint(t),
      weight: 1,
      count: 1,
      at: Date.now() - 1000,
      by: '0123456789abcdef',
      ...extra,
    };
  };

  before(async () => {
    workspace = makeWorkspace({ ops: OPS });
    state = mkdtempSync(join(tmpdir(), 'mcp-lens-state-'));
    file = learnedFilePath(state);
    await start();
    catalog = lens!.tools();
    cold = (await lens!.search({ query: REQUEST, sessionId: 'cold', limit: 8 })).hits.map((h) => ({
      key: catalog.find((t) => t.name === h.name)!.key,
      score: h.score,
    }));
    await stop();
    ensureLearnedFolder(file);
  });
  after(async () => {
    await stop().catch(() => undefined);
    workspace?.close();
    rmSync(state, { recursive: true, force: true });
  });

  for (const [what, write] of [
    [
      'a 15 MB file',
      () => {
        const one = JSON.stringify({ ...entry('read_notes', REQUEST), words: undefined, by: undefined });
        const n = Math.ceil((15 * 1024 * 1024) / one.length);
        writeFileSync(file, `{"format":1,"examples":[${Array(n).fill(one).join(',')}]}`, { mode: 0o600 });
      },
    ],
    [
      'a deeply nested file',
      () => {
        const depth = 1_500_000;
        writeFileSync(file, `{"format":1,"examples":${'['.repeat(depth)}${']'.repeat(depth)}}`, { mode: 0o600 });
      },
    ],
  ] as const) {
    it(`${what} is set aside with a warning naming it, none of it parsed on the gateway's thread`, async () => {
      rmSync(dirname(file), { recursive: true, force: true });
      // The state folder of an earlier start (lens ran): the learned folder is recreated here.
      ensureLearnedFolder(file);
      write();
      const longest = await longestParsedDuring(async () => {
        await start();
        assert.ok((await findTools(REQUEST)).length > 0, 'the first find_tools is answered');
      });
      // Parsing it there is what held every session's first find_tools for seconds.
      assert.ok(longest < 1024 * 1024, `${longest} characters parsed on the gateway's thread`);
      await until('the file is set aside', () => !existsSync(file) && setAside().length === 1);
      const moved = join(dirname(file), setAside()[0]!);
      assert.ok(
        warnings.some((w) => w.includes(file) && w.includes(moved)),
        warnings.join('\n'),
      );
      await stop();
    });
  }

  it('a file of the size MCP Lens writes is read whole on the worker thread, in slices', async () => {
    const examples: LearnedExample[] = Array.from({ length: 3000 }, (_, i) => ({
      ...(entry('read_notes', `notes number w${i} of the project`) as LearnedExample),
      at: i,
    }));
    writeLearnedFile(file, examples);
    assert.deepEqual(await readLearnedFileOffThread(file), { examples });
  });

  it("one forged entry for the request's 5th tool, of the old format or naming a teacher, counts for no fresh session", async () => {
    const fifth = cold[4]!.key;
    assert.equal(fifth, tool('archive_logs').key, cold.map((h) => h.key).join(', '));
    // The old format (no provenance), with the weight it allowed: that made the 5th tool 1st.
    const { words: _w, by: _b, ...old } = entry('archive_logs', REQUEST, { weight: 40, count: 40 });
    writeFileSync(file, JSON.stringify({ format: 1, examples: [old] }), { mode: 0o600 });
    await start();
    assert.deepEqual(
      await findTools(REQUEST),
      cold.map((h) => nameOf(h.key)),
    );
    await stop();
    // Today's format, naming some teacher: it counts for that teacher's sessions alone.
    const asideBefore = setAside().length;
    writeFileSync(file, JSON.stringify({ format: 2, examples: [entry('archive_logs', REQUEST)] }), { mode: 0o600 });
    await start();
    assert.deepEqual(
      await findTools(REQUEST),
      cold.map((h) => nameOf(h.key)),
    );
    assert.equal(setAside().length, asideBefore, 'well-formed: believed, for whom it names');
    await stop();
  });

  it('a forged entry claiming the user shared it moves a tool by at most the bound; one out of range sets the file aside', async () => {
    const top = cold[0]!.score;
    // archive_logs has no word of the request: cold it scores far below the first hit, by more than the bound.
    const base = cold.find((h) => h.key === tool('archive_logs').key)?.score ?? 0;
    assert.ok(top - base > LEARNED_RANKING_KNOBS.lift * top, `${base} against ${top}`);
    writeFileSync(file, JSON.stringify({ format: 2, examples: [entry('archive_logs', REQUEST, { shared: true })] }), {
      mode: 0o600,
    });
    await start();
    const hits = (await lens!.search({ query: REQUEST, sessionId: 'fresh', limit: 8 })).hits;
    const archive = hits.find((h) => h.name === tool('archive_logs').name);
    assert.ok(archive, 'the shared entry counts for a fresh session');
    assert.ok(archive.score > base, 'it moved up');
    assert.ok(
      archive.score <= base + LEARNED_RANKING_KNOBS.lift * top + 1e-9,
      `${archive.score} > ${base} + ${LEARNED_RANKING_KNOBS.lift} × ${top}`,
    );
    assert.notEqual(hits[0]!.name, archive.name);
    assert.equal((archive.why.match(/learned:/g) ?? []).length, 1, `one reason: ${archive.why}`);
    await stop();
    writeFileSync(
      file,
      JSON.stringify({ format: 2, examples: [entry('archive_logs', REQUEST, { shared: true, weight: 40 })] }),
      { mode: 0o600 },
    );
    const before = setAside().length;
    await start();
    assert.ok((await findTools(REQUEST)).length > 0);
    await until('the file is set aside', () => !existsSync(file) && setAside().length === before + 1);
    assert.ok(
      warnings.some((w) => /its weight is not a number from -1 to 1/.test(w)),
      warnings.join('\n'),
    );
    await stop();
  });
});
