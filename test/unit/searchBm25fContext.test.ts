import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CatalogTool } from '../../server/src/core/catalog';
import { Bm25fIndex, OWN_FIELDS, type FieldConfig } from '../../server/src/core/search/bm25f';
import { docTokensOf, type FieldTerms } from '../fixtures/fieldTerms';
import { DEFAULT_KEYWORD_CONFIG } from '../../server/src/core/search/keywordConfig';
import { KeywordIndex } from '../../server/src/core/search/keywordIndex';
import { seededRandom } from '../../bench/src/seededRandom';

/**
 * BM25F by its definition, the slow way: each document's context field is the shared terms of
 * every OTHER document of its group, counted sibling by sibling (O(n²) per term). The index
 * keeps one count per (term, group) and subtracts; the two must agree.
 */
function referenceScores(
  docs: readonly FieldTerms[],
  fields: FieldConfig,
  k1: number,
  term: string,
): { df: number; scores: Map<number, number> } {
  const count = (terms: readonly string[]) => terms.reduce((n, t) => n + (t === term ? 1 : 0), 0);
  const shared = docs.map((e) => count(e.shared));
  const siblingsSum = (d: number, of: (e: number) => number) =>
    docs.reduce((s, e, i) => s + (i !== d && e.group === docs[d].group ? of(i) : 0), 0);
  const context = docs.map((_, d) => ({
    tf: siblingsSum(d, (e) => shared[e]),
    len: siblingsSum(d, (e) => docs[e].shared.length),
  }));
  const fieldOf = (d: number, f: keyof FieldConfig) =>
    f === 'context' ? context[d] : { tf: count(docs[d][f]), len: docs[d][f].length };
  const avg = (f: keyof FieldConfig) => docs.reduce((s, _, d) => s + fieldOf(d, f).len, 0) / docs.length;
  const avgs = Object.fromEntries([...OWN_FIELDS, 'context' as const].map((f) => [f, avg(f)])) as Record<
    keyof FieldConfig,
    number
  >;
  const pseudo = docs.map((_, d) => {
    let sum = 0;
    for (const f of [...OWN_FIELDS, 'context' as const]) {
      const { tf, len } = fieldOf(d, f);
      if (len === 0 || fields[f].weight === 0) continue;
      sum += (fields[f].weight * tf) / (1 - fields[f].b + (fields[f].b * len) / (avgs[f] || 1));
    }
    return sum;
  });
  const df = pseudo.filter((p) => p > 1e-9).length;
  const idf = Math.log(1 + (docs.length - df + 0.5) / (df + 0.5));
  const scores = new Map<number, number>();
  pseudo.forEach((tf, d) => tf > 1e-9 && scores.set(d, (idf * tf * (k1 + 1)) / (k1 + tf)));
  return { df, scores };
}

/** Deterministic, so a failure can be replayed. */
const random = seededRandom;

/** Documents over a small vocabulary, so terms repeat within and across groups. */
function corpus(seed: number, size: number, groups: number, vocabulary: number): FieldTerms[] {
  const rand = random(seed);
  const words = (max: number) =>
    Array.from({ length: Math.floor(rand() * (max + 1)) }, () => `w${Math.floor(rand() * vocabulary)}`);
  return Array.from({ length: size }, (_, d) => {
    const name = words(3);
    const description = words(6);
    // Group 0 has one member (no siblings: no context); others get members round-robin.
    return {
      name,
      server: [`g${d % groups}`],
      description,
      params: words(4),
      group: d === 0 ? 'alone' : `g${d % groups}`,
      shared: [...name, ...description],
    };
  });
}

function assertMatchesReference(docs: FieldTerms[], fields: FieldConfig, k1: number, terms: readonly string[]): void {
  const index = new Bm25fIndex(docTokensOf(docs), fields, k1);
  for (const term of terms) {
    const id = index.termId(term);
    const expected = referenceScores(docs, fields, k1, term);
    if (id === undefined) {
      assert.equal(expected.df, 0, `${term}: missing from the index but the reference scores it`);
      continue;
    }
    assert.equal(index.docFrequency(id), expected.df, `${term}: document frequency`);
    const { docs: hit, scores } = index.score([{ id, weight: 1 }]);
    assert.deepEqual(
      [...hit].sort((a, b) => a - b),
      [...expected.scores.keys()],
      `${term}: documents scored`,
    );
    // The index stores pseudo frequencies as float32 (as it always has); the reference is float64.
    for (const [d, s] of expected.scores)
      assert.ok(Math.abs(scores[d] - s) <= 1e-6 * s, `${term} doc ${d}: ${scores[d]} vs ${s}`);
  }
}

