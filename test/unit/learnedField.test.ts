// The learned field (core/usage/learnedField.ts, learnedDocuments.ts fieldScores) and how
// learnedRanking.ts combines it with the vote, with requests written for these tests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RankedTool } from '../../server/src/core/search/types';
import { LearnedExamples, type Lesson } from '../../server/src/core/usage/learnedExamples';
import { FIELD_K1, rerankByField } from '../../server/src/core/usage/learnedField';
import {
  LEARNED_RANKING_KNOBS,
  rerankByLearning,
  type LearnedRequest,
} from '../../server/src/core/usage/learnedRanking';
import { learnedTermsOf } from '../../server/src/core/usage/learnedTerms';

const FP = '0'.repeat(16);
/** The one teacher of these tests, reading what it taught. */
const BY = 'aaaaaaaaaaaaaaaa';
const lesson = (key: string, request: string, delta = 1, by = BY): Lesson => ({
  key,
  server: key.split('/')[0]!,
  fingerprint: FP,
  terms: learnedTermsOf(request),
  words: learnedTermsOf(request),
  delta,
  by,
});
const hit = (key: string, score: number): RankedTool => ({ key, score, signals: ['keyword'], why: 'matched: x' });
const field = (documents: number, catalogFrequency: (t: string) => number = () => 0) => ({
  weight: 1,
  b: 0.75,
  k1: FIELD_K1,
  documents,
  catalogFrequency,
});

test('the field scores like a keyword field: more past requests score more, and saturate', () => {
  const once = new LearnedExamples();
  once.teach(lesson('papers/search_papers', 'find literature on protein folding'), 1);
  const often = new LearnedExamples();
  for (let i = 0; i < 4; i++)
    often.teach(
      lesson('papers/search_papers', `find literature on protein folding ${['today', 'again', 'now', 'please'][i]}`),
      i,
    );
  const terms = learnedTermsOf('literature about enzymes');
  const one = once.documents.fieldScores(terms, field(100), BY).get('papers/search_papers')!;
  const four = often.documents.fieldScores(terms, field(100), BY).get('papers/search_papers')!;
  assert.ok(one > 0 && four > one, `${one} < ${four}`);
  // BM25's bound for one word: idf × (k1 + 1), never more however often it was learned.
  const idf = Math.log(1 + (100 - 1 + 0.5) / (1 + 0.5));
  assert.ok(four < idf * (FIELD_K1 + 1));
  // Not normalised by the request: a request sharing two learned words scores more than one sharing one.
  const two = once.documents
    .fieldScores(learnedTermsOf('protein folding literature'), field(100), BY)
    .get('papers/search_papers')!;
  assert.ok(two > one);
});

test("a word many catalog tools hold (a server's name) counts for less in the field than a rare one", () => {
  const examples = new LearnedExamples();
  examples.teach(lesson('airtable/list_comments', 'airtable comments on the leads record'), 1);
  const terms = learnedTermsOf('airtable leads');
  const learnedOnly = examples.documents.fieldScores(terms, field(200), BY).get('airtable/list_comments')!;
  // Every airtable tool's own fields say "airtable": its document frequency is theirs, not the learned documents'.
  const withCatalog = examples.documents
    .fieldScores(
      terms,
      field(200, (t) => (t === 'airtabl' ? 30 : 0)),
      BY,
    )
    .get('airtable/list_comments')!;
  assert.ok(withCatalog < learnedOnly, `${withCatalog} < ${learnedOnly}`);
});

test('words known not to lead to a tool score against it, and move it down', () => {
  const examples = new LearnedExamples();
  examples.teach(lesson('files/read_file', "show me what's in the music folder", -1), 1);
  examples.teach(lesson('files/list_directory', "show me what's in the music folder"), 2);
  const scores = examples.documents.fieldScores(learnedTermsOf('what is in the music folder'), field(6), BY);
  assert.ok(scores.get('files/read_file')! < 0);
  const ranked = rerankByField([hit('files/read_file', 1.2), hit('files/search_files', 1)], scores, 1.2, 3);
  assert.deepEqual(
    ranked.map((h) => h.key),
    ['files/list_directory', 'files/search_files', 'files/read_file'],
  );
  assert.ok(ranked[2]!.signals.includes('usage'));
});

