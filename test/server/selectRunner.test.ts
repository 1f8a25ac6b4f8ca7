/**
 * select runs in a child process (adapters/select/selectRunner.ts), bounded three ways: a heap
 * limit, a deadline, and a byte limit on the projection's JSON. Each is broken here by a real
 * expression, through the real runner and its real child, and this process goes on.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { SELECT_LIMITS } from '../../server/src/core/resultShaping';
import { ChildSelectRunner } from '../../server/src/adapters/select/selectRunner';

// The cases about the deadline run with a shorter one than the product's, so the suite does not
// wait 5 s per case. Every other case runs with one no expression here can reach: under load, a
// short one stopped the heap-limit case before its heap ran out ("ran longer than 1.5 s").
const runner = new ChildSelectRunner({ ...SELECT_LIMITS, deadlineMs: 600_000, wallDeadlineMs: 600_000 });
const deadlined = new ChildSelectRunner({ ...SELECT_LIMITS, deadlineMs: 1500 });
after(() => (runner.close(), deadlined.close()));

const letters = { a: [...'abcdefghijklmnopqrstuvwxyz'] };
/** 26 flat strings of 20 MB each: 520 MB the evaluator's heap cannot hold. */
export const MEMORY_BOMB = "map(&join('', [pad_left(@, `20000000`), @]), a)";
/** 2000³ steps, each small: minutes of work in almost no memory. */
const chars = "split(pad_left('a', `2000`), '')";
export const TIME_BOMB = `length(map(&length(map(&length(map(&@, ${chars})), ${chars})), ${chars}))`;

test('a projection within the limits comes back as JSON', async () => {
  assert.deepEqual(await runner.run({ texts: [], structured: letters }, 'a[:3]'), { ok: true, json: '["a","b","c"]' });
  assert.deepEqual(await runner.run({ texts: ['{"x": [1, 2]}', '{"x": [3]}'] }, '[].x[]'), {
    ok: true,
    json: '[1,2,3]',
  });
});

test('an expression that builds more than the heap limit stops with the limit named; the next select runs', async () => {
  const out = await runner.run({ texts: [], structured: letters }, MEMORY_BOMB);
  assert.equal(out.ok, false);
  assert.match(
    (out as { problem: string }).problem,
    new RegExp(`needed more than ${SELECT_LIMITS.memoryMb} MB of memory, the limit for one select`),
  );
  assert.deepEqual(await runner.run({ texts: [], structured: letters }, 'length(a)'), { ok: true, json: '26' });
});

test('an expression that runs past the deadline is stopped with the limit named', async () => {
  const out = await deadlined.run({ texts: [], structured: {} }, TIME_BOMB);
  assert.deepEqual(out, {
    ok: false,
    limit: true,
    problem:
      'select stopped: it ran longer than 1.5 s, the limit for one select. Use a simpler expression (no nested map or sort over generated arrays)',
  });
});

test('a projection larger than the byte limit is refused, not built', async () => {
  const out = await runner.run({ texts: [], structured: letters }, 'map(&pad_left(@, `1000000`), a)');
  assert.equal(out.ok, false);
  assert.match((out as { problem: string }).problem, /larger than 10 MB, the limit for one projection/);
});

test('selects beyond the concurrency limit wait their turn, and a cancelled one stops', async () => {
  const all = await Promise.all(
    Array.from({ length: 3 }, () => deadlined.run({ texts: [], structured: {} }, TIME_BOMB)),
  );
  for (const out of all) assert.match((out as { problem: string }).problem, /ran longer than 1.5 s/);
  const controller = new AbortController();
  const pending = deadlined.run({ texts: [], structured: {} }, TIME_BOMB, { signal: controller.signal });
  controller.abort();
  assert.deepEqual(await pending, { ok: false, problem: 'select was cancelled' });
});

test("one session's slow selects leave another session's select an evaluator: it is answered while they run", async () => {
  const slow = Array.from({ length: 3 }, () => {
    let settled = false;
    const p = deadlined.run({ texts: [], structured: {} }, TIME_BOMB, { session: 'a' }).finally(() => (settled = true));
    return { p, settled: () => settled };
  });
  const mine = await deadlined.run({ texts: [], structured: letters }, 'length(a)', { session: 'b' });
  assert.deepEqual(mine, { ok: true, json: '26' });
  assert.equal(slow.filter((s) => s.settled()).length, 0, "b's select waited for a's");
  for (const s of slow) assert.match(((await s.p) as { problem: string }).problem, /ran longer than 1.5 s/);
});
