import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FrequencyPredictor } from '../../server/src/core/usage/frequency';
import { CooccurrencePredictor } from '../../server/src/core/usage/cooccurrence';
import { TransitionPredictor } from '../../server/src/core/usage/transitions';
import { ServerAffinityPredictor } from '../../server/src/core/usage/serverAffinity';
import { CombinedPredictor, defaultPredictor } from '../../server/src/core/usage/combined';
import type { ObservedCall, Predictor } from '../../server/src/core/usage/types';

const DAY = 24 * 3600 * 1000;

/** Sessions as strings of tool keys; every call one minute apart. */
function calls(sessions: Record<string, string[]>, start = 0): ObservedCall[] {
  const out: ObservedCall[] = [];
  let at = start;
  for (const [sessionId, keys] of Object.entries(sessions)) {
    for (const toolKey of keys) out.push({ sessionId, toolKey, at: (at += 60_000), server: toolKey.split('/')[0] });
  }
  return out;
}

const keysOf = (p: Predictor, sessionTools: string[], k: number, now = 10 * DAY) =>
  p.predict({ sessionTools, now }, k).map((x) => x.key);

test('frequency ranks by count, and an old burst decays below recent use', () => {
  const f = new FrequencyPredictor(7 * DAY);
  f.observe(calls({ s1: ['a/x', 'a/x', 'a/y'] }));
  assert.deepEqual(keysOf(f, [], 2, 0), ['a/x', 'a/y']);
  const g = new FrequencyPredictor(7 * DAY);
  g.observe([1, 2, 3, 4].map((i) => ({ sessionId: 'old', toolKey: 'a/old', at: i })));
  g.observe([1, 2].map((i) => ({ sessionId: 'new', toolKey: 'a/new', at: 28 * DAY + i })));
  // 4 calls 4 half-lives ago weigh 0.25; 2 fresh calls weigh 2.
  assert.deepEqual(keysOf(g, [], 2, 28 * DAY + 10), ['a/new', 'a/old']);
  const shares = g.shares(28 * DAY + 10);
  assert.ok(Math.abs([...shares.values()].reduce((a, b) => a + b, 0) - 1) < 1e-9);
});

test('co-occurrence predicts what was used in the same sessions, with the reason', () => {
  const c = new CooccurrencePredictor();
  c.observe(
    calls({
      s1: ['k/get', 'k/logs', 'k/get'],
      s2: ['k/get', 'k/describe'],
      s3: ['k/get', 'k/logs'],
      s4: ['gh/pr', 'gh/issue'],
    }),
  );
  const p = c.predict({ sessionTools: ['k/get'], now: 0 }, 5);
  assert.deepEqual(
    p.map((x) => x.key),
    ['k/logs', 'k/describe'],
  );
  assert.ok(Math.abs(p[0]!.score - 2 / 3) < 1e-9);
  assert.equal(p[0]!.reason, 'often used with k/get');
  assert.deepEqual(keysOf(c, ['nobody/knows'], 5), []);
});

test('transitions follow the last call only (first-order Markov)', () => {
  const t = new TransitionPredictor();
  t.observe(calls({ s1: ['a', 'b', 'c'], s2: ['a', 'b', 'd'], s3: ['a', 'c'], s4: ['b', 'd'] }));
  const p = t.predict({ sessionTools: ['x', 'b'], now: 0 }, 3);
  assert.deepEqual(
    p.map((x) => [x.key, x.score]),
    [
      ['d', 2 / 3],
      ['c', 1 / 3],
    ],
  );
  assert.equal(p[0]!.reason, 'often used after b');
  assert.deepEqual(keysOf(t, ['a'], 3), ['b', 'c']);
  assert.deepEqual(keysOf(t, [], 3), []);
});

test('server affinity favours the other tools of the servers in use', () => {
  const s = new ServerAffinityPredictor();
  s.observe(calls({ s1: ['k/get', 'k/get', 'k/logs', 'gh/pr'] }));
  assert.deepEqual(keysOf(s, ['k/logs'], 5), ['k/get', 'k/logs']);
});

test('the combiner sums weighted strategies and keeps the strongest reason', () => {
  const f = new FrequencyPredictor();
  const t = new TransitionPredictor();
  const c = new CombinedPredictor([
    { predictor: f, weight: 0.1 },
    { predictor: t, weight: 1 },
  ]);
  c.observe(calls({ s1: ['a', 'b'], s2: ['z', 'z', 'z', 'z', 'z', 'a', 'c'], s3: ['a', 'b'] }));
  const p = c.predict({ sessionTools: ['a'], now: 7 * 60_000 }, 3);
  assert.deepEqual(
    p.map((x) => x.key),
    ['b', 'c', 'z'],
  );
  assert.equal(p[0]!.reason, 'often used after a');
  assert.equal(p[2]!.reason, 'frequently used');
  c.reset();
  assert.deepEqual(keysOf(c, ['a'], 3), []);
});

test('default predictor: a cold store predicts nothing, a new session gets frequency', () => {
  const d = defaultPredictor();
  assert.deepEqual(keysOf(d, [], 5), []);
  d.observe(calls({ s1: ['k/get', 'k/logs'], s2: ['k/get', 'k/logs'], s3: ['gh/pr'] }));
  assert.deepEqual(keysOf(d, ['k/get'], 1), ['k/logs']);
  assert.equal(keysOf(d, [], 5).length, 3);
});