test('the field adds on the keyword scale, converted to the hits’ scale (hybrid’s fused scores)', () => {
  const scores = new Map([['b/learned', 10]]);
  // Keyword search: the hits are the keyword ranking's, the field's score adds as it is.
  const keyword = rerankByField([hit('a/top', 10), hit('b/learned', 2)], scores, 10, 5);
  assert.deepEqual(
    keyword.map((h) => [h.key, h.score]),
    [
      ['b/learned', 12],
      ['a/top', 10],
    ],
  );
  // Hybrid: the same ranking on a fused scale (top 0.0328 where keyword's top scored 10).
  const fused = rerankByField([hit('a/top', 0.0328), hit('b/learned', 0.0322)], scores, 10, 5);
  assert.deepEqual(
    fused.map((h) => h.key),
    ['b/learned', 'a/top'],
  );
  assert.ok(Math.abs(fused[0]!.score - (0.0322 + 0.0328)) < 1e-12);
});

test('with nothing learned, or nothing learned that matches, the hits come back exactly as they are', () => {
  const hits = [hit('a/one', 3), hit('a/two', 2)];
  const request: LearnedRequest = {
    terms: learnedTermsOf('read a file'),
    limit: 10,
    catalogSize: 2,
    documentFrequency: () => 1,
    keywordTop: 3,
    viewer: BY,
  };
  assert.deepEqual(rerankByLearning(hits, new LearnedExamples().documents, request, LEARNED_RANKING_KNOBS), hits);
  const examples = new LearnedExamples();
  examples.teach(lesson('a/two', 'weather forecast for paris'), 1);
  assert.deepEqual(rerankByLearning(hits, examples.documents, request, LEARNED_RANKING_KNOBS), hits);
});

test('field and vote together: a past request lifts its tool over a keyword match as strong as its own', () => {
  const examples = new LearnedExamples();
  examples.teach(lesson('papers/search_papers', 'find literature on protein folding'), 1);
  const request: LearnedRequest = {
    terms: learnedTermsOf('literature on protein folding'),
    limit: 5,
    catalogSize: 6,
    documentFrequency: () => 0,
    keywordTop: 4,
    viewer: BY,
  };
  const hits = [hit('web/web_search', 4), hit('papers/search_papers', 2)];
  for (const knobs of [LEARNED_RANKING_KNOBS, { ...LEARNED_RANKING_KNOBS, weight: 0 }]) {
    const ranked = rerankByLearning(hits, examples.documents, request, knobs);
    assert.equal(ranked[0]!.key, 'papers/search_papers', JSON.stringify(knobs));
    assert.ok(ranked[0]!.signals.includes('usage'));
  }
  // Both readings re-scored it; its why says learning once, the keyword's clause kept.
  const both = rerankByLearning(hits, examples.documents, request, LEARNED_RANKING_KNOBS)[0]!;
  assert.equal(both.why, 'matched: x; learned: 1 past request with these words led here');
  // The vote alone lets one past request count for little (evidence): the keyword match stays first.
  const voteOnly = rerankByLearning(hits, examples.documents, request, { ...LEARNED_RANKING_KNOBS, field: 0 });
  assert.deepEqual(
    voteOnly.map((h) => h.key),
    ['web/web_search', 'papers/search_papers'],
  );
  assert.ok(voteOnly[1]!.score > 2);
  // Both off: the ranking without learning.
  assert.deepEqual(
    rerankByLearning(hits, examples.documents, request, { ...LEARNED_RANKING_KNOBS, weight: 0, field: 0 }),
    hits,
  );
});
