/**
 * The one ranking pipeline (core/search/rankingPipeline.ts): the re-rank signals are what
 * rerankSignals.ts lists, each switched off by its own knob; the tuner's and the ablation's
 * knobs come from the same list; a signal plugs in with nothing but its object; usage signals
 * re-rank the answer and may add to it, within the catalog and the server asked for.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CatalogTool } from '../../server/src/core/catalog';
import { DEFAULT_KEYWORD_CONFIG, knobValue, withKnob } from '../../server/src/core/search/keywordConfig';
import { KeywordIndex, RERANK_SIGNALS } from '../../server/src/core/search/keywordIndex';
import keywordWeights from '../../server/src/core/search/keywordWeights.json';
import { RANKING_KNOBS, RankingPipeline } from '../../server/src/core/search/rankingPipeline';
import { rerankSignal } from '../../server/src/core/search/rerankSignal';
import * as listed from '../../server/src/core/search/rerankSignals';
import type { RankedTool } from '../../server/src/core/search/types';
import type { UsageSignal } from '../../server/src/core/search/types';
import { ablationRows } from '../../bench/src/ablation';
import { describedTool, SMALL_CATALOG } from '../fixtures/catalogRows';

const CATALOG: CatalogTool[] = [
  ...SMALL_CATALOG,
  describedTool('playwright', 'browser_click', 'Click an element on the page', { selector: 'CSS selector' }),
  describedTool('filesystem', 'list_directory', 'List the files in a directory', { path: 'Directory path' }),
  describedTool('github', 'get_file_contents', 'Get the contents of a file in a GitHub repository', {
    path: 'File path',
    repo: 'Repository',
  }),
];

const REQUESTS = [
  'take a screenshot of the page',
  'read the file ./src/index.ts',
  'delete file notes.txt',
  'list the open issues in GitHub',
  'open https://example.com in the browser',
  'get the contents of README.md from the repo',
  'what is the weather in Paris?',
  'click #submit',
  'create a repo called demo. then list its issues.',
];

const ranking = (index: KeywordIndex) =>
  REQUESTS.map((q) => index.searchSync(q, { limit: 10 }).map((h) => `${h.key} ${h.score}`));

test('the re-rank signals are exactly what rerankSignals.ts lists, each with its own knobs', () => {
  assert.deepEqual(new Set(RERANK_SIGNALS), new Set(Object.values(listed)));
  const names = RANKING_KNOBS.map((k) => k.name);
  assert.equal(new Set(names).size, names.length, 'no knob is declared twice');
  for (const s of RERANK_SIGNALS)
    for (const k of s.knobs)
      assert.ok(names.includes(k.name), `${s.name}: ${k.name} reaches the tuner and the ablation`);
  // Every signal knob the shipped weights set belongs to a listed signal (none is left behind).
  const signalKnobs = new Set(RERANK_SIGNALS.flatMap((s) => s.knobs.map((k) => k.name)));
  const candidateKeys = new Set([
    'fields',
    'k1',
    'stem',
    'synonyms',
    'bigrams',
    'exact',
    'fillerWords',
    'literal',
    'contextMaxTools',
    'actionSynonyms',
    'shapes',
    'queryK3',
    'negation',
  ]);
  for (const key of Object.keys(keywordWeights))
    assert.ok(candidateKeys.has(key) || signalKnobs.has(key), `${key} in keywordWeights.json is read by a step`);
});

test('each re-rank signal at its off value ranks exactly as the pipeline without it', () => {
  for (const signal of RERANK_SIGNALS) {
    const main = signal.knobs[0]!;
    const off = withKnob(DEFAULT_KEYWORD_CONFIG, main, main.off.value);
    const without = RERANK_SIGNALS.filter((s) => s !== signal);
    assert.deepEqual(
      ranking(new KeywordIndex(CATALOG, off)),
      ranking(new KeywordIndex(CATALOG, off, without)),
      signal.name,
    );
  }
  // …and at least one signal changes this catalog's ranking (the property above is not vacuous).
  const all = ranking(new KeywordIndex(CATALOG));
  assert.ok(
    RERANK_SIGNALS.some(
      (s) =>
        JSON.stringify(
          ranking(
            new KeywordIndex(
              CATALOG,
              DEFAULT_KEYWORD_CONFIG,
              RERANK_SIGNALS.filter((x) => x !== s),
            ),
          ),
        ) !== JSON.stringify(all),
    ),
  );
});

test('a signal plugs in as one object: profiled once per catalog, analysed once per search, its factor applied', () => {
  let profiled = 0;
  let analysed = 0;
  // Prefers tools whose server name is shortest: nothing a real signal would do, but visible.
  const shortServer = rerankSignal({
    name: 'short server (test)',
    knobs: [{ name: 'shortServerTest', grid: [0, 1], off: { value: 0, ablation: 'short server' } }],
    profile(catalog, k) {
      profiled++;
      const length = catalog.tools.map((t) => t.server.length);
      return {
        analyse() {
          analysed++;
          return (doc) => 1 + k.shortServerTest / length[doc]!;
        },
      };
    },
  });
  const config = { ...DEFAULT_KEYWORD_CONFIG, shortServerTest: 100 };
  const index = new KeywordIndex(CATALOG, config, [...RERANK_SIGNALS, shortServer]);
  assert.equal(profiled, 1);
  const first = index.searchSync('file', { limit: 3 });
  assert.equal(analysed, 1);
  // "file" is filesystem's word, but the factor lifts github's one file tool above it.
  assert.equal(first[0]!.key, 'github/get_file_contents');
  assert.equal(new KeywordIndex(CATALOG).searchSync('file', { limit: 1 })[0]!.key.split('/')[0], 'filesystem');
  index.setTools(CATALOG.slice(0, 3));
  assert.equal(profiled, 2);
  // Left out of the configuration, a new signal is off: it ships off until the tuner turns it on.
  assert.deepEqual(
    ranking(new KeywordIndex(CATALOG, DEFAULT_KEYWORD_CONFIG, [...RERANK_SIGNALS, shortServer])),
    ranking(new KeywordIndex(CATALOG)),
  );
});

test('the ablation has a row for every step that is on, generated from the knobs', () => {
  const labels = ablationRows().map(([label]) => label);
  for (const knob of RANKING_KNOBS) {
    if (!knob.off) continue;
    const on = knobValue(DEFAULT_KEYWORD_CONFIG, knob) !== knob.off.value;
    assert.equal(labels.includes(`− ${knob.off.ablation}`), on, knob.name);
  }
});

const keys = (hits: readonly RankedTool[]) => hits.map((h) => h.key);

test('the pipeline: keyword ranking, then meaning fused when there is one, then usage signals', async () => {
  const pipeline = new RankingPipeline();
  pipeline.setTools(CATALOG);
  const keywordOnly = new KeywordIndex(CATALOG).searchSync('read a file', { limit: 3 });
  const plain = await pipeline.rank('read a file', { limit: 3 });
  assert.deepEqual(plain, { hits: keywordOnly, fused: false });
  // Stage 3: a meaning ranking is fused below keyword search's first hit.
  const meaning = async (_text: string, depth: number) => {
    assert.ok(depth >= 3);
    return [{ key: 'filesystem/list_directory', score: 0.9, signals: ['meaning' as const], why: 'meaning 0.90' }];
  };
  const fused = await pipeline.rank('read a file', { limit: 3 }, meaning);
  assert.equal(fused.fused, true);
  assert.equal(fused.hits[0]!.key, keywordOnly[0]!.key);
  assert.ok(keys(fused.hits).includes('filesystem/list_directory'));
  assert.deepEqual(await pipeline.rank('read a file', { limit: 3 }, async () => undefined), {
    hits: keywordOnly,
    fused: false,
  });
});

test('keyword ranking reports how much of the request its first hit covers; the fusion yields on it only when asked', async () => {
  const index = new KeywordIndex(CATALOG);
  // "take screenshot page": the screenshot tool holds all three words.
  assert.equal(index.rank('take a screenshot of the page', { limit: 3 }).firstCoverage, 1);
  // One of four words (file) is what the first hit holds; Chinese character pairs count as words.
  const weak = index.rank('file 帮我整理一下', { limit: 3 });
  assert.ok(weak.hits.length > 0);
  assert.ok(weak.firstCoverage > 0 && weak.firstCoverage < 0.25, String(weak.firstCoverage));
  assert.deepEqual(index.rank('帮我整理一下', { limit: 3 }), { hits: [], firstCoverage: 0 });
  const meaning = async () => [
    { key: 'weather/getForecast', score: 0.9, signals: ['meaning' as const], why: 'meaning 0.90' },
  ];
  const off = new RankingPipeline();
  off.setTools(CATALOG);
  assert.equal((await off.rank('file 帮我整理一下', { limit: 3 }, meaning)).hits[0]!.key, weak.hits[0]!.key);
  const yielding = new RankingPipeline({ fusion: { yield: 0.5 } });
  yielding.setTools(CATALOG);
  assert.equal((await yielding.rank('file 帮我整理一下', { limit: 3 }, meaning)).hits[0]!.key, 'weather/getForecast');
  // A request keyword search covers well keeps its first hit.
  assert.equal(
    (await yielding.rank('take a screenshot of the page', { limit: 3 }, meaning)).hits[0]!.key,
    'playwright/browser_take_screenshot',
  );
});

test('usage signals re-rank and add tools, within the catalog, the server asked for and the limit', async () => {
  const pipeline = new RankingPipeline();
  pipeline.setTools(CATALOG);
  const seen: unknown[] = [];
  // What a learned-from-usage signal does: a tool the request's words are known to lead to,
  // which keyword search did not find, goes first; plus keys the catalog does not hold.
  const learned: UsageSignal = {
    rerank(hits, request) {
      seen.push({ text: request.text, sessionId: request.sessionId, limit: request.limit });
      const extra = (key: string): RankedTool => ({ key, score: 99, signals: ['usage'], why: 'used for this before' });
      return [extra('weather/getForecast'), extra('gone/tool'), ...hits, extra('filesystem/delete_file')];
    },
  };
  const { hits } = await pipeline.rank('read a file', {
    limit: 3,
    keywords: ['contents'],
    sessionId: 's1',
    usage: [learned],
  });
  assert.deepEqual(seen, [{ text: 'read a file contents', sessionId: 's1', limit: 3 }]);
  assert.equal(hits.length, 3);
  assert.equal(hits[0]!.key, 'weather/getForecast');
  assert.ok(!keys(hits).includes('gone/tool'), 'a key the catalog does not hold is dropped');
  assert.equal(new Set(keys(hits)).size, hits.length, 'each tool once');
  const scoped = await pipeline.rank('read a file', { limit: 5, server: 'filesystem', usage: [learned] });
  assert.ok(
    scoped.hits.every((h) => h.key.startsWith('filesystem/')),
    'nothing outside the server asked for',
  );
  // Signals apply in order, each on the one before's answer.
  const reverse: UsageSignal = { rerank: (h) => [...h].reverse() };
  const both = await pipeline.rank('file', { limit: 4, usage: [reverse, reverse] });
  assert.deepEqual(both.hits, (await pipeline.rank('file', { limit: 4 })).hits);
});
