// Hybrid search never answers worse first than keyword search: on real datasets (the mcp-servers
// set whole, and part of metatool), MCP Lens's real HybridToolIndex (LanceDB on a temp dir,
// embeddings over HTTP from the Ollama-protocol test server) against its keyword ranking, both
// through the bench's own searchers, in the same run. The test server's vectors are a hashed bag
// of words, not a model: this proves the fusion rule holds whatever the embeddings say, not that
// embeddings help (no real model can run here; see README "Hybrid search: what was measured").
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import { OllamaEmbedder } from '../../server/src/adapters/embed/ollamaEmbedder';
import { loadDataset, type BenchDataset } from '../../server/src/bench/dataset';
import { hybridFactory } from '../../server/src/bench/hybridSearcher';
import { meanMetrics, queryMetrics, type RetrievalMetrics } from '../../server/src/bench/metrics';
import { keywordFactory } from '../../server/src/bench/searchers';
import { startFakeOllama, type FakeOllama } from '../fixtures/fakeOllama';

const datasets = resolve(__dirname, '../../bench/datasets');
let fake: FakeOllama;
before(async () => {
  fake = await startFakeOllama();
});
after(async () => {
  await fake.close();
});

async function compare(ds: BenchDataset): Promise<void> {
  const embedder = new OllamaEmbedder({ host: fake.url, model: 'nomic-embed-text' });
  const hybrid = await hybridFactory('hybrid', embedder).create(ds.tools);
  const keyword = await keywordFactory.create(ds.tools);
  try {
    const perHybrid: RetrievalMetrics[] = [];
    const perKeyword: RetrievalMetrics[] = [];
    let moved = 0;
    for (const q of ds.queries) {
      const h = (await hybrid.run(q.query, 10)).keys;
      const k = (await keyword.run(q.query, 10)).keys;
      perHybrid.push(queryMetrics(q, h));
      perKeyword.push(queryMetrics(q, k));
      if (k.length === 0) continue;
      // First place is keyword search's (core/search/hybridFusion.ts).
      if (h[0] !== k[0]) {
        moved++;
        assert.fail(`${q.id} "${q.query}": first place went to ${h[0]}, keyword had ${k.slice(0, 3).join(', ')}`);
      }
    }
    assert.ok(
      fake.embedInputs.some((t) => t.startsWith('search_query: ')),
      'queries were embedded: the hybrid path ran',
    );
    const [rh, rk] = [meanMetrics(perHybrid)['recall@1'], meanMetrics(perKeyword)['recall@1']];
    assert.ok(rh >= rk, `${ds.name}: hybrid recall@1 ${rh.toFixed(3)} < keyword ${rk.toFixed(3)} (${moved} first places moved)`);
  } finally {
    await hybrid.close?.();
  }
}

test('mcp-servers (635 tools, 291 requests): hybrid recall@1 is never below keyword mode', async () => {
  await compare(loadDataset(join(datasets, 'mcp-servers')));
});

test('metatool (199 tools, first 400 requests): hybrid recall@1 is never below keyword mode', async () => {
  const ds = loadDataset(join(datasets, 'metatool'));
  await compare({ ...ds, queries: ds.queries.slice(0, 400) });
});
