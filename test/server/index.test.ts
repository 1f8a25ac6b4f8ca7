// HybridToolIndex against a real LanceDB on a temp dir and a real HTTP server speaking Ollama's protocol.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { OllamaEmbedder } from '../../server/src/adapters/embed/ollamaEmbedder';
import { LanceToolStore } from '../../server/src/adapters/store/lanceToolStore';
import { StoreUnavailableError } from '../../server/src/adapters/store/toolStore';
import { forwardingStore } from '../../bench/src/forwardingStore';
import { HybridToolIndex, type HybridIndexOptions } from '../../server/src/index/hybridIndex';
import { silentLogger } from '../../server/src/core/logger';
import { startFakeOllama, type FakeOllama } from '../fixtures/fakeOllama';
import { corruptFiles } from './toolStoreDamage';
import { collectGarbage } from '../fixtures/forceGc';
import { catalog, closeAtEnd, recordingLogger, tempDir, tool, waitForStatus } from './indexHelpers';

let fake: FakeOllama;
before(async () => {
  fake = await startFakeOllama({
    models: { 'nomic-embed-text': 64, 'all-minilm': 32 },
    pullable: { 'mxbai-embed-large': 48 },
  });
});
after(async () => fake.close());

const fast = {
  backoff: { initialDelayMs: 10, maxDelayMs: 50 },
  queryTimeoutMs: 1_000,
} satisfies Partial<HybridIndexOptions>;
const embedder = (model = 'nomic-embed-text', host = fake.url) =>
  new OllamaEmbedder({ host, model, retry: { attempts: 1 } });
const open = async (storeDir: string, extra: Partial<HybridIndexOptions> = {}) => {
  const log = extra.log ?? silentLogger;
  return HybridToolIndex.open({
    openStore: () => LanceToolStore.open({ dir: storeDir, log }),
    embedder: embedder(),
    log,
    ...fast,
    ...extra,
  });
};

async function storedRows(dir: string) {
  const store = await LanceToolStore.open({ dir, log: silentLogger, readOnly: true });
  try {
    return await store.readAll();
  } finally {
    await store.close();
  }
}

test('cold start embeds every tool once; a warm start with unchanged tools embeds nothing', async (t) => {
  const dir = tempDir(t);
  fake.resetCounters();
  const index = await open(dir, { chunkSize: 3 });
  const seen: string[] = [];
  index.onDidChange(() => {
    const s = index.status();
    seen.push(`${s.state}:${s.toolsEmbedded}/${s.toolsTotal}:${s.progress ?? '-'}`);
  });
  await index.sync(catalog());
  await index.whenIdle();
  assert.ok(seen.includes(`indexing:3/8:${3 / 8}`), seen.join(' '));
  assert.equal(seen.at(-1), 'ready:8/8:-');
  assert.equal(fake.embedInputs.length, catalog().length);
  assert.ok(fake.embedInputs.every((s) => s.startsWith('search_document: ')));
  const s = index.status();
  assert.equal(s.state, 'ready');
  assert.equal(s.toolsEmbedded, catalog().length);
  assert.equal(s.mode.label, 'hybrid (ollama: nomic-embed-text)');
  const r = await index.search('forecast for tomorrow in Paris', { limit: 3 });
  assert.equal(r.mode.kind, 'hybrid');
  assert.equal(r.hits[0].key, 'weather/get_forecast');
  await index.close();

  fake.resetCounters();
  const warm = await open(dir);
  await warm.sync(catalog());
  await warm.whenIdle();
  assert.equal(fake.embedInputs.length, 0, 'nothing re-embedded');
  assert.equal(warm.status().toolsEmbedded, catalog().length);
  assert.equal((await warm.search('send a message by mail', { limit: 2 })).hits[0].key, 'mail/send_email');
  await warm.close();
});

