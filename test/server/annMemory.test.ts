// Past the store's size for LanceDB's vector index the vectors live in the store alone: the
// hybrid index drops its in-memory copies, and LanceDB answers — its index, or its exact flat
// search while the index is missing (being built or rebuilt) or failing. Below that size
// nothing changes. A real LanceDB in a temp dir and a real HTTP server speaking Ollama's
// protocol; the size for the index is lowered so a test catalog crosses it.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { OllamaEmbedder } from '../../server/src/adapters/embed/ollamaEmbedder';
import { LanceToolStore } from '../../server/src/adapters/store/lanceToolStore';
import { forwardingStore } from '../../bench/src/forwardingStore';
import type { ToolStore } from '../../server/src/adapters/store/toolStore';
import type { CatalogTool } from '../../server/src/core/catalog';
import { silentLogger } from '../../server/src/core/logger';
import { HybridToolIndex } from '../../server/src/index/hybridIndex';
import { VectorMatrix } from '../../server/src/index/vectorMatrix';
import { hashedVector, startFakeOllama, type FakeOllama } from '../fixtures/fakeOllama';
import { closeAtEnd, manyStoredRows, manyTools, tempDir } from './indexHelpers';

const DIM = 64;
const MIN_ROWS = 300;
const MODEL = 'ollama:nomic-embed-text';

const snapshotOf = (dir: string) => join(dir, 'lancedb', 'tools.vectors');

test('past its index size the store hands out no vectors and keeps no snapshot; its flat search is exact', async (t) => {
  const dir = tempDir(t);
  const store = closeAtEnd(t, await LanceToolStore.open({ dir, log: silentLogger, annMinRows: MIN_ROWS }));
  const data = manyStoredRows(400, MODEL, DIM);
  await store.upsert(data);
  // Another model's rows (a model change half-way) are never an answer for this one.
  await store.upsert(manyStoredRows(420, 'ollama:other', DIM).slice(400));
  const read = await store.readAll();
  assert.equal(read.length, 420);
  assert.ok(
    read.every((r) => r.vector === undefined),
    'no vectors read back past the index size',
  );

  const exact = new VectorMatrix();
  exact.load(data.map((r) => ({ key: r.id, server: r.server, vector: r.vector })));
  for (const q of ['delete an invoice', 'export the cluster report of team3', 'archive a user']) {
    const vector = Float32Array.from(hashedVector(q, DIM));
    const want = exact.search(vector, 10);
    const got = await store.scan(vector, 10, { model: MODEL });
    assert.equal(got.length, 10);
    // Equal scores rank by row order, which the two need not share: the scores per rank must match.
    got.forEach((h, i) =>
      assert.ok(
        Math.abs(h.similarity - want[i]!.similarity) < 1e-4,
        `${q}: rank ${i} ${h.similarity} vs ${want[i]!.similarity}`,
      ),
    );
    assert.ok(got.every((h) => !h.id.startsWith('team20/')));
  }
  const own = await store.scan(data[45]!.vector, 5, { model: MODEL, server: 'team2' });
  assert.equal(own[0]!.id, data[45]!.id);
  assert.ok(own.every((h) => h.id.startsWith('team2/')));
  await store.close();
  assert.equal(existsSync(snapshotOf(dir)), false, 'no vector snapshot past the index size');

  const again = closeAtEnd(t, await LanceToolStore.open({ dir, log: silentLogger, annMinRows: MIN_ROWS }));
  assert.ok((await again.readAll()).every((r) => r.vector === undefined));
  await again.close();

  const smallDir = tempDir(t);
  const small = closeAtEnd(t, await LanceToolStore.open({ dir: smallDir, log: silentLogger, annMinRows: MIN_ROWS }));
  await small.upsert(manyStoredRows(100, MODEL, DIM));
  assert.ok(
    (await small.readAll()).every((r) => r.vector?.length === DIM),
    'below the size the vectors are read back',
  );
  await small.close();
  assert.equal(existsSync(snapshotOf(smallDir)), true, 'and the snapshot kept');
});

let fake: FakeOllama;
before(async () => {
  fake = await startFakeOllama({ models: { 'nomic-embed-text': DIM } });
});
after(async () => fake.close());

type IndexState = 'answering' | 'missing' | 'failing';

