// LanceDB's own vector index past the store's size for it (annIndex.ts): built once writes go
// quiet, searched by LanceDB, close to the exact scan, and the hybrid index asks it instead of
// scanning in memory. A real LanceDB in a temp dir and a real HTTP server speaking Ollama's
// protocol; the size for the index is lowered so a test catalog crosses it.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { OllamaEmbedder } from '../../server/src/adapters/embed/ollamaEmbedder';
import { lanceModules } from '../../server/src/adapters/store/lanceModule';
import { LanceToolStore } from '../../server/src/adapters/store/lanceToolStore';
import { forwardingStore } from '../../bench/src/forwardingStore';
import type { ToolStore } from '../../server/src/adapters/store/toolStore';
import { silentLogger } from '../../server/src/core/logger';
import { HybridToolIndex } from '../../server/src/index/hybridIndex';
import { VectorMatrix } from '../../server/src/index/vectorMatrix';
import { hashedVector, startFakeOllama, type FakeOllama } from '../fixtures/fakeOllama';
import { closeAtEnd, manyStoredRows, manyTools, tempDir } from './indexHelpers';

const DIM = 64;
const MIN_ROWS = 300;

async function vectorIndexes(dir: string): Promise<string[]> {
  const { lancedb } = await lanceModules();
  const db = await lancedb.connect(join(dir, 'lancedb'));
  try {
    const table = await db.openTable('tools');
    return (await table.listIndices()).filter((i) => i.columns.includes('vector')).map((i) => i.indexType);
  } finally {
    db.close();
  }
}

/** Calls `nearest` until the store answers from its index (it builds it in the background). */
async function untilIndexed(store: ToolStore, vector: Float32Array, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const hits = await store.nearest!(vector, 10);
    if (hits) return hits;
    if (Date.now() > deadline) throw new Error(`no vector index in ${store.dir} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

test('past its size the store builds LanceDB’s vector index and searches it, close to the exact scan; below it, none', async (t) => {
  const dir = tempDir(t);
  const store = closeAtEnd(t, await LanceToolStore.open({ dir, log: silentLogger, annMinRows: MIN_ROWS }));
  const data = manyStoredRows(400, 'ollama:test', DIM);
  await store.upsert(data);
  const exact = new VectorMatrix();
  exact.load(data.map((r) => ({ key: r.id, server: r.server, vector: r.vector })));

  const first = await untilIndexed(store, data[7]!.vector);
  assert.equal(first[0]!.id, data[7]!.id, 'a stored vector finds itself first');
  assert.ok(first[0]!.similarity > 0.99);
  let found = 0;
  const queries = ['delete an invoice', 'export the cluster report', 'archive a user', 'search tickets of team3'];
  for (const q of queries) {
    const vector = Float32Array.from(hashedVector(q, DIM));
    const want = exact.search(vector, 10).map((h) => h.key);
    const got = new Set((await store.nearest(vector, 10))!.map((h) => h.id));
    found += want.filter((k) => got.has(k)).length;
  }
  assert.ok(found / (queries.length * 10) >= 0.8, `recall@10 against the exact scan: ${found / (queries.length * 10)}`);
  const one = await store.nearest(data[45]!.vector, 10, 'team2');
  assert.ok(
    one!.length > 0 && one!.every((h) => h.id.startsWith('team2/')),
    'a server filter keeps that server’s rows only',
  );
  await store.close();
  assert.deepEqual(await vectorIndexes(dir), ['IvfHnswSq']);

  const smallDir = tempDir(t);
  const small = await LanceToolStore.open({ dir: smallDir, log: silentLogger, annMinRows: MIN_ROWS });
  await small.upsert(manyStoredRows(100, 'ollama:test', DIM));
  assert.equal(await small.nearest(data[7]!.vector, 10), undefined);
  await small.close();
  assert.deepEqual(await vectorIndexes(smallDir), [], 'below the size, no index');
});

let fake: FakeOllama;
before(async () => {
  fake = await startFakeOllama({ models: { 'nomic-embed-text': DIM } });
});
after(async () => fake.close());

test('the hybrid index searches by LanceDB’s index past the store’s size, with the answers of the scan', async (t) => {
  const dir = tempDir(t);
  const answered: number[] = [];
  let store: LanceToolStore | undefined;
  const openStore = async (): Promise<ToolStore> => {
    store = await LanceToolStore.open({ dir, log: silentLogger, annMinRows: MIN_ROWS });
    const real = store;
    // The real store, counting the searches its index answered.
    return forwardingStore(real, {
      nearest: async (vector, limit, server) => {
        const hits = await real.nearest(vector, limit, server);
        if (hits) answered.push(hits.length);
        return hits;
      },
    });
  };
  const embedder = new OllamaEmbedder({ host: fake.url, model: 'nomic-embed-text', retry: { attempts: 1 } });
  const index = closeAtEnd(
    t,
    await HybridToolIndex.open({ openStore, embedder, log: silentLogger, queryTimeoutMs: 5_000 }),
  );
  const catalog = manyTools(400);
  await index.sync(catalog);
  await index.whenIdle();
  await untilIndexed(store!, Float32Array.from(hashedVector('search_query: archive a bucket', DIM)));

  const target = catalog[123]!;
  const result = await index.search(target.description, { limit: 5 });
  assert.equal(result.mode.kind, 'hybrid');
  assert.equal(result.hits[0]!.key, target.key);
  assert.ok(answered.length > 0, 'LanceDB’s index answered the meaning ranking');
  assert.ok(answered.every((n) => n > 0));
});