// The editor's status bar and the dashboard redraw on change events only (lensParts.ts), so a
// warm start must announce the vectors it read back; whenIdle above would not notice if it did not.
test('a warm start announces its stored vectors: the last change event says ready, all embedded', async (t) => {
  const dir = tempDir(t);
  const cold = await open(dir);
  await cold.sync(catalog());
  await cold.whenIdle();
  await cold.close();

  fake.resetCounters();
  const warm = closeAtEnd(t, await open(dir));
  const seen: string[] = [];
  warm.onDidChange(() => {
    const s = warm.status();
    seen.push(`${s.state}:${s.toolsEmbedded}/${s.toolsTotal}:${s.mode.kind}`);
  });
  await warm.sync(catalog());
  await waitForStatus(
    warm,
    (s) => s.state === 'ready' && s.toolsEmbedded === catalog().length,
    'ready, every tool embedded',
  );
  assert.equal(seen.at(-1), `ready:${catalog().length}/${catalog().length}:hybrid`);
  assert.equal(fake.embedInputs.length, 0, 'nothing re-embedded');
});

test('a store that fails on its first read ends indexing with a change event: ready, keyword only, saying why', async (t) => {
  const dir = tempDir(t);
  // LanceDB loads on this machine: a store whose read says it cannot stands for a platform where it does not.
  const openStore = async () =>
    Object.assign(forwardingStore(await LanceToolStore.open({ dir, log: silentLogger })), {
      readAll: () =>
        Promise.reject(new StoreUnavailableError('no LanceDB native module for test-arch', 'not loadable here')),
    });
  const index = closeAtEnd(t, await open(dir, { openStore }));
  await index.sync(catalog());
  const s = await waitForStatus(index, (x) => x.state === 'ready', 'ready');
  assert.equal(s.mode.label, 'keyword only: no LanceDB native module for test-arch');
  assert.equal(s.toolsEmbedded, 0);
});

test('only changed and new tools are re-embedded; removed tools lose their rows', async (t) => {
  const dir = tempDir(t);
  const index = await open(dir);
  await index.sync(catalog());
  await index.whenIdle();
  fake.resetCounters();
  const next = catalog().filter((x) => x.key !== 'calendar/create_event');
  next[0] = { ...next[0], description: 'Read a text file and return its lines' };
  next.push(tool('db', 'run_query', 'Run a SQL query against the database', ['sql']));
  await index.sync(next);
  await index.whenIdle();
  assert.equal(fake.embedInputs.length, 2);
  assert.ok(fake.embedInputs.some((s) => s.includes('Read a text file')));
  assert.ok(fake.embedInputs.some((s) => s.includes('run query')));
  await index.close();
  const rows = await storedRows(dir);
  assert.deepEqual(rows.map((r) => r.id).sort(), next.map((x) => x.key).sort());
  assert.equal(rows.length, next.length, 'no duplicate rows');
});

test('a schema change alone re-embeds that tool', async (t) => {
  const dir = tempDir(t);
  const index = await open(dir);
  await index.sync(catalog());
  await index.whenIdle();
  fake.resetCounters();
  const next = catalog();
  next[1] = {
    ...next[1],
    inputSchema: {
      type: 'object',
      properties: { path: { type: 'string' }, content: { type: 'string' }, mode: { type: 'string' } },
    },
  };
  await index.sync(next);
  await index.whenIdle();
  assert.equal(fake.embedInputs.length, 1);
  await index.close();
});

test('a model change re-embeds everything, also across a dimension change', async (t) => {
  const dir = tempDir(t);
  const first = await open(dir);
  await first.sync(catalog());
  await first.whenIdle();
  await first.close();
  fake.resetCounters();
  const second = await open(dir, { embedder: embedder('all-minilm') });
  await second.sync(catalog());
  await second.whenIdle();
  assert.equal(fake.embedInputs.length, catalog().length);
  assert.equal(second.status().mode.label, 'hybrid (ollama: all-minilm)');
  assert.equal((await second.search('open an issue on github', { limit: 1 })).hits[0].key, 'github/create_issue');
  await second.close();
  const rows = await storedRows(dir);
  assert.equal(rows.length, catalog().length);
  assert.ok(rows.every((r) => r.model === 'ollama:all-minilm' && r.vector?.length === 32));
});

