import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deadline } from '../../server/src/core/deadline';
import { collectGarbage } from '../fixtures/forceGc';

const aborted = (signal: AbortSignal) =>
  new Promise<unknown>((resolve) => signal.addEventListener('abort', () => resolve(signal.reason), { once: true }));

test('a deadline fires after a garbage collection, with the reason AbortSignal.timeout gives', async () => {
  // Only the listener's closure refers to the signal: AbortSignal.any([AbortSignal.timeout(ms)])
  // loses its timeout here on Node 20 (nodejs/node#57736).
  const reasons = Array.from({ length: 20 }, () => aborted(deadline(20).signal));
  await collectGarbage();
  for (const reason of await Promise.all(reasons)) {
    assert.ok(reason instanceof DOMException);
    assert.equal(reason.name, 'TimeoutError');
  }
});

test("a source signal's abort ends the deadline with the source's reason", async () => {
  const source = new AbortController();
  const bound = deadline(60_000, undefined, source.signal);
  const reason = aborted(bound.signal);
  source.abort(new Error('caller went away'));
  assert.equal(((await reason) as Error).message, 'caller went away');
  const early = new AbortController();
  early.abort('already');
  assert.equal(deadline(60_000, early.signal).signal.reason, 'already', 'a source already aborted ends it at once');
});

test('clear lets go of the sources: a later abort of one no longer reaches the deadline', () => {
  const source = new AbortController();
  const bound = deadline(60_000, source.signal);
  bound.clear();
  source.abort();
  assert.equal(bound.signal.aborted, false);
});
