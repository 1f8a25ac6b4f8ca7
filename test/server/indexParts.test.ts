// The index's pure parts, table-driven: flat vector search, mode labels, content hashes, model prefixes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { VectorMatrix } from '../../server/src/index/vectorMatrix';
import { searchMode, healthFromError } from '../../server/src/index/embedderHealth';
import { toolEntry, stableJson } from '../../server/src/index/toolEntries';
import { EmbedderError, type Embedder } from '../../server/src/adapters/embed/embedder';
import { prefixesFor, sameModel } from '../../server/src/adapters/embed/modelPrefixes';
import { tool } from './indexHelpers';

test('vector matrix: best first, top-k bounded, server filter, wrong dimension ignored', () => {
  const m = new VectorMatrix();
  m.load([
    { key: 'a/x', server: 'a', vector: [1, 0, 0] },
    { key: 'a/y', server: 'a', vector: [0.7, 0.7, 0] },
    { key: 'b/z', server: 'b', vector: [0, 1, 0] },
    { key: 'b/w', server: 'b', vector: [0, 0, 5] },
  ]);
  assert.deepEqual(
    m.search([2, 0, 0], 2).map((h) => h.key),
    ['a/x', 'a/y'],
  );
  assert.ok(Math.abs(m.search([2, 0, 0], 1)[0].similarity - 1) < 1e-6, 'cosine, not raw dot');
  assert.deepEqual(
    m.search([1, 0, 0], 10, 'b').map((h) => h.key),
    ['b/z', 'b/w'],
  );
  assert.equal(m.search([1, 0, 0], 10).length, 4);
  assert.deepEqual(m.search([1, 0], 3), []);
});

const fakeEmbedder = {
  id: 'ollama:nomic-embed-text',
  model: 'nomic-embed-text',
  host: 'http://127.0.0.1:11434',
} as Embedder;
for (const [health, hasVectors, label] of [
  [{ kind: 'ok' }, true, 'hybrid (ollama: nomic-embed-text)'],
  [{ kind: 'unknown' }, true, 'hybrid (ollama: nomic-embed-text)'],
  [
    healthFromError(new EmbedderError('unreachable', 'x')),
    true,
    'keyword only: Ollama unreachable at http://127.0.0.1:11434',
  ],
  [
    healthFromError(new EmbedderError('model-missing', 'x')),
    false,
    'keyword only: model "nomic-embed-text" missing — run `ollama pull nomic-embed-text`',
  ],
  [healthFromError(new EmbedderError('timeout', 'x')), true, 'keyword only: Ollama too slow at http://127.0.0.1:11434'],
  [{ kind: 'ok' }, false, 'keyword only: indexing embeddings with nomic-embed-text'],
] as const) {
  test(`mode label: ${label}`, () => assert.equal(searchMode(fakeEmbedder, health, hasVectors).label, label));
}
test('mode label without an embedder', () =>
  assert.equal(searchMode(undefined, { kind: 'ok' }, true).label, 'keyword only: embeddings disabled'));

test('content hash: key order does not matter, text and schema do', () => {
  const a = {
    ...tool('s', 't', 'does things'),
    inputSchema: { type: 'object', properties: { x: { type: 'string', description: 'the x' } } },
  };
  const reordered = {
    ...a,
    inputSchema: { properties: { x: { description: 'the x', type: 'string' } }, type: 'object' },
  };
  assert.equal(toolEntry(a).hash, toolEntry(reordered).hash);
  assert.notEqual(toolEntry(a).hash, toolEntry({ ...a, description: 'does other things' }).hash);
  assert.notEqual(
    toolEntry(a).hash,
    toolEntry({ ...a, inputSchema: { type: 'object', properties: { x: { type: 'number', description: 'the x' } } } })
      .hash,
  );
  assert.equal(stableJson({ b: [{ d: 1, c: 2 }], a: 1 }), '{"a":1,"b":[{"c":2,"d":1}]}');
});

test('model prefixes and names', () => {
  assert.deepEqual(prefixesFor('nomic-embed-text:v1.5'), { query: 'search_query: ', document: 'search_document: ' });
  assert.deepEqual(prefixesFor('mxbai-embed-large'), { query: '', document: '' });
  assert.ok(sameModel('nomic-embed-text', 'nomic-embed-text:latest'));
  assert.ok(!sameModel('nomic-embed-text:v1.5', 'nomic-embed-text:latest'));
});