test('Ollama down: keyword search at once, labelled; vectors filled in when it returns', async (t) => {
  const dir = tempDir(t);
  await fake.down();
  const index = await open(dir);
  closeAtEnd(t, index);
  try {
    await index.sync(catalog());
    const early = await index.search('read file', { limit: 3 });
    assert.equal(early.hits[0].key, 'files/read_file', 'keyword search works before any vector exists');
    assert.equal(early.mode.kind, 'keyword');
    const down = await waitForStatus(index, (s) => s.mode.label.includes('unreachable'), 'unreachable label');
    assert.equal(down.mode.label, `keyword only: Ollama unreachable at ${fake.url}`);
    assert.equal(down.embedder?.reachable, false);
    assert.equal(down.toolsEmbedded, 0);
    assert.equal((await index.search('read file', { limit: 3 })).mode.label, down.mode.label);
  } finally {
    await fake.up();
  }
  const back = await waitForStatus(
    index,
    (s) => s.mode.kind === 'hybrid' && s.toolsEmbedded === s.toolsTotal && s.state === 'ready',
    'hybrid after return',
  );
  assert.equal(back.mode.label, 'hybrid (ollama: nomic-embed-text)');
  assert.equal((await index.search('weather in Oslo', { limit: 1 })).mode.kind, 'hybrid');
});

test('model missing: labelled with the pull command; pulling streams progress and a re-sync fills in vectors', async (t) => {
  const dir = tempDir(t);
  const pulling = embedder('mxbai-embed-large');
  const index = await open(dir, { embedder: pulling });
  closeAtEnd(t, index);
  await index.sync(catalog());
  const missing = await waitForStatus(index, (s) => s.embedder?.modelMissing === true, 'model missing');
  assert.equal(
    missing.mode.label,
    'keyword only: model "mxbai-embed-large" missing — run `ollama pull mxbai-embed-large`',
  );
  assert.equal((await index.search('read file', { limit: 1 })).hits[0].key, 'files/read_file');
  const statuses: string[] = [];
  // As the sidecar does it: pull with the embedder, then reindex (a sync wakes the retry loop).
  await pulling.pull((p) => statuses.push(p.status));
  assert.equal(statuses[0], 'pulling manifest');
  assert.equal(statuses.at(-1), 'success');
  await index.sync(catalog());
  const ready = await waitForStatus(
    index,
    (s) => s.mode.kind === 'hybrid' && s.toolsEmbedded === s.toolsTotal,
    'hybrid after pull',
  );
  assert.equal(ready.mode.label, 'hybrid (ollama: mxbai-embed-large)');
});

test('the default model missing names `ollama pull nomic-embed-text`', async (t) => {
  const bare = await startFakeOllama({ models: {} });
  t.after(() => bare.close());
  const index = await open(tempDir(t), { embedder: embedder('nomic-embed-text', bare.url) });
  closeAtEnd(t, index);
  await index.sync(catalog());
  const s = await waitForStatus(index, (x) => x.embedder?.modelMissing === true, 'model missing');
  assert.equal(s.mode.label, 'keyword only: model "nomic-embed-text" missing — run `ollama pull nomic-embed-text`');
});

test('a query the embedder answers too slowly falls back to keyword only', async (t) => {
  const dir = tempDir(t);
  const index = await open(dir, { queryTimeoutMs: 100 });
  closeAtEnd(t, index);
  await index.sync(catalog());
  await index.whenIdle();
  fake.slowMs = 1_000;
  try {
    const pending = index.search('read file', { limit: 2 });
    // Nothing but the query holds its deadline: a collection must not take it (nodejs/node#57736).
    await collectGarbage();
    const r = await pending;
    assert.equal(r.mode.kind, 'keyword');
    assert.equal(r.mode.label, `keyword only: Ollama too slow at ${fake.url}`);
    assert.equal(r.hits[0].key, 'files/read_file');
  } finally {
    fake.slowMs = 0;
    // The query it gave up on is still being answered: let it land here, not in the next test's counts.
    await fake.settled();
  }
  await waitForStatus(index, (s) => s.mode.kind === 'hybrid', 'hybrid again once the probe answers');
});

