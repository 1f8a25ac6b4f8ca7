// The Ollama adapter against a real HTTP server speaking Ollama's protocol.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { OllamaEmbedder } from '../../server/src/adapters/embed/ollamaEmbedder';
import { EmbedderError, type PullProgress } from '../../server/src/adapters/embed/embedder';
import { startFakeOllama, type FakeOllama } from '../fixtures/fakeOllama';

const fastRetry = { attempts: 3, initialDelayMs: 5, maxDelayMs: 20 };
let fake: FakeOllama;
before(async () => {
  fake = await startFakeOllama({
    models: { 'nomic-embed-text': 64, 'all-minilm': 32 },
    pullable: { 'mxbai-embed-large': 48 },
  });
});
after(async () => fake.close());

function embedder(model = 'nomic-embed-text', extra: Partial<ConstructorParameters<typeof OllamaEmbedder>[0]> = {}) {
  return new OllamaEmbedder({ host: fake.url, model, batchSize: 2, retry: fastRetry, ...extra });
}

test("documents are embedded in batches with the model's document prefix, queries with its query prefix", async () => {
  fake.resetCounters();
  const e = embedder();
  const vectors = await e.embedDocuments(['read a file', 'write a file', 'list issues', 'create issue', 'send email']);
  assert.equal(vectors.length, 5);
  assert.equal(vectors[0].length, 64);
  assert.equal(fake.embedCalls, 3, 'five texts in batches of two');
  assert.deepEqual(
    fake.embedInputs.slice().sort(),
    ['create issue', 'list issues', 'read a file', 'send email', 'write a file']
      .map((t) => `search_document: ${t}`)
      .sort(),
  );
  const q = await e.embedQuery('open a file');
  assert.equal(fake.embedInputs.at(-1), 'search_query: open a file');
  const cos = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i], 0);
  assert.ok(cos(q, vectors[0]) > cos(q, vectors[4]), 'a query is nearer the document that shares its words');
  assert.equal(e.id, 'ollama:nomic-embed-text');
});

test('models without a known prefix get none', async () => {
  fake.resetCounters();
  await embedder('all-minilm').embedDocuments(['read a file']);
  assert.deepEqual(fake.embedInputs, ['read a file']);
});

test('a missing model fails at once with a message naming `ollama pull`', async () => {
  fake.resetCounters();
  const e = embedder('mxbai-embed-large');
  await assert.rejects(e.embedDocuments(['x']), (err: unknown) => {
    assert.ok(err instanceof EmbedderError);
    assert.equal(err.kind, 'model-missing');
    assert.match(err.message, /`ollama pull mxbai-embed-large`/);
    return true;
  });
  assert.equal(fake.requests.get('/api/embed'), 1, 'a missing model is not retried');
  const health = await e.probe();
  assert.equal(health.reachable, true);
  assert.equal(health.modelMissing, true);
  assert.equal(health.version, '0.12.0-fake');
});

test('pull streams progress and then the model embeds', async () => {
  const e = embedder('mxbai-embed-large');
  const progress: PullProgress[] = [];
  await e.pull((p) => progress.push(p));
  assert.equal(progress[0].status, 'pulling manifest');
  assert.equal(progress.at(-1)?.status, 'success');
  const withBytes = progress.filter((p) => p.total);
  assert.ok(
    withBytes.length >= 2 && withBytes.at(-1)!.completed === withBytes.at(-1)!.total,
    'byte progress reaches the total',
  );
  const [v] = await e.embedDocuments(['hello']);
  assert.equal(v.length, 48);
  assert.equal((await e.probe()).modelMissing, undefined);
});

test("pulling a model the registry does not have fails with the service's words", async () => {
  await assert.rejects(
    embedder('no-such-model').pull(() => undefined),
    /pull model manifest: file does not exist/,
  );
});

test('5xx answers are retried with backoff, then succeed', async () => {
  fake.resetCounters();
  fake.failEmbeds(2, 500);
  const vectors = await embedder().embedDocuments(['a', 'b']);
  assert.equal(vectors.length, 2);
  assert.equal(fake.requests.get('/api/embed'), 3);
});

test('5xx answers beyond the retry budget fail as a server error', async () => {
  fake.failEmbeds(5, 503, { text: 'overloaded' });
  await assert.rejects(
    embedder().embedDocuments(['a']),
    (err: unknown) => err instanceof EmbedderError && err.kind === 'server' && /503/.test(err.message),
  );
  fake.failEmbeds(0);
});

test('a slow service times out; a down one is unreachable and the probe says so', async () => {
  fake.slowMs = 300;
  await assert.rejects(
    embedder('nomic-embed-text', { requestTimeoutMs: 50, retry: { attempts: 1 } }).embedQuery('x'),
    (err: unknown) => err instanceof EmbedderError && err.kind === 'timeout',
  );
  fake.slowMs = 0;
  await fake.down();
  try {
    const e = embedder();
    await assert.rejects(
      e.embedDocuments(['x']),
      (err: unknown) => err instanceof EmbedderError && err.kind === 'unreachable' && err.message.includes(fake.url),
    );
    const health = await e.probe();
    assert.equal(health.reachable, false);
    assert.match(health.error ?? '', /unreachable/);
  } finally {
    await fake.up();
  }
  assert.equal((await embedder().embedDocuments(['back'])).length, 1, 'works again once the service is back');
});

test("a caller's abort signal cancels the request", async () => {
  fake.slowMs = 500;
  const controller = new AbortController();
  const pending = embedder().embedQuery('x', controller.signal);
  controller.abort();
  await assert.rejects(pending, (err: unknown) => err instanceof EmbedderError && err.kind === 'aborted');
  fake.slowMs = 0;
});
