import { test } from 'node:test';
import assert from 'node:assert/strict';
import { catalogToolsOf, type BenchDataset } from '../../server/src/bench/dataset';
import { formatMarkdown, formatTable } from '../../server/src/bench/report';
import { runBench } from '../../server/src/bench/runBench';
import { keywordFactory, referenceFactories } from '../../server/src/bench/searchers';
import { embeddingText } from '../../server/src/core/search/documentText';
import { toolListTokens } from '../../server/src/core/tokens';

const dataset: BenchDataset = {
  name: 'tiny',
  tools: catalogToolsOf([
    { server: 'weather', name: 'getForecast', description: 'Weather forecast for a city' },
    { server: 'files', name: 'read_file', description: 'Read a file', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } },
    { server: 'files', name: 'delete_file', description: 'Delete a file' },
  ]),
  queries: [
    { id: 'q1', query: 'forecast for Paris', gold: ['weather/getForecast'] },
    { id: 'q2', query: 'delete the file', gold: ['files/delete_file'] },
    { id: 'q3', query: 'unrelated words', gold: ['files/read_file'] },
  ],
};

test('runBench measures every searcher on the same data, in the documented JSON shape', async () => {
  const report = await runBench(dataset, [keywordFactory, ...referenceFactories], 7);
  assert.equal(report.dataset, 'tiny');
  assert.equal(report.tools, 3);
  assert.equal(report.queries, 3);
  assert.deepEqual(report.results.map((r) => r.searcher), ['mcp-lens', 'bm25-reference', 'tfidf-reference']);
  const lens = report.results[0];
  assert.equal(lens.mode, 'keyword');
  assert.equal(lens['recall@1'], 0.667);
  assert.equal(lens['mrr@10'], 0.667);
  assert.equal(lens.tokens.catalog, toolListTokens(dataset.tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }))));
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