const vocabulary = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`);

test('Bm25fIndex: the per-group context equals the context field materialized per document', () => {
  const fields = DEFAULT_KEYWORD_CONFIG.fields;
  for (const seed of [1, 2, 3])
    assertMatchesReference(corpus(seed, 60, 6, 14), fields, 1.2, [...vocabulary(14), 'g1', 'g0']);
  // Sparse vocabulary: many terms held by exactly one member of a group (their context cancels).
  assertMatchesReference(corpus(7, 40, 4, 120), fields, 1.2, vocabulary(120));
});

test('Bm25fIndex: context alone, context off, and a context-only term agree with the reference', () => {
  const OFF = { weight: 0, b: 0 };
  const contextOnly: FieldConfig = {
    name: OFF,
    server: OFF,
    description: OFF,
    params: OFF,
    context: { weight: 0.5, b: 0.6 },
  };
  assertMatchesReference(corpus(4, 50, 5, 20), contextOnly, 1.2, vocabulary(20));
  const noContext: FieldConfig = { ...DEFAULT_KEYWORD_CONFIG.fields, context: { weight: 0, b: 1 } };
  assertMatchesReference(corpus(5, 50, 5, 20), noContext, 0.9, vocabulary(20));
  // "x" is only in a sibling's description, "y" only in one document of its group: a document
  // sees x through its sibling; y's only holder sees nothing of it through context.
  const docs: FieldTerms[] = [
    { name: ['a'], server: [], description: ['x'], params: [], group: 's', shared: ['a', 'x'] },
    { name: ['b'], server: [], description: ['y'], params: [], group: 's', shared: ['b', 'y'] },
    { name: ['c'], server: [], description: [], params: ['x'], group: 't', shared: ['c'] },
  ];
  const index = new Bm25fIndex(docTokensOf(docs), contextOnly, 1.2);
  const hit = (t: string) => [...index.score([{ id: index.termId(t)!, weight: 1 }]).docs].sort();
  assert.deepEqual(hit('x'), [1]);
  assert.deepEqual(hit('y'), [0]);
  assertMatchesReference(docs, DEFAULT_KEYWORD_CONFIG.fields, 1.2, ['a', 'b', 'c', 'x', 'y']);
});

test('Bm25fIndex: one group of 3,000 documents builds and scores like the materialized definition', () => {
  const docs = corpus(11, 3000, 1, 400).map((d) => ({ ...d, group: 'one' }));
  assertMatchesReference(docs, DEFAULT_KEYWORD_CONFIG.fields, 1.2, ['w0', 'w17', 'w399', 'g0']);
});

function syntheticTool(server: string, i: number): CatalogTool {
  const verbs = ['get', 'list', 'create', 'update', 'delete'];
  const nouns = ['invoice', 'customer', 'order', 'shipment', 'refund', 'ticket', 'webhook', 'report'];
  const name = `${verbs[i % verbs.length]}_${nouns[Math.floor(i / verbs.length) % nouns.length]}_v${i}`;
  return {
    key: `${server}/${name}`,
    name,
    server,
    originalName: name,
    description: `${verbs[i % verbs.length]} a ${nouns[(i * 3) % nouns.length]} record number ${i} of the billing API`,
    inputSchema: {
      type: 'object',
      properties: { id: { type: 'string', description: `The ${nouns[i % nouns.length]} id` } },
    },
  };
}

test('KeywordIndex: a 4,000-tool single server (OpenAPI-sized) builds and finds its tools', () => {
  const tools = Array.from({ length: 4000 }, (_, i) => syntheticTool('billing', i));
  const index = new KeywordIndex(tools);
  assert.equal(index.size, 4000);
  // Each tool's name carries a unique v<i>: the query naming it finds it first.
  for (const i of [0, 1234, 3999])
    assert.equal(index.searchSync(`${tools[i].originalName} record`, { limit: 3 })[0]?.key, tools[i].key);
  const hits = index.searchSync('delete refund', { limit: 10, server: 'billing' });
  assert.equal(hits.length, 10);
  assert.ok(
    hits.every((h) => /^billing\/delete_refund_/.test(h.key)),
    hits.map((h) => h.key).join(', '),
  );
  assert.deepEqual(index.searchSync('refund', { limit: 5, server: 'other' }), []);
});
