// The catalog sync (listings → catalog → index): a burst of pool events is composed once and
// indexed once, a sync asked for while one runs waits (once) and indexes the catalog as it is
// then, and a change of prompts or resources alone costs no reindex. Real in-memory index.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CatalogTool } from '../../server/src/core/catalog';
import { silentLogger } from '../../server/src/core/logger';
import { RecordingIndex } from '../fixtures/recordingIndex';
import { CatalogSync } from '../../server/src/app/catalogSync';

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

/** A sync over a catalog the test edits: `compose` reports what `next` says changed, once. */
function world() {
  const index = new RecordingIndex();
  const state = {
    tools: [tool('a', 'ping')],
    next: 'tools' as 'tools' | 'others' | undefined,
    composed: 0,
    changed: 0,
  };
  let changedNow: () => void = () => undefined;
  const sync = new CatalogSync({
    compose: () => {
      state.composed++;
      const change = state.next;
      state.next = undefined;
      return change;
    },
    tools: () => state.tools,
    index,
    log: silentLogger,
    changed: () => {
      state.changed++;
      changedNow();
    },
  });
  const nextChange = () => new Promise<void>((resolve) => (changedNow = resolve));
  return { index, state, sync, nextChange };
}

/** A world whose first catalog is indexed and whose second (a_ping, b_echo) is being synced, held. */
async function secondSyncHeld() {
  const w = world();
  w.sync.rebuild();
  await w.sync.first();
  const held = w.index.hold();
  w.state.tools = [tool('a', 'ping'), tool('b', 'echo')];
  w.state.next = 'tools';
  w.sync.rebuild();
  await held.begun;
  return { ...w, held };
}

test('a burst of pool events is composed once, after the burst, and indexed once', async () => {
  const { index, state, sync, nextChange } = world();
  const changed = nextChange();
  assert.equal(sync.gathering, false);
  for (let i = 0; i < 20; i++) sync.schedule();
  assert.equal(state.composed, 0, 'nothing is composed while the burst gathers');
  assert.equal(sync.gathering, true, 'the catalog is behind while the burst gathers');
  await changed;
  assert.equal(sync.gathering, false);
  await sync.first();
  await sync.current();
  assert.equal(state.composed, 1);
  assert.deepEqual(index.synced, [['a_ping']]);
  assert.equal(index.status().toolsTotal, 1);
});

test('composeNow composes the burst still gathering at once (what a caller reads next holds every event so far), once', async () => {
  const { state, sync } = world();
  sync.schedule();
  assert.equal(state.composed, 0);
  sync.composeNow();
  assert.equal(state.composed, 1, 'composed without waiting for the burst');
  sync.composeNow();
  assert.equal(state.composed, 1, 'nothing gathering: nothing composed again');
  await sync.current();
  assert.equal(state.composed, 1, 'the burst timer was the one composed');
});

test('syncs asked for while one runs wait as one, and index the catalog as it is when they start', async () => {
  const { index, state, sync, held } = await secondSyncHeld();
  const waiting = [sync.sync(), sync.sync(), sync.sync()];
  assert.equal(new Set(waiting).size, 1, 'the waiting syncs are one');
  // What the catalog holds when the waiting sync starts is what it indexes.
  state.tools = [tool('a', 'ping'), tool('b', 'echo'), tool('c', 'add')];
  held.release();
  await Promise.all(waiting);
  assert.deepEqual(index.synced, [['a_ping'], ['a_ping', 'b_echo'], ['a_ping', 'b_echo', 'c_add']]);
});

test('prompts or resources changing alone say the catalog changed but cost no reindex; no change says nothing', async () => {
  const { index, state, sync } = world();
  sync.rebuild();
  await sync.first();
  assert.equal(state.changed, 1);
  state.next = 'others';
  sync.rebuild();
  assert.equal(state.changed, 2);
  state.next = undefined;
  sync.rebuild();
  assert.equal(state.changed, 2);
  await sync.current();
  assert.deepEqual(index.synced, [['a_ping']]);
});

test('a search composes the burst still gathering instead of waiting for it, and answers from the index that has it', async () => {
  const { index, state, sync } = world();
  sync.rebuild();
  await sync.first();
  state.tools = [tool('a', 'ping'), tool('b', 'echo')];
  state.next = 'tools';
  sync.schedule();
  await sync.current();
  assert.equal(state.composed, 2);
  assert.deepEqual(index.synced.at(-1), ['a_ping', 'b_echo']);
  sync.stop();
});

test('during a run of catalog changes a sync waits SYNC_SPACING × the last sync’s time; a search syncs at once; the spaced sync comes', async () => {
  // A slow sync (a big catalog on a busy machine): the hold makes it last at least 300 ms.
  const { index, state, sync, held } = await secondSyncHeld();
  await new Promise((resolve) => setTimeout(resolve, 300));
  held.release();
  await sync.current();
  assert.equal(index.synced.length, 2);

  // The next change right after it: no sync yet (it would wait at least 600 ms)…
  state.tools = [tool('a', 'ping'), tool('b', 'echo'), tool('c', 'add')];
  state.next = 'tools';
  sync.rebuild();
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(index.synced.length, 2, 'the sync after a slow one is spaced');
  // …until a search asks: it syncs at once and answers from the index that has the change.
  await sync.current();
  assert.deepEqual(index.synced.at(-1), ['a_ping', 'b_echo', 'c_add']);

  // A change nobody searches for is indexed all the same once the spacing has passed.
  state.tools = [tool('a', 'ping')];
  state.next = 'tools';
  const synced = new Promise<void>((resolve) => {
    const original = index.sync.bind(index);
    index.sync = async (tools) => {
      await original(tools);
      resolve();
    };
  });
  sync.rebuild();
  await synced;
  assert.deepEqual(index.synced.at(-1), ['a_ping']);
  sync.stop();
});
