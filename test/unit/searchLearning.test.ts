import { test } from 'node:test';
import assert from 'node:assert/strict';
import { catalogToolsOf } from '../../bench/src/dataset';
import type { CatalogTool } from '../../server/src/core/catalog';
import { lineLogger } from '../../server/src/core/logger';
import { RankingPipeline } from '../../server/src/core/search/rankingPipeline';
import { LearnedExamples, type Lesson } from '../../server/src/core/usage/learnedExamples';
import { learnedTermsOf, learnedWordsOf } from '../../server/src/core/usage/learnedTerms';
import { SessionSteps, STEP_RULES, type CalledTool } from '../../server/src/core/usage/searchSteps';
import { toolFingerprint } from '../../server/src/core/usage/toolFingerprint';
import { SearchLearning } from '../../server/src/usage/searchLearning';
import type { OthersTaught, SharedLessons, TaughtLesson } from '../../server/src/adapters/state/pgLessons';

// A small catalog and requests written for these tests: "literature" is a word no tool uses
// (search_papers says "papers"), and "show me what's in the music folder" ranks read_file first.
const TOOLS: CatalogTool[] = catalogToolsOf([
  {
    server: 'files',
    name: 'list_directory',
    description: 'List the entries of a directory: files and subfolders, with their sizes.',
    inputSchema: { type: 'object', properties: { path: { type: 'string', description: 'Directory path' } } },
  },
  {
    server: 'files',
    name: 'read_file',
    description: "Read a text file's contents.",
    inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
  },
  {
    server: 'files',
    name: 'search_files',
    description: 'Find files by name under a directory, with a glob pattern.',
    inputSchema: { type: 'object', properties: { pattern: { type: 'string' } } },
  },
  {
    server: 'papers',
    name: 'search_papers',
    description: 'Search arXiv papers by keyword; returns titles, authors and abstracts.',
    inputSchema: { type: 'object', properties: { query: { type: 'string' } } },
  },
  {
    server: 'web',
    name: 'web_search',
    description: 'Search the web for pages, news and articles about a topic.',
    inputSchema: { type: 'object', properties: { query: { type: 'string' } } },
  },
  {
    server: 'weather',
    name: 'get_forecast',
    description: 'Weather forecast for a city for the next days.',
    inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
  },
]);

const PAPERS = 'papers/search_papers';
const WEB = 'web/web_search';
const LIST = 'files/list_directory';
const READ = 'files/read_file';

/** Search learning over TOOLS with a clock the test moves, and the pipeline the gateway ranks with. */
function world(options: Partial<ConstructorParameters<typeof SearchLearning>[0]> = {}) {
  let clock = 1_000_000;
  const learning = new SearchLearning({
    enabled: true,
    log: lineLogger(() => undefined),
    now: () => clock,
    ...options,
  });
  learning.syncCatalog(TOOLS);
  const pipeline = new RankingPipeline();
  pipeline.setTools(TOOLS);
  /** A search as `session` (default: a fresh session that taught nothing), with learning or without. */
  const rank = async (query: string, learned = true, session = 'fresh') =>
    (
      await pipeline.rank(query, { limit: 6, sessionId: session, ...(learned ? { usage: [learning.signal] } : {}) })
    ).hits.map((h) => h.key);
  return {
    learning,
    rank,
    tick: (ms: number) => (clock += ms),
    /** find_tools in a session: ranked as the gateway ranks, then noted. */
    async search(session: string, query: string): Promise<string[]> {
      const answer = await rank(query, true, session);
      learning.noteSearch(session, query, answer);
      return answer;
    },
    call(session: string, toolKey: string, outcome: 'ok' | 'error' = 'ok', fromAgent = true): void {
      clock += 2000;
      learning.noteCall({ sessionId: session, toolKey, outcome, fromAgent });
    },
    learned: (key: string) => learning.view(() => undefined).tools.find((t) => t.name === key),
  };
}

test('a cold start is the ranking without learning, exactly', async () => {
  const w = world();
  for (const q of [
    'find literature on protein folding',
    "show me what's in the music folder",
    'will it rain in Paris',
    'search',
  ])
    assert.deepEqual(await w.rank(q, true), await w.rank(q, false), q);
  // Searches without calls teach nothing.
  await w.search('s', 'find literature on protein folding');
  assert.equal(w.learning.size, 0);
});

