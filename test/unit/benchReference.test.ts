import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CatalogTool } from '../../server/src/core/catalog';
import { Bm25Reference, referenceTokens } from '../../bench/src/reference/bm25Reference';
import { TfidfReference } from '../../bench/src/reference/tfidfReference';

function tool(
  server: string,
  name: string,
  description: string,
  properties: Record<string, unknown> = {},
): CatalogTool {
  return {
    key: `${server}/${name}`,
    name,
    server,
    originalName: name,
    description,
    inputSchema: { type: 'object', properties },
  };
}

test('referenceTokens: camelCase/snake/kebab/dot/slash split, lowercase, stop words out, no stemming', () => {
  assert.deepEqual(referenceTokens('getFileInfo of the browser_take-screenshot.v2/files'), [
    'get',
    'file',
    'info',
    'browser',
    'take',
    'screenshot',
    'v2',
    'files',
  ]);
});

test('bm25-reference scores follow Okapi BM25 (k1 1.2, b 0.75) exactly', () => {
  // docs (server, name, description, property names/descriptions):
  // d0 = [s, alpha, red, apple]            (4 tokens)
  // d1 = [s, beta, green, apple, apple, q, query] (7 tokens: property "q" with description "query")
  const tools = [
    tool('s', 'alpha', 'red apple'),
    tool('s', 'beta', 'green apple apple', { q: { description: 'query' } }),
  ];
  const ref = new Bm25Reference(tools);
  const avg = (4 + 7) / 2;
  const idf = (df: number) => Math.log(1 + (2 - df + 0.5) / (df + 0.5));
  const term = (f: number, len: number, df: number) =>
    (idf(df) * f * 2.2) / (f + 1.2 * (1 - 0.75 + (0.75 * len) / avg));
  const hits = ref.searchSync('red apple apple', { limit: 5 });
  assert.deepEqual(
    hits.map((h) => h.key),
    ['s/alpha', 's/beta'],
  );
  // query words count once: "apple" twice in the query is one term
  assert.ok(Math.abs(hits[0].score - (term(1, 4, 1) + term(1, 4, 2))) < 1e-12);
  assert.ok(Math.abs(hits[1].score - term(2, 7, 2)) < 1e-12);
  assert.deepEqual(
    ref.searchSync('query', { limit: 5 }).map((h) => h.key),
    ['s/beta'],
  );
  assert.deepEqual(ref.searchSync('apple', { limit: 5, server: 'other' }), []);
});

test('tfidf-reference: substring df, whitespace tokens, tf over document length', () => {
  // texts: "cat a cat sat " (tokens cat,a,cat,sat) ; "category list " (tokens category,list) ; "dog "
  const tools = [tool('s', 'cat', 'a cat sat'), tool('s', 'category', 'list'), tool('s', 'dog', '')];
  const ref = new TfidfReference(tools);
  // "cat" is a substring of docs 0 and 1 → df 2 → idf ln(3/3) = 0: the quirk makes it worthless
  assert.equal(ref.idf('cat'), Math.log(3 / 3));
  assert.deepEqual(ref.searchSync('cat', { limit: 5 }), []);
  // "sat": df 1 → idf ln(3/2); tf in doc 0 = 1/4
  const hits = ref.searchSync('SAT dog', { limit: 5 });
  assert.deepEqual(
    hits.map((h) => h.key),
    ['s/dog', 's/cat'],
  );
  assert.ok(Math.abs(hits[0].score - (1 / 1) * Math.log(3 / 2)) < 1e-12);
  assert.ok(Math.abs(hits[1].score - (1 / 4) * Math.log(3 / 2)) < 1e-12);
});
