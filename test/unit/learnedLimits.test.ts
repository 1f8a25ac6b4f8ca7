// What learning may do to a ranking whatever it learned (core/usage/learnedLimits.ts), what a
// tool's annotations say (core/toolAnnotations.ts), and who is pushed out when the store is full
// (core/usage/learnedExamples.ts), with examples written for these tests — forged ones included.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RankedTool } from '../../server/src/core/search/types';
import { isDestructiveTool } from '../../server/src/core/toolAnnotations';
import { LearnedExamples, type LearnedExample, type Lesson } from '../../server/src/core/usage/learnedExamples';
import {
  LEARNED_RANKING_KNOBS,
  rerankByLearning,
  type LearnedRequest,
} from '../../server/src/core/usage/learnedRanking';
import { learnedTermsOf } from '../../server/src/core/usage/learnedTerms';

const FP = '0'.repeat(16);
const REQUEST = 'find literature on protein folding';
const hit = (key: string, score: number): RankedTool => ({ key, score, signals: ['keyword'], why: 'matched: x' });
/** A forged example as the file would hold it: all the request's words, one past request's weight, shared. */
const forged = (key: string, by: string, extra: Partial<LearnedExample> = {}): LearnedExample => {
  const terms = [...new Set(learnedTermsOf(REQUEST))].sort();
  return {
    terms,
    words: terms,
    key,
    server: key.split('/')[0]!,
    fingerprint: FP,
    weight: 1,
    count: 1,
    at: 1,
    by,
    ...extra,
  };
};
const request = (extra: Partial<LearnedRequest> = {}): LearnedRequest => ({
  terms: learnedTermsOf(REQUEST),
  limit: 10,
  catalogSize: 50,
  documentFrequency: () => 1,
  keywordTop: 10,
  viewer: 'ffffffffffffffff',
  ...extra,
});
const HITS = [
  hit('web/search', 10),
  hit('web/news', 8),
  hit('files/read', 6),
  hit('notes/find', 4),
  hit('papers/search', 2),
];

test('a forged shared example moves a tool by at most the bound: one past request, lift × the first hit', () => {
  const examples = new LearnedExamples();
  examples.load([forged('papers/search', '0123456789abcdef', { shared: true })]);
  const ranked = rerankByLearning(HITS, examples.documents, request(), LEARNED_RANKING_KNOBS);
  const papers = ranked.find((h) => h.key === 'papers/search')!;
  assert.ok(papers.score > 2, 'it moved up');
  assert.ok(papers.score <= 2 + LEARNED_RANKING_KNOBS.lift * 10 + 1e-9, String(papers.score));
  assert.equal(ranked[0]!.key, 'web/search', 'fifth, 8 below the first: not first by one entry');
  // Unshared and not the reader's: it counts for no one.
  const mine = new LearnedExamples();
  mine.load([forged('papers/search', '0123456789abcdef')]);
  assert.deepEqual(rerankByLearning(HITS, mine.documents, request(), LEARNED_RANKING_KNOBS), HITS);
  // Three teachers agreeing: three past requests' worth of lift, and so first.
  const three = new LearnedExamples();
  three.load(['1111111111111111', '2222222222222222', '3333333333333333'].map((by) => forged('papers/search', by)));
  assert.equal(rerankByLearning(HITS, three.documents, request(), LEARNED_RANKING_KNOBS)[0]!.key, 'papers/search');
});

test('learning says so once in a tool’s why, whether the field, the vote or both moved it', () => {
  const examples = new LearnedExamples();
  examples.load([forged('papers/search', '1111111111111111'), forged('papers/search', '2222222222222222')]);
  for (const knobs of [
    LEARNED_RANKING_KNOBS,
    { ...LEARNED_RANKING_KNOBS, weight: 0 },
    { ...LEARNED_RANKING_KNOBS, field: 0 },
  ]) {
    const papers = rerankByLearning(HITS, examples.documents, request(), knobs).find((h) => h.key === 'papers/search')!;
    assert.equal(papers.why, 'matched: x; learned: 2 past requests with these words led here', JSON.stringify(knobs));
  }
});

test('a destructive tool is never first by learning alone', () => {
  const examples = new LearnedExamples();
  examples.load(
    ['1111111111111111', '2222222222222222', '3333333333333333', '4444444444444444'].map((by) =>
      forged('ops/destroy', by),
    ),
  );
  const destructive = (key: string) => key === 'ops/destroy';
  const hits = [...HITS.slice(0, 4), hit('ops/destroy', 2)];
  const ranked = rerankByLearning(hits, examples.documents, request({ destructive }), LEARNED_RANKING_KNOBS);
  assert.equal(ranked[0]!.key, 'web/search');
  assert.equal(ranked[1]!.key, 'ops/destroy', 'lifted, but not to first');
  assert.match(ranked[1]!.why, /not first by learning alone/);
  // First before learning: it stays first.
  const first = [hit('ops/destroy', 10), ...HITS.slice(1)];
  assert.equal(
    rerankByLearning(first, examples.documents, request({ destructive }), LEARNED_RANKING_KNOBS)[0]!.key,
    'ops/destroy',
  );
  // Nothing else found: a destructive tool only learning found is not answered at all.
  assert.deepEqual(rerankByLearning([], examples.documents, request({ destructive }), LEARNED_RANKING_KNOBS), []);
  // Without annotations saying so, the same tool may be first.
  assert.equal(rerankByLearning(hits, examples.documents, request(), LEARNED_RANKING_KNOBS)[0]!.key, 'ops/destroy');
});

test('what annotations say is destructive: destructiveHint, or not read-only without destructiveHint false', () => {
  assert.equal(isDestructiveTool({ destructiveHint: true }), true);
  assert.equal(isDestructiveTool({ readOnlyHint: false }), true);
  assert.equal(isDestructiveTool({ readOnlyHint: false, destructiveHint: false }), false);
  assert.equal(isDestructiveTool({ readOnlyHint: true }), false);
  assert.equal(isDestructiveTool({}), false);
  assert.equal(isDestructiveTool(undefined), false);
});

test('a full store pushes out the oldest of the teacher holding the most: a flooding session its own first', () => {
  const examples = new LearnedExamples({ maxExamples: 6, maxPerTool: 4, maxWeight: 1 });
  const lesson = (key: string, word: string, by: string): Lesson => ({
    key,
    server: key.split('/')[0]!,
    fingerprint: FP,
    terms: [word],
    words: [word],
    delta: 1,
    by,
  });
  for (const [i, key] of ['a/one', 'a/two', 'a/three'].entries())
    examples.teach(lesson(key, `honest${i}`, 'h'.repeat(16)), i);
  for (let i = 0; i < 20; i++) examples.teach(lesson(i % 2 ? 'a/one' : 'b/flood', `flood${i}`, 'f'.repeat(16)), 10 + i);
  const byTeacher = (by: string) => [...examples.all()].filter((e) => e.by === by).map((e) => e.terms[0]);
  assert.deepEqual(
    byTeacher('h'.repeat(16)),
    ['honest0', 'honest1', 'honest2'],
    'the honest teacher keeps all it taught',
  );
  assert.equal(examples.size, 6);
});