test('find_tools then a call teaches the request words, and a later request with them finds the tool', async () => {
  const w = world();
  assert.deepEqual(await w.rank('literature about protein folding', false), [], 'no tool says "literature"');
  const answer = await w.search('s1', 'find literature on protein folding');
  assert.notEqual(answer[0], PAPERS);
  w.call('s1', PAPERS);
  w.tick(600_000);
  assert.equal((await w.rank('literature about protein folding', true, 's1'))[0], PAPERS);
  assert.equal((await w.rank('recent literature on protein folding', true, 's1'))[0], PAPERS);
  // What is shown: the words as typed, never the request's text, nor the stems the ranking compares.
  const learned = w.learned(PAPERS)!;
  assert.equal(learned.requests, 1);
  assert.deepEqual(learned.words.map((x) => x.word).sort(), ['find', 'folding', 'literature', 'protein']);
  // Unrelated requests are not touched.
  assert.deepEqual(
    await w.rank('weather forecast for Paris', true, 's1'),
    await w.rank('weather forecast for Paris', false),
  );
});

test('a tool found after rephrasing learns the words of every rephrasing', async () => {
  const w = world();
  assert.deepEqual(await w.search('s', 'literature about protein folding'), []);
  w.tick(5000);
  assert.equal((await w.search('s', 'papers about protein folding'))[0], PAPERS);
  w.call('s', PAPERS);
  assert.ok(w.learned(PAPERS)!.words.some((x) => x.word === 'literature'));
  assert.equal((await w.rank('literature on protein folding', true, 's'))[0], PAPERS);
});

test('a call that fails teaches nothing; the tool that then works does', async () => {
  const w = world();
  await w.search('s', 'find literature on protein folding');
  w.call('s', WEB, 'error');
  assert.equal(w.learning.size, 0);
  w.call('s', PAPERS);
  assert.equal(w.learned(PAPERS)!.weight, 1);
  assert.equal(w.learned(WEB), undefined);
});

test('a dashboard or palette call, or a call with no find_tools before it, teaches nothing', async () => {
  const w = world();
  w.call('s', PAPERS);
  await w.search('s2', 'find literature on protein folding');
  w.call('s2', PAPERS, 'ok', false);
  assert.equal(w.learning.size, 0);
});

test('a quick re-search then a different tool: the first tool counts against the words, the second learns them', async () => {
  const w = world();
  await w.search('s', 'find literature on protein folding');
  w.call('s', WEB);
  assert.equal(w.learned(WEB)!.weight, 1);
  w.tick(5000);
  await w.search('s', 'find literature on protein folding papers');
  assert.equal(w.learned(WEB)!.weight, 0.5, 'a re-search puts it in doubt');
  w.call('s', PAPERS);
  const web = w.learned(WEB)!;
  assert.deepEqual([web.requests, web.against, web.weight], [0, 1, -0.5]);
  assert.equal(w.learned(PAPERS)!.weight, 1);
  // For these words search_papers now ranks higher than it did cold, and web_search lower.
  const after = await w.rank('find literature on protein folding', true, 's');
  const cold = await w.rank('find literature on protein folding', false);
  assert.ok(after.indexOf(PAPERS) < cold.indexOf(PAPERS), `${after.join(',')} vs ${cold.join(',')}`);
  assert.ok(after.indexOf(WEB) > cold.indexOf(WEB), `${after.join(',')} vs ${cold.join(',')}`);
});

test('a quick re-search then the same tool again confirms it', async () => {
  const w = world();
  await w.search('s', "show me what's in the music folder");
  w.call('s', LIST);
  w.tick(5000);
  await w.search('s', "show me what's in the music folder please");
  assert.equal(w.learned(LIST)!.weight, 0.5);
  w.call('s', LIST);
  assert.equal(w.learned(LIST)!.weight, 1);
});

test('a search long after the call, or about other things, is a new step, not a re-search', async () => {
  const w = world();
  await w.search('s', 'find literature on protein folding');
  w.call('s', WEB);
  w.tick(STEP_RULES.researchWindowMs + 1000);
  await w.search('s', 'find literature on protein folding');
  assert.equal(w.learned(WEB)!.weight, 1);
  w.call('s', PAPERS);
  assert.equal(w.learned(WEB)!.weight, 1, 'the earlier step stands');
  await w.search('s', 'will it rain in Paris this weekend');
  assert.equal(w.learned(PAPERS)!.weight, 1);
});

