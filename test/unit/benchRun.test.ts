import { test } from 'node:test';
import assert from 'node:assert/strict';
import { catalogToolsOf, type BenchDataset } from '../../bench/src/dataset';
import { isHeldOut } from '../../bench/src/benchSplit';
import { REFERENCE_SEARCHER, belowReference, formatMarkdown, formatTable } from '../../bench/src/report';
import { runBench, type PerQueryRow } from '../../bench/src/runBench';
import { keywordFactory, referenceFactories } from '../../bench/src/searchers';
import { embeddingText } from '../../server/src/core/search/documentText';
import { toolListTokens, useTokenCounter } from '../../server/src/core/tokens';
import { o200kTokenizer } from '../../server/src/adapters/tokens/o200kCounter';

useTokenCounter(o200kTokenizer);

const dataset: BenchDataset = {
  name: 'tiny',
  tools: catalogToolsOf([
    { server: 'weather', name: 'getForecast', description: 'Weather forecast for a city' },
    {
      server: 'files',
      name: 'read_file',
      description: 'Read a file',
      inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
    },
    { server: 'files', name: 'delete_file', description: 'Delete a file' },
  ]),
  queries: [
    { id: 'q1', query: 'forecast for Paris', gold: ['weather/getForecast'] },
    { id: 'q2', query: 'delete the file', gold: ['files/delete_file'] },
    { id: 'q3', query: 'unrelated words', gold: ['files/read_file'] },
  ],
};

test('runBench measures every searcher on the same data, in the documented JSON shape', async () => {
  const report = await runBench(dataset, [keywordFactory, ...referenceFactories], { scale: 7 });
  assert.equal(report.dataset, 'tiny');
  assert.equal(report.tools, 3);
  assert.equal(report.queries, 3);
  assert.deepEqual(
    report.results.map((r) => r.searcher),
    ['mcp-lens', 'bm25-reference', 'tfidf-reference'],
  );
  const lens = report.results[0];
  assert.equal(lens.mode, 'keyword');
  assert.equal(lens['recall@1'], 0.667);
  assert.equal(lens['mrr@10'], 0.667);
  assert.equal(
    lens.tokens.catalog,
    toolListTokens(
      dataset.tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })),
    ),
  );
  assert.ok(lens.tokens.top5_avg > 0 && lens.tokens.top5_avg < lens.tokens.catalog);
  assert.ok(report.index.peak_rss_mb > 0);
  assert.equal(report.scale?.tools, 7);
  const table = formatTable(report);
  assert.match(table, /mcp-lens\s+keyword\s+0\.667/);
  assert.match(formatMarkdown([report], 'mcp-lens bench --all'), /\| bm25-reference \| keyword \|/);
});

test('embeddingText: split name, description, server and parameter names', () => {
  assert.equal(
    embeddingText(dataset.tools[1], 'Local files'),
    'read file: Read a file\nserver: files (Local files)\nparameters: path',
  );
  assert.equal(embeddingText(dataset.tools[0]), 'get forecast: Weather forecast for a city\nserver: weather');
});

