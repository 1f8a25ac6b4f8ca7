// Work no one asked for waits while servers start (app/startupQuiet.ts): the gate itself (quiet
// when none starts, released by the change that ends the start, bounded for a server that
// hangs), and the catalog sync on it: a catalog change during the start is indexed once it is
// over, a search indexes at once. A real in-memory index; the "servers" are a flag the test sets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CatalogTool } from '../../server/src/core/catalog';
import { silentLogger } from '../../server/src/core/logger';
import { RecordingIndex } from '../fixtures/recordingIndex';
import { CatalogSync } from '../../server/src/app/catalogSync';
import { StartupQuiet } from '../../server/src/app/startupQuiet';

/** Servers the test starts and ends by hand: `change()` is the pool's change event. */
function servers(maxWaitMs?: number) {
  let listener: () => void = () => undefined;
  const state = { starting: false };
  const quiet = new StartupQuiet({
    starting: () => state.starting,
    onChange: (l) => ((listener = l), { dispose: () => (listener = () => undefined) }),
    ...(maxWaitMs !== undefined && { maxWaitMs }),
  });
  return { state, quiet, change: () => listener() };
}

/** Whether a promise has settled by the time the turns queued so far have run. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

function tool(server: string, name: string): CatalogTool {
  return {
    key: `${server}/${name}`,
    name: `${server}_${name}`,
    server,
    originalName: name,
    description: `${name} things`,
    inputSchema: { type: 'object' },
  };
}

test('quiet at once when no server is starting; while one is, until the change that ends its start', async () => {
  const s = servers();
  assert.equal(await settled(s.quiet.whenQuiet()), true, 'nothing starting: no wait');
  s.state.starting = true;
  const waits = [s.quiet.whenQuiet(), s.quiet.whenQuiet()];
  s.change(); // a change while still starting releases nothing
  assert.equal(await settled(Promise.race(waits)), false, 'a server is starting: deferred work waits');
  s.state.starting = false;
  s.change();
  assert.equal(await settled(Promise.all(waits)), true, 'the last server up: every wait ends');
  s.quiet.dispose();
});

test('a server that never finishes starting holds deferred work no longer than the bound; the next start has a bound of its own', async () => {
  const s = servers(50);
  s.state.starting = true;
  const started = performance.now();
  await s.quiet.whenQuiet(); // ends by the bound alone: the server is still starting
  assert.ok(performance.now() - started >= 45, 'it waited for the bound');
  assert.equal(s.quiet.quiet, true, 'past the bound, nothing waits while that start lasts');
  assert.equal(await settled(s.quiet.whenQuiet()), true);
  // The start ends; a new one (a server added later) defers work again.
  s.state.starting = false;
  assert.equal(s.quiet.quiet, true);
  s.state.starting = true;
  assert.equal(await settled(s.quiet.whenQuiet()), false, 'a new start waits again');
  s.quiet.dispose();
});

test('disposing (the app closing) releases every wait', async () => {
  const s = servers();
  s.state.starting = true;
  const wait = s.quiet.whenQuiet();
  assert.equal(await settled(wait), false);
  s.quiet.dispose();
  assert.equal(await settled(wait), true);
});

test('while servers start, a catalog change is indexed only once they are up, or at once when a search asks', async () => {
  const s = servers();
  const index = new RecordingIndex();
  const state = { tools: [tool('a', 'ping')], next: 'tools' as 'tools' | undefined };
  const sync = new CatalogSync({
    compose: () => {
      const change = state.next;
      state.next = undefined;
      return change;
    },
    tools: () => state.tools,
    index,
    log: silentLogger,
    changed: () => undefined,
    quiet: s.quiet,
  });
  sync.rebuild();
  await sync.first();
  assert.deepEqual(index.synced, [['a_ping']], 'the first catalog (the cached one) is indexed at once');

  // Servers come up one by one while others still start: the catalog changes, the index waits.
  s.state.starting = true;
  for (const name of ['b', 'c']) {
    state.tools = [...state.tools, tool(name, 'echo')];
    state.next = 'tools';
    sync.rebuild();
    s.change();
    await new Promise((resolve) => setImmediate(resolve));
  }
  assert.equal(index.synced.length, 1, 'nothing indexed while servers start');

  // A search asks: it indexes the catalog as it is now, at once.
  await sync.current();
  assert.deepEqual(index.synced.at(-1), ['a_ping', 'b_echo', 'c_echo']);

  // One more server comes up, then the last one starting is up: one sync, of the catalog then.
  state.tools = [...state.tools, tool('d', 'echo')];
  state.next = 'tools';
  sync.rebuild();
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(index.synced.length, 2);
  const synced = new Promise<void>((resolve) => {
    const original = index.sync.bind(index);
    index.sync = async (tools) => {
      await original(tools);
      resolve();
    };
  });
  s.state.starting = false;
  s.change();
  await synced;
  assert.deepEqual(index.synced, [
    ['a_ping'],
    ['a_ping', 'b_echo', 'c_echo'],
    ['a_ping', 'b_echo', 'c_echo', 'd_echo'],
  ]);
  sync.stop();
  s.quiet.dispose();
});