test('a second tool called for the same step weighs less; a tool no answer showed weighs less', () => {
  const steps = new SessionSteps('aaaaaaaaaaaaaaaa');
  const tool = (key: string): CalledTool => ({ key, server: key.split('/')[0]!, fingerprint: '0'.repeat(16) });
  assert.deepEqual(steps.search(learnedWordsOf('show the music folder'), [READ, LIST], 0), []);
  const first = steps.call(tool(LIST), true, 1000);
  const second = steps.call(tool(READ), true, 2000);
  const again = steps.call(tool(READ), true, 3000);
  assert.deepEqual(
    [...first, ...second].map((l) => [l.key, l.delta]),
    [
      [LIST, 1],
      [READ, STEP_RULES.extraToolWeight],
    ],
  );
  assert.deepEqual(again, [], 'calling it again is a follow-up');
  const other = new SessionSteps('bbbbbbbbbbbbbbbb');
  other.search(learnedWordsOf('weather in Paris'), [READ], 0);
  assert.deepEqual(
    other.call(tool('weather/get_forecast'), true, 1000).map((l) => l.delta),
    [STEP_RULES.unshownWeight],
  );
});

test('a changed or removed tool forgets what was learned for it; a server that is not listed keeps it', async () => {
  const w = world();
  await w.search('s1', 'find literature on protein folding');
  w.call('s1', PAPERS);
  w.tick(600_000);
  await w.search('s2', "show me what's in the music folder");
  w.call('s2', LIST);
  assert.equal(w.learning.size, 2);
  // The papers server is down (not listed): what was learned for it stays.
  w.learning.syncCatalog(TOOLS.filter((t) => t.server !== 'papers'));
  assert.equal(w.learning.size, 2);
  // search_papers comes back with a new description: forgotten.
  w.learning.syncCatalog(
    TOOLS.map((t) => (t.key === PAPERS ? { ...t, description: `${t.description} Also bioRxiv.` } : t)),
  );
  assert.equal(w.learned(PAPERS), undefined);
  assert.ok(w.learned(LIST));
  // list_directory disappears from a server that still lists others: forgotten.
  w.learning.syncCatalog(TOOLS.filter((t) => t.key !== LIST));
  assert.equal(w.learning.size, 0);
  // The same description with its schema's keys in another order is the same tool.
  const t = TOOLS[0]!;
  assert.equal(
    toolFingerprint(t),
    toolFingerprint({
      ...t,
      inputSchema: { properties: { path: { description: 'Directory path', type: 'string' } }, type: 'object' },
    }),
  );
  assert.notEqual(
    toolFingerprint(t),
    toolFingerprint({ ...t, inputSchema: { type: 'object', properties: { dir: { type: 'string' } } } }),
  );
});

test('a catalog sync fingerprints only the tools that learned something: the rest are never hashed', async () => {
  // Each tool counts the reads of its input schema (what toolFingerprint hashes, with the description).
  const reads = new Map<string, number>();
  const counted = (tools: readonly CatalogTool[]) =>
    tools.map((t) => {
      const copy = { ...t };
      Object.defineProperty(copy, 'inputSchema', {
        enumerable: true,
        get: () => (reads.set(t.key, (reads.get(t.key) ?? 0) + 1), t.inputSchema),
      });
      return copy;
    });
  const w = world();
  w.learning.syncCatalog(counted(TOOLS));
  assert.deepEqual([...reads.keys()], [], 'nothing learned yet: no fingerprint needed');
  await w.search('s1', 'find literature on protein folding');
  w.call('s1', PAPERS);
  assert.deepEqual([...reads.keys()], [PAPERS], "a lesson needs the called tool's fingerprint only");
  reads.clear();
  // A new catalog: only the tool with an example is checked against it, and it is still the same tool.
  w.learning.syncCatalog(counted(TOOLS));
  assert.deepEqual([...reads.keys()], [PAPERS]);
  assert.equal(w.learning.size, 1);
  w.tick(600_000);
  assert.equal((await w.rank('literature about protein folding', true, 's1'))[0], PAPERS);
});

