// Hybrid fusion's first place: keyword search's first hit keeps it unless it covers less of the
// request than the `yield` knob; below it, reciprocal-rank fusion.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fuseKeywordFirst } from '../../server/src/core/search/hybridFusion';
import type { RankedTool } from '../../server/src/core/search/types';

const W = { keyword: 1, meaning: 1, k: 60 };
const list = (keys: string[], signal: 'keyword' | 'meaning'): RankedTool[] =>
  keys.map((key, i) => ({ key, score: 10 - i, signals: [signal], why: signal }));
const filler = (n: number) => Array.from({ length: n }, (_, i) => `f${i}`);

test('meaning alone never takes first place from keyword search', () => {
  // Plain RRF would rank b first: 1/63 + 1/61 (b) beats 1/61 + 1/71 (a, keyword's first, meaning's 11th).
  const keyword = list(['a', 'x', 'b'], 'keyword');
  const meaning = list(['b', ...filler(9), 'a'], 'meaning');
  const hits = fuseKeywordFirst(keyword, meaning, 5, W);
  assert.equal(hits[0]!.key, 'a');
  assert.deepEqual(hits[0]!.signals, ['keyword', 'meaning']);
  // Scores stay non-increasing, and first place is a tie, not a clear winner.
  for (let i = 1; i < hits.length; i++) assert.ok(hits[i - 1]!.score >= hits[i]!.score);
  assert.equal(hits[0]!.score, hits[1]!.score);
});

test('meaning never moves first place, however strongly it disagrees; it reorders the rest', () => {
  const keyword = list(['a', 'b', 'c'], 'keyword');
  for (const meaning of [
    list(['b', ...filler(10), 'a'], 'meaning'),
    list(['b', ...filler(20)], 'meaning'),
    list(['c', 'b'], 'meaning'),
  ]) {
    assert.equal(fuseKeywordFirst(keyword, meaning, 3, W)[0]!.key, 'a');
  }
  // Below first place, a tool both rankings like rises above one only keyword search has.
  assert.deepEqual(
    fuseKeywordFirst(keyword, list(['c', 'a'], 'meaning'), 3, W).map((h) => h.key),
    ['a', 'c', 'b'],
  );
});

test('no keyword hit: meaning answers alone; vector-only weights are plain meaning ranking; limit holds', () => {
  const meaning = list(['m1', 'm2', 'm3'], 'meaning');
  assert.deepEqual(
    fuseKeywordFirst([], meaning, 2, W).map((h) => h.key),
    ['m1', 'm2'],
  );
  const keyword = list(['a', 'b'], 'keyword');
  assert.deepEqual(
    fuseKeywordFirst(keyword, meaning, 3, { ...W, keyword: 0 }).map((h) => h.key),
    ['m1', 'm2', 'm3'],
  );
  assert.equal(fuseKeywordFirst(keyword, meaning, 0, W).length, 0);
  // Agreeing rankings: plain RRF, same first place.
  assert.deepEqual(
    fuseKeywordFirst(keyword, list(['a', 'b'], 'meaning'), 5, W).map((h) => h.key),
    ['a', 'b'],
  );
});

test('yield: a weak keyword first hit (little of the request covered) gives first place to meaning', () => {
  const keyword = list(['a', 'b', 'c'], 'keyword');
  const meaning = list(['c', 'b', ...filler(5)], 'meaning');
  // Covering 1 of 5 words is below a yield of 0.5: meaning's first hit goes first, the rest is RRF.
  const yielded = fuseKeywordFirst(keyword, meaning, 3, { ...W, yield: 0.5 }, 0.2);
  assert.equal(yielded[0]!.key, 'c');
  assert.deepEqual(yielded[0]!.signals, ['keyword', 'meaning']);
  for (let i = 1; i < yielded.length; i++) assert.ok(yielded[i - 1]!.score >= yielded[i]!.score);
  // Covered enough, or the knob off (its default), or no meaning ranking: keyword's first stays.
  assert.equal(fuseKeywordFirst(keyword, meaning, 3, { ...W, yield: 0.5 }, 0.6)[0]!.key, 'a');
  assert.equal(fuseKeywordFirst(keyword, meaning, 3, { ...W, yield: 0 }, 0)[0]!.key, 'a');
  assert.equal(fuseKeywordFirst(keyword, meaning, 3, W, 0)[0]!.key, 'a');
  assert.equal(fuseKeywordFirst(keyword, [], 3, { ...W, yield: 1 }, 0)[0]!.key, 'a');
  // A meaning first hit keyword search never found takes first place too.
  assert.equal(fuseKeywordFirst(keyword, list(['z', 'a'], 'meaning'), 3, { ...W, yield: 0.5 }, 0.25)[0]!.key, 'z');
});