test("runBench: figures per request kind and per half of the split, and every request's top 10 when asked", async () => {
  const kinded: BenchDataset = {
    ...dataset,
    queries: dataset.queries.map((q, i) => ({ ...q, kind: i === 0 ? 'direct' : 'paraphrase' })),
  };
  let rows: PerQueryRow[] = [];
  const report = await runBench(kinded, [keywordFactory, ...referenceFactories], { perQuery: (r) => (rows = r) });
  const lens = report.results[0]!;
  assert.deepEqual(Object.keys(lens.by_kind ?? {}), ['direct', 'paraphrase']);
  assert.equal(lens.by_kind!.direct!.queries, 1);
  assert.equal(lens.by_kind!.direct!['recall@1'], 1);
  assert.equal(lens.by_kind!.paraphrase!.queries, 2);
  assert.equal(lens.split.dev.queries + lens.split['held-out'].queries, 3);
  assert.deepEqual(
    rows.map((r) => [
      r.id,
      r.kind,
      r.half === (isHeldOut(kinded.queries.find((q) => q.id === r.id)!) ? 'held-out' : 'dev'),
    ]),
    [
      ['q1', 'direct', true],
      ['q2', 'paraphrase', true],
      ['q3', 'paraphrase', true],
    ],
  );
  for (const r of rows) assert.deepEqual(Object.keys(r.top10), ['mcp-lens', 'bm25-reference', 'tfidf-reference']);
  assert.equal(rows[0]!.first_gold_rank['mcp-lens'], 1);
  assert.equal(rows[2]!.first_gold_rank['mcp-lens'], null, 'no gold in the top 10');
  // Without kinds there is no per-kind part; the table then shows only the halves.
  const plain = await runBench(dataset, [keywordFactory, ...referenceFactories]);
  assert.equal(plain.results[0]!.by_kind, undefined);
  assert.match(formatTable(plain), /tiny per half of the keyword config's split/);
  assert.doesNotMatch(formatTable(plain), /per request kind/);
  assert.match(formatTable(report), /tiny per request kind:\nkind\s+n\s+searcher\s+R@1\s+R@5\s+R@10\s+MRR@10\s+C@10/);
});

test('belowReference: a warning exactly when MCP Lens is below bm25-reference at recall@1 or MRR@10', async () => {
  const base = await runBench(dataset, [keywordFactory, ...referenceFactories]);
  const withFigures = (lens: [number, number], bm25: [number, number]) => ({
    ...base,
    results: base.results.map((r) => {
      const [r1, mrr] = r.searcher === 'mcp-lens' ? lens : r.searcher === REFERENCE_SEARCHER ? bm25 : [0, 0];
      return { ...r, 'recall@1': r1, 'mrr@10': mrr };
    }),
  });
  assert.deepEqual(belowReference(withFigures([0.5, 0.7], [0.5, 0.7])), [], 'equal is not below');
  assert.deepEqual(belowReference(withFigures([0.6, 0.8], [0.5, 0.7])), []);
  assert.deepEqual(belowReference(withFigures([0.495, 0.7], [0.545, 0.6])), [
    'warning: tiny: MCP Lens (keyword) is below bm25-reference at recall@1 (0.495 < 0.545)',
  ]);
  assert.deepEqual(belowReference(withFigures([0.5, 0.657], [0.4, 0.689])), [
    'warning: tiny: MCP Lens (keyword) is below bm25-reference at mrr@10 (0.657 < 0.689)',
  ]);
  assert.equal(belowReference(withFigures([0.1, 0.1], [0.2, 0.2])).length, 1, 'one line per set');
  assert.match(
    formatMarkdown([withFigures([0.1, 0.1], [0.2, 0.2])], 'x'),
    /\*\*warning: tiny: MCP Lens \(keyword\) is below bm25-reference at recall@1 \(0\.100 < 0\.200\) and mrr@10 \(0\.100 < 0\.200\)\*\*/,
  );
  assert.deepEqual(
    belowReference({ ...base, results: base.results.filter((r) => r.searcher !== REFERENCE_SEARCHER) }),
    [],
    'no reference, no judgement',
  );
});

test('runBench: how well the confidence rule separates right first hits from wrong ones', async () => {
  const only = (ids: string[]) => ({ ...dataset, queries: dataset.queries.filter((q) => ids.includes(q.id)) });
  // One matching tool: a single hit is confident, and right.
  const sure = (await runBench(only(['q1']), [keywordFactory])).results[0]!;
  assert.deepEqual(sure.confidence, { confident_share: 1, first_right_when_confident: 1, first_right_otherwise: 0 });
  // Nothing matches: no hit, not confident, not right.
  const lost = (await runBench(only(['q3']), [keywordFactory])).results[0]!;
  assert.deepEqual(lost.confidence, { confident_share: 0, first_right_when_confident: 0, first_right_otherwise: 0 });
  const both = await runBench(only(['q1', 'q3']), [keywordFactory]);
  assert.equal(both.results[0]!.confidence?.confident_share, 0.5);
  assert.match(
    formatTable(both),
    /first-hit confidence .*confident on 50\.0% of requests; first hit right 1\.000 when confident, 0\.000 otherwise/,
  );
});