test('the store stays bounded: a tool keeps its most recent requests, the whole store its most recent', () => {
  const examples = new LearnedExamples({ maxExamples: 5, maxPerTool: 3, maxWeight: 4 });
  const lesson = (key: string, word: string): Lesson => ({
    key,
    server: key.split('/')[0]!,
    fingerprint: '0'.repeat(16),
    terms: [word, 'common'],
    words: [word, 'common'],
    delta: 1,
    by: 'aaaaaaaaaaaaaaaa',
  });
  for (let i = 0; i < 6; i++) examples.teach(lesson('a/one', `w${i}`), i);
  assert.deepEqual(
    [...examples.all()].map((e) => e.terms.join(' ')),
    ['common w3', 'common w4', 'common w5'],
  );
  for (let i = 0; i < 4; i++) examples.teach(lesson(`b/t${i}`, 'x'), 10 + i);
  assert.equal(examples.size, 5);
  assert.deepEqual(
    [...examples.all()].map((e) => e.key),
    ['a/one', 'b/t0', 'b/t1', 'b/t2', 'b/t3'],
  );
  // The same request leading to the same tool again adds up, to a ceiling.
  for (let i = 0; i < 10; i++) examples.teach(lesson('b/t3', 'x'), 20 + i);
  assert.equal([...examples.all()].find((e) => e.key === 'b/t3')!.weight, 4);
  // The documents the ranking reads follow the examples out.
  examples.clear();
  assert.equal(examples.documents.votes(['common', 'x'], 2, 'aaaaaaaaaaaaaaaa').size, 0);
});

test('only analysed words are kept: no literal values, numbers, stop words or filler', () => {
  assert.deepEqual(
    learnedTermsOf('Please open https://example.com/reset?token=abc123 and read /home/me/secret.txt, ticket 48213'),
    ['open', 'read', 'ticket'],
  );
  assert.deepEqual(learnedTermsOf('I would like you to help me find literature on protein folding'), [
    'find',
    'literatur',
    'protein',
    'fold',
  ]);
  // Markup an agent pasted is code, not words; a lone letter is no word either.
  assert.deepEqual(
    learnedWordsOf('show the banner <img src=x onerror="window.__pwned=1"> on the x axis').map((w) => w.word),
    ['show', 'banner', 'axis'],
  );
  assert.deepEqual(learnedWordsOf('Tally the Invoices'), [
    { term: 'talli', word: 'tally' },
    { term: 'invoic', word: 'invoices' },
  ]);
});

test('turned off, it neither learns nor ranks; forget clears everything', async () => {
  const w = world();
  await w.search('s', 'find literature on protein folding');
  w.call('s', PAPERS);
  w.learning.setEnabled(false);
  assert.deepEqual(await w.rank('literature about protein folding'), []);
  await w.search('s2', 'find literature on protein folding');
  w.call('s2', PAPERS);
  assert.equal(w.learning.size, 0);
  w.learning.setEnabled(true);
  w.learning.syncCatalog(TOOLS);
  await w.search('s3', 'find literature on protein folding');
  w.call('s3', PAPERS);
  assert.equal(w.learning.size, 1);
  w.learning.forget();
  assert.equal(w.learning.size, 0);
  assert.deepEqual(await w.rank('literature about protein folding'), []);
});

/** Shared lessons between replicas, in memory: what one appends, the others are told (adapters/state/pgLessons.ts does it over PostgreSQL). */
function lessonBus() {
  const members: { listeners: Set<(t: OthersTaught) => void> }[] = [];
  const kept: TaughtLesson[] = [];
  return (): SharedLessons => {
    const me = { listeners: new Set<(t: OthersTaught) => void>() };
    members.push(me);
    const others = (t: OthersTaught) => {
      for (const m of members) if (m !== me) for (const l of m.listeners) l(t);
    };
    return {
      initial: () => [...kept],
      append(lessons, at) {
        const taught = lessons.map((lesson) => ({ lesson, at }));
        kept.push(...taught);
        others({ lessons: taught });
      },
      forget() {
        kept.length = 0;
        others({ forget: true });
      },
      onOthers(listener) {
        me.listeners.add(listener);
        return { dispose: () => me.listeners.delete(listener) };
      },
      settled: async () => undefined,
      close: () => undefined,
    };
  };
}

