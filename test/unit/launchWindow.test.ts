// The launch window: a few servers launch at once, a released slot goes to the next in line,
// and a slot held too long (a hanging server) frees itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LaunchWindow } from '../../server/src/adapters/upstream/launchWindow';

/** Whether a promise has settled, after the microtasks now queued ran. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(() => (done = true));
  await new Promise<void>((resolve) => setImmediate(resolve));
  return done;
}

test('at most `size` launch at once; a release hands the slot to the next in line, once', async () => {
  const w = new LaunchWindow(2, 60_000);
  const a = await w.acquire();
  const b = await w.acquire();
  const c = w.acquire();
  const d = w.acquire();
  assert.equal(await settled(c), false, 'the third waits');
  a();
  assert.equal(await settled(c), true, 'a release lets the next one in');
  assert.equal(await settled(d), false, 'only one');
  a(); // a second release of the same slot frees nothing
  assert.equal(await settled(d), false);
  b();
  assert.equal(await settled(d), true);
  (await c)();
  (await d)();
  // All free again: two launch at once without waiting.
  const e = w.acquire();
  const f = w.acquire();
  assert.equal((await settled(e)) && (await settled(f)), true);
});

test('a slot held past slotMs frees itself: a hanging launch does not hold the next one', async () => {
  const w = new LaunchWindow(1, 20);
  await w.acquire(); // never released by its holder
  // The slot's timer does not keep a process alive (a launching server's process does): hold
  // the test's event loop open while it runs out.
  const keepAlive = setInterval(() => undefined, 1000);
  const next = await w.acquire().finally(() => clearInterval(keepAlive)); // once the first slot times out
  next();
  const again = w.acquire();
  assert.equal(await settled(again), true);
});
