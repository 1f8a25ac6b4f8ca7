/**
 * Turns at shared work (core/fairQueue.ts), handed out round robin between sessions: one
 * session's queue never stands in front of another session's first request.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FairQueue, type Release } from '../../server/src/core/fairQueue';

/** Every turn `key` was given, in order, as the queue handed them out. */
function recorder() {
  const order: string[] = [];
  const held: Release[] = [];
  const take = (q: FairQueue, key: string, signal?: AbortSignal) =>
    q.acquire(key, signal).then((release) => {
      if (release) {
        order.push(key);
        held.push(release);
      }
      return release;
    });
  return { order, held, take };
}

describe('FairQueue', () => {
  test('at most `slots` at once and `perKey` for one key; a key under its share starts at once', async () => {
    const q = new FairQueue({ slots: 2, perKey: 1 });
    const r = recorder();
    const pending = ['a', 'a', 'a'].map((k) => r.take(q, k));
    await Promise.resolve();
    assert.deepEqual(r.order, ['a'], "a's others wait for a's turn, though a slot is free");
    await r.take(q, 'b');
    assert.deepEqual(r.order, ['a', 'b'], 'b did not wait behind a');
    r.held.shift()!();
    await pending[1];
    assert.deepEqual(r.order, ['a', 'b', 'a']);
  });

  test('a freed turn goes to the waiting key served longest ago (never served first), not first come first served', async () => {
    const q = new FairQueue({ slots: 1, perKey: 1 });
    const r = recorder();
    const all = [r.take(q, 'a'), r.take(q, 'a'), r.take(q, 'a'), r.take(q, 'b'), r.take(q, 'c'), r.take(q, 'b')];
    for (let i = 0; i < all.length; i++) {
      await new Promise((resolve) => setImmediate(resolve));
      r.held[i]!();
    }
    await Promise.all(all);
    assert.deepEqual(r.order, ['a', 'b', 'c', 'a', 'b', 'a']);
  });

  test('a waiter whose signal aborts leaves the queue with nothing held; an aborted signal never waits', async () => {
    const q = new FairQueue({ slots: 1, perKey: 1 });
    const r = recorder();
    await r.take(q, 'a');
    const controller = new AbortController();
    const waiting = r.take(q, 'b', controller.signal);
    controller.abort();
    assert.equal(await waiting, undefined);
    assert.equal(await q.acquire('c', AbortSignal.abort()), undefined);
    const next = r.take(q, 'd');
    r.held[0]!();
    r.held[0]!(); // a second call gives nothing back twice
    assert.ok(await next);
    assert.deepEqual(r.order, ['a', 'd']);
  });
});