test('replicas sharing lessons: a lesson taught on one counts on the others as it would on one, a new one replays it, a forget reaches all', async () => {
  const join = lessonBus();
  const a = world({ shared: join() });
  const b = world({ shared: join() });
  await a.search('s1', 'find literature on protein folding');
  a.call('s1', PAPERS);
  a.tick(600_000);
  b.tick(600_000);
  assert.equal(
    (await b.rank('literature about protein folding', true, 's1'))[0],
    PAPERS,
    "the teaching session's own, on b",
  );
  // A second session, on the other replica, teaches the same word: it now counts for everyone, everywhere.
  await b.search('s2', 'literature on enzymes');
  b.call('s2', PAPERS);
  a.tick(600_000);
  b.tick(600_000);
  assert.equal((await a.rank('literature about sleep'))[0], PAPERS, 'corroborated across replicas');
  const c = world({ shared: join() });
  c.tick(1_200_000);
  assert.equal((await c.rank('literature about sleep'))[0], PAPERS, 'a replica started later replays it');
  b.learning.forget();
  assert.equal(a.learning.size, 0);
  assert.equal(c.learning.size, 0);
});

test("a session's lessons count for it alone; another session's same words spread them, word by word", async () => {
  const w = world();
  await w.search('s1', 'find literature on protein folding');
  w.call('s1', PAPERS);
  w.tick(600_000);
  const cold = await w.rank('literature about protein folding', false);
  assert.equal((await w.rank('literature about protein folding', true, 's1'))[0], PAPERS);
  assert.deepEqual(await w.rank('literature about protein folding'), cold, 'a fresh session: as cold');
  // A second session teaches search_papers "literature" (and other words): that word now counts for everyone.
  await w.search('s2', 'literature on enzymes');
  w.call('s2', PAPERS);
  w.tick(600_000);
  assert.equal((await w.rank('literature about sleep'))[0], PAPERS);
  assert.deepEqual(
    await w.rank('protein folding'),
    await w.rank('protein folding', false),
    'words only the first session taught still count for it alone',
  );
  const learned = w.learned(PAPERS)!;
  assert.equal(learned.sessions, 2);
  assert.deepEqual(learned.words.map((x) => [x.word, x.everyone]).sort(), [
    ['enzymes', false],
    ['find', false],
    ['folding', false],
    ['literature', true],
    ['protein', false],
  ]);
});

test('what the user shares from the dashboard counts for every session', async () => {
  const w = world();
  await w.search('s1', "show me what's in the music folder");
  w.call('s1', LIST);
  w.tick(600_000);
  const cold = await w.rank("what's in the music folder", false);
  assert.deepEqual(await w.rank("what's in the music folder"), cold);
  assert.equal(w.learning.share(LIST), 1);
  assert.equal(w.learning.share('files/no_such_tool'), 0);
  assert.equal((await w.rank("what's in the music folder"))[0], LIST);
  assert.ok(w.learned(LIST)!.words.every((x) => x.everyone));
});

test('a session counts as one past request per tool, however many steps teach it', () => {
  const steps = new SessionSteps('aaaaaaaaaaaaaaaa');
  const tool: CalledTool = { key: PAPERS, server: 'papers', fingerprint: '0'.repeat(16) };
  const net = new Map<string, number>();
  let at = 0;
  for (const request of [
    'find literature',
    'papers on sleep',
    'enzyme research',
    'protein folding',
    'recent preprints',
  ]) {
    steps.search(learnedWordsOf(request), [PAPERS], (at += 120_000));
    for (const l of steps.call(tool, true, (at += 1000))) {
      const id = l.terms.join(' ');
      net.set(id, (net.get(id) ?? 0) + l.delta);
    }
  }
  const weights = [...net.values()];
  assert.equal(weights.length, 5, 'every step’s words are learned');
  assert.ok(Math.abs(weights.reduce((a, b) => a + b, 0) - 1) < 1e-9, `summed ${weights.join(' + ')}`);
  assert.ok(weights.every((x) => Math.abs(x - 0.2) < 1e-9));
  // Past maxStepsPerTool steps, a session teaches that tool nothing more.
  for (let i = 0; i < STEP_RULES.maxStepsPerTool; i++) {
    steps.search(learnedWordsOf(`request number ${'abcdefghijklmnopq'[i]} words`), [PAPERS], (at += 120_000));
    steps.call(tool, true, (at += 1000));
  }
  steps.search(learnedWordsOf('one more request'), [PAPERS], (at += 120_000));
  assert.deepEqual(steps.call(tool, true, at + 1000), []);
});
