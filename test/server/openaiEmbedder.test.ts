// The OpenAI-compatible embedder against a real HTTP server speaking that API on 127.0.0.1.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { EmbedderError } from '../../server/src/adapters/embed/embedder';
import { embeddingsEndpoint, OpenAiEmbedder } from '../../bench/src/embed/openaiEmbedder';
import { startFakeOpenAi, type FakeOpenAi } from '../fixtures/fakeOpenAiEmbeddings';

const KEY = 'sk-test-0123456789abcdef';
const fastRetry = { attempts: 3, initialDelayMs: 5, maxDelayMs: 20 };
let fake: FakeOpenAi;
before(async () => {
  fake = await startFakeOpenAi({ apiKey: KEY, models: { 'text-embedding-3-small': 48, 'nomic-embed-text': 32 } });
});
after(async () => fake.close());

const embedder = (extra: Partial<ConstructorParameters<typeof OpenAiEmbedder>[0]> = {}) =>
  new OpenAiEmbedder({
    url: fake.url,
    model: 'text-embedding-3-small',
    apiKey: KEY,
    batchSize: 2,
    retry: fastRetry,
    ...extra,
  });

/** Every message an error carries, for checking that no key is in it. */
const texts = (err: unknown) => JSON.stringify({ message: (err as Error).message, ...(err as object) });

test('documents go in batches with the key as a bearer token, vectors come back in input order', async () => {
  fake.reset();
  const e = embedder();
  const docs = ['read a file', 'write a file', 'list issues', 'create issue', 'send email'];
  const vectors = await e.embedDocuments(docs);
  assert.equal(vectors.length, 5);
  assert.equal(vectors[0]!.length, 48);
  assert.deepEqual(fake.inputs.slice().sort(), docs.slice().sort());
  assert.equal(fake.authorizations.length, 3, 'five texts in batches of two');
  assert.ok(fake.authorizations.every((a) => a === `Bearer ${KEY}`));
  // The server answers each batch in reverse; `index` puts them back.
  const cos = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0);
  const q = await e.embedQuery('open a file');
  assert.ok(cos(q, vectors[0]!) > cos(q, vectors[4]!), 'a query is nearer the document that shares its words');
  assert.ok(cos(vectors[2]!, await e.embedQuery('list issues')) > 0.99, 'the third vector is the third text');
  assert.equal(e.id, 'openai:text-embedding-3-small');
  assert.equal(e.host, `${fake.url}/embeddings`);
});

test('a model with known task prefixes gets them here too (nomic-embed-text behind an OpenAI-compatible server)', async () => {
  fake.reset();
  const e = embedder({ model: 'nomic-embed-text' });
  await e.embedDocuments(['read a file']);
  await e.embedQuery('open a file');
  assert.deepEqual(fake.inputs, ['search_document: read a file', 'search_query: open a file']);
});

test('a base URL or the endpoint itself; not http(s) is refused', () => {
  assert.equal(embeddingsEndpoint('http://127.0.0.1:8080/v1').pathname, '/v1/embeddings');
  assert.equal(embeddingsEndpoint('http://127.0.0.1:8080/v1/').pathname, '/v1/embeddings');
  assert.equal(embeddingsEndpoint('https://api.example.com/v1/embeddings').pathname, '/v1/embeddings');
  assert.throws(() => embeddingsEndpoint('file:///etc/passwd'), /http or https/);
  assert.throws(() => embeddingsEndpoint('not a url'), /not a URL/);
});

test('probe: ready; model missing; wrong key refused without the key (nor its echo) in any message', async () => {
  assert.deepEqual(await embedder().probe(), { reachable: true });
  const missing = await embedder({ model: 'no-such-model' }).probe();
  assert.equal(missing.reachable, true);
  assert.equal(missing.modelMissing, true);
  assert.match(missing.error ?? '', /model "no-such-model" not found/);
  const wrongKey = 'sk-wrong-9876543210fedcba';
  const refused = await embedder({ apiKey: wrongKey }).probe();
  assert.equal(refused.reachable, true);
  assert.match(refused.error ?? '', /refused the request \(HTTP 401\): check MCP_LENS_EMBED_API_KEY/);
  assert.ok(!refused.error!.includes('sk-wro') && !refused.error!.includes('dcba'), refused.error);
  await assert.rejects(embedder({ apiKey: wrongKey }).embedDocuments(['x']), (err: unknown) => {
    assert.ok(err instanceof EmbedderError);
    assert.ok(!texts(err).includes(wrongKey.slice(0, 6)) && !texts(err).includes(KEY), texts(err));
    return true;
  });
});

test('rate limits are retried with backoff; a missing model is not retried', async () => {
  fake.reset();
  fake.rateLimit(2);
  const vectors = await embedder().embedDocuments(['read a file']);
  assert.equal(vectors.length, 1);
  assert.equal(fake.authorizations.length, 3, 'two 429s, then the answer');
  fake.reset();
  await assert.rejects(
    embedder({ model: 'no-such-model' }).embedDocuments(['x']),
    (err: unknown) => err instanceof EmbedderError && err.kind === 'model-missing',
  );
  assert.equal(fake.authorizations.length, 1);
});

test('unreachable: a plain status naming the endpoint, never the key', async () => {
  const closed = await startFakeOpenAi();
  const url = closed.url;
  await closed.close();
  assert.throws(
    () => new OpenAiEmbedder({ url: url.replace('http://', `http://user:${KEY}@`), model: 'm' }),
    (err: Error) => /must not carry a user name or password/.test(err.message) && !err.message.includes(KEY),
  );
  const e = new OpenAiEmbedder({ url: `${url}?api-key=${KEY}`, model: 'm', apiKey: KEY, retry: { attempts: 1 } });
  assert.ok(!e.host.includes(KEY), 'the shown URL drops the query');
  const health = await e.probe();
  assert.equal(health.reachable, false);
  assert.match(health.error ?? '', /embeddings endpoint unreachable at http:\/\/127\.0\.0\.1:\d+\/v1\/embeddings/);
  assert.ok(!health.error!.includes(KEY));
});
