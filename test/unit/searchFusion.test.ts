import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fuseRankings } from '../../server/src/core/search/fusion';
import type { RankedTool } from '../../server/src/core/search/types';

const hit = (key: string, signal: 'keyword' | 'meaning' | 'usage', why: string): RankedTool => ({
  key,
  score: 0,
  signals: [signal],
  why,
});

test('fuseRankings: weighted reciprocal-rank scores, merged signals and why', () => {
  const fused = fuseRankings(
    [
      {
        signal: 'keyword',
        weight: 1,
        hits: [hit('s/a', 'keyword', 'matched: a'), hit('s/b', 'keyword', 'matched: b')],
      },
      {
        signal: 'meaning',
        weight: 2,
        hits: [hit('s/b', 'meaning', 'similar 0.81'), hit('s/c', 'meaning', 'similar 0.70')],
      },
    ],
    10,
    60,
  );
  assert.deepEqual(
    fused.map((h) => h.key),
    ['s/b', 's/c', 's/a'],
  );
  const close = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-15, `${a} vs ${b}`);
  close(fused[0].score, 1 / 62 + 2 / 61);
  close(fused[1].score, 2 / 62);
  close(fused[2].score, 1 / 61);
  assert.deepEqual(fused[0].signals, ['keyword', 'meaning']);
  assert.equal(fused[0].why, 'matched: b; similar 0.81');
  assert.deepEqual(fused[2].signals, ['keyword']);
});

test('fuseRankings: limit, zero weights, default k and deterministic ties', () => {
  const lists = [
    { signal: 'keyword' as const, weight: 1, hits: [hit('s/x', 'keyword', ''), hit('s/y', 'keyword', '')] },
    { signal: 'usage' as const, weight: 1, hits: [hit('s/y', 'usage', ''), hit('s/x', 'usage', '')] },
    { signal: 'meaning' as const, weight: 0, hits: [hit('s/z', 'meaning', '')] },
  ];
  const fused = fuseRankings(lists, 5);
  // x and y tie at 1/61 + 1/62; both have best rank 1, so the key orders them
  assert.deepEqual(
    fused.map((h) => h.key),
    ['s/x', 's/y'],
  );
  assert.equal(fused[0].score, 1 / 61 + 1 / 62);
  assert.equal(fused[0].why, '');
  assert.deepEqual(
    fuseRankings(lists, 1).map((h) => h.key),
    ['s/x'],
  );
  assert.deepEqual(fuseRankings([], 5), []);
});