test('server filter applies to both signals; no embedder means keyword only: embeddings disabled', async (t) => {
  const dir = tempDir(t);
  const index = await open(dir);
  await index.sync(catalog());
  await index.whenIdle();
  const r = await index.search('create something new', { limit: 5, server: 'github' });
  assert.ok(r.hits.length > 0 && r.hits.every((h) => h.key.startsWith('github/')));
  await index.close();
  const plain = await HybridToolIndex.open({
    openStore: () => LanceToolStore.open({ dir: tempDir(t), log: silentLogger }),
    log: silentLogger,
  });
  await plain.sync(catalog());
  assert.equal(plain.status().mode.label, 'keyword only: embeddings disabled');
  assert.equal((await plain.search('send email', { limit: 1 })).hits[0].key, 'mail/send_email');
  await plain.close();
});

test('a corrupt store is rebuilt and re-indexed, with the rebuild logged', async (t) => {
  const dir = tempDir(t);
  const first = await open(dir);
  await first.sync(catalog());
  await first.whenIdle();
  await first.close();
  assert.ok(corruptFiles(dir) > 0);
  fake.resetCounters();
  const log = recordingLogger();
  const index = await open(dir, { log });
  await index.sync(catalog());
  await index.whenIdle();
  assert.ok(
    log.lines.some((l) => /warn: rebuilding tool store/.test(l)),
    log.lines.join('\n'),
  );
  assert.equal(fake.embedInputs.length, catalog().length);
  assert.equal(index.status().mode.kind, 'hybrid');
  await index.close();
  assert.equal((await storedRows(dir)).length, catalog().length);
});

test("a second instance on the same folder is read-only and uses the writer's vectors", async (t) => {
  const dir = tempDir(t);
  const writer = await open(dir);
  closeAtEnd(t, writer);
  await writer.sync(catalog());
  await writer.whenIdle();
  fake.resetCounters();
  const reader = await open(dir);
  closeAtEnd(t, reader);
  await reader.sync(catalog());
  await reader.whenIdle();
  assert.equal(writer.readOnly, false);
  assert.equal(reader.readOnly, true);
  assert.equal(fake.embedInputs.length, 0, "the reader embedded nothing: it read the writer's rows");
  assert.equal(reader.status().mode.kind, 'hybrid');
});

test("hybrid's first hit is its keyword ranking's, whatever the vectors say (core/hybridFusion.ts, wired)", async (t) => {
  const index = closeAtEnd(t, await open(tempDir(t)));
  await index.sync(catalog());
  await index.whenIdle();
  const keyword = closeAtEnd(
    t,
    await HybridToolIndex.open({
      openStore: () => LanceToolStore.open({ dir: tempDir(t), log: silentLogger }),
      log: silentLogger,
    }),
  );
  await keyword.sync(catalog());
  // Queries whose words the test server's bag-of-words vectors weigh differently from BM25F.
  const queries = [
    ...catalog().map((c) => c.description),
    'new content for a file',
    'open a new file',
    'search for a new issue',
    'send the forecast to attendees',
    'list the calendar entries',
    'a message for the repository owner',
    'city events next days',
    'read the issue title',
  ];
  let compared = 0;
  for (const q of queries) {
    const [h, k] = [await index.search(q, { limit: 5 }), await keyword.search(q, { limit: 5 })];
    assert.equal(h.mode.kind, 'hybrid');
    if (k.hits.length === 0) continue;
    compared++;
    assert.equal(
      h.hits[0]!.key,
      k.hits[0]!.key,
      `"${q}": hybrid ${h.hits.map((x) => x.key).join(', ')}; keyword ${k.hits.map((x) => x.key).join(', ')}`,
    );
  }
  assert.ok(compared >= 12, `${compared} queries compared`);
});