/** The real store, with its vector index made missing or failing at will, counting what answered. */
function steeredStore(dir: string) {
  const answered = { ann: 0, flat: 0 };
  const control = {
    index: 'answering' as IndexState,
    flatFails: false,
    store: undefined as LanceToolStore | undefined,
  };
  const openStore = async (): Promise<ToolStore> => {
    const real = await LanceToolStore.open({ dir, log: silentLogger, annMinRows: MIN_ROWS });
    control.store = real;
    return forwardingStore(real, {
      nearest: async (vector, limit, server) => {
        // Missing: what the store says while it has no index yet (built or rebuilt in the background).
        if (control.index === 'missing') return undefined;
        if (control.index === 'failing') throw new Error('index file damaged');
        const hits = await real.nearest(vector, limit, server);
        if (hits) answered.ann++;
        return hits;
      },
      scan: async (vector, limit, filter) => {
        if (control.flatFails) throw new Error('table file damaged');
        answered.flat++;
        return real.scan(vector, limit, filter);
      },
    });
  };
  return { answered, control, openStore };
}

function hybrid(t: Parameters<typeof tempDir>[0], openStore: () => Promise<ToolStore>): Promise<HybridToolIndex> {
  const embedder = new OllamaEmbedder({ host: fake.url, model: 'nomic-embed-text', retry: { attempts: 1 } });
  return HybridToolIndex.open({ openStore, embedder, log: silentLogger, queryTimeoutMs: 10_000 }).then((i) =>
    closeAtEnd(t, i),
  );
}

/** Searches until LanceDB's index answers one (the store builds it in the background). */
async function untilAnnAnswers(index: HybridToolIndex, answered: { ann: number }, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (answered.ann === 0) {
    if (Date.now() > deadline) throw new Error(`LanceDB's index did not answer within ${timeoutMs} ms`);
    await index.search('archive a bucket', { limit: 3 });
  }
}

async function assertFinds(index: HybridToolIndex, target: CatalogTool): Promise<void> {
  const result = await index.search(target.description, { limit: 5 });
  assert.equal(result.mode.kind, 'hybrid', result.mode.label);
  assert.equal(result.hits[0]!.key, target.key);
}

test('past the index size the hybrid index holds no vectors and still answers while LanceDB’s index is missing or failing', async (t) => {
  const dir = tempDir(t);
  const { answered, control, openStore } = steeredStore(dir);
  const index = await hybrid(t, openStore);
  const catalog = manyTools(400);
  await index.sync(catalog);
  await index.whenIdle();
  assert.equal(index.vectorsInMemory(), 0, 'the in-memory copy is released past the index size');
  await untilAnnAnswers(index, answered);

  const before = { ...answered };
  await assertFinds(index, catalog[123]!);
  assert.equal(answered.ann, before.ann + 1, 'LanceDB’s index answered');

  control.index = 'missing';
  await assertFinds(index, catalog[77]!);
  control.index = 'failing';
  await assertFinds(index, catalog[311]!);
  assert.equal(
    answered.flat,
    before.flat + 2,
    'LanceDB’s flat search answered while the index was missing, then failing',
  );
  assert.equal(index.vectorsInMemory(), 0, 'without reloading the vectors');

  const server = await index.search('delete an invoice', { limit: 5, server: 'team4' });
  assert.ok(server.hits.length > 0 && server.hits.every((h) => h.key.startsWith('team4/')));

  // Both LanceDB paths failing: that search is keyword-only and says why, never an error.
  control.flatFails = true;
  const keyword = await index.search(catalog[42]!.description, { limit: 5 });
  assert.deepEqual(keyword.mode, { kind: 'keyword', label: 'keyword only: vector search failed' });
  assert.equal(keyword.hits[0]!.key, catalog[42]!.key);
});

test('a restart past the index size reads no vectors and embeds nothing again; a catalog back below it scans in memory again', async (t) => {
  const dir = tempDir(t);
  const first = steeredStore(dir);
  const catalog = manyTools(400);
  const index = await hybrid(t, first.openStore);
  await index.sync(catalog);
  await index.whenIdle();
  await untilAnnAnswers(index, first.answered);
  await index.close();

  fake.resetCounters();
  const second = steeredStore(dir);
  const restarted = await hybrid(t, second.openStore);
  await restarted.sync(catalog);
  await restarted.whenIdle();
  await assertFinds(restarted, catalog[250]!);
  assert.equal(fake.embedInputs.filter((i) => i.startsWith('search_document: ')).length, 0, 'nothing embedded again');
  assert.equal(restarted.vectorsInMemory(), 0);

  // Below the size again: the vectors come back from the store and the in-memory scan answers.
  const fewer = catalog.slice(0, 200);
  await restarted.sync(fewer);
  const deadline = Date.now() + 60_000;
  while (restarted.vectorsInMemory() < fewer.length) {
    if (Date.now() > deadline)
      throw new Error(`vectors not reloaded: ${restarted.vectorsInMemory()} of ${fewer.length}`);
    await assertFinds(restarted, fewer[150]!);
  }
  const before = { ...second.answered };
  await assertFinds(restarted, fewer[20]!);
  assert.deepEqual(second.answered, before, 'the in-memory scan answered, not LanceDB');
});
