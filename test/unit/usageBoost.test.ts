import { test } from 'node:test';
import assert from 'node:assert/strict';
import { usageBoost } from '../../server/src/core/usage/boost';
import { UsageAggregate } from '../../server/src/core/usage/stats';
import type { RankedTool } from '../../server/src/core/search/types';
import type { UsageEvent } from '../../server/src/core/usage/types';

const ranked = (...pairs: [string, number][]): RankedTool[] =>
  pairs.map(([key, score]) => ({ key, score, signals: ['keyword'], why: `matched ${key}` }));

test('no prediction leaves the candidates exactly as they were', () => {
  const c = ranked(['a', 3], ['b', 2], ['c', 1]);
  assert.deepEqual(usageBoost(c, []), c);
  assert.deepEqual(usageBoost(c, [{ key: 'zzz', score: 1, reason: 'x' }]), c);
});

test('a predicted candidate moves up within the head and says why', () => {
  const c = ranked(['a', 10], ['b', 9], ['c', 2]);
  const out = usageBoost(c, [{ key: 'b', score: 0.5, reason: 'often used after k/get' }], { weight: 0.3, topN: 10 });
  assert.deepEqual(
    out.map((t) => t.key),
    ['b', 'a', 'c'],
  );
  assert.deepEqual(out[0]!.signals, ['keyword', 'usage']);
  assert.equal(out[0]!.why, 'matched b; often used after k/get');
  assert.deepEqual(out[1], c[0]);
});

test('a weak query match is not pushed over a strong one, and tools past topN never move', () => {
  const c = ranked(['a', 10], ['b', 2], ['c', 1]);
  const out = usageBoost(c, [{ key: 'b', score: 1, reason: 'r' }], { weight: 0.3, topN: 10 });
  assert.deepEqual(
    out.map((t) => t.key),
    ['a', 'b', 'c'],
  );
  const far = usageBoost(c, [{ key: 'c', score: 1, reason: 'r' }], { weight: 5, topN: 2 });
  assert.deepEqual(far, c);
});

test('stats count calls, predicted hits and session pairs', () => {
  const ev = (sessionId: string, toolKey: string, extra: Partial<UsageEvent> = {}): UsageEvent => ({
    sessionId,
    seq: 1,
    toolKey,
    server: toolKey.split('/')[0]!,
    at: 0,
    durationMs: 1,
    outcome: 'ok',
    ...extra,
  });
  const agg = new UsageAggregate();
  for (const e of [
    ev('1', 'k/get', { predicted: false }),
    ev('1', 'k/logs', { predicted: true }),
    ev('2', 'k/get', { predicted: true }),
    ev('2', 'k/logs'),
    ev('3', 'gh/pr'),
  ])
    agg.add(e);
  const s = agg.stats();
  assert.equal(s.callsRecorded, 5);
  assert.equal(s.predictedHitRate, 2 / 3);
  assert.deepEqual(s.topTools[0], { name: 'get', server: 'k', calls: 2 });
  assert.deepEqual(s.pairs, [{ a: 'get', b: 'logs', count: 2 }]);
});
