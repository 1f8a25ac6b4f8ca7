// What a one-shot client's first answer waits for (app/firstListings.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FirstListings } from '../../server/src/app/firstListings';
import type { UpstreamStatus } from '../../server/src/adapters/upstream/types';

function world(options: { cached?: boolean; timeoutMs?: number } = {}) {
  const listeners = new Set<() => void>();
  const statuses: UpstreamStatus[] = [];
  let withoutTools: string[] = [];
  const first = new FirstListings({
    statuses: () => statuses,
    startingWithoutTools: () => withoutTools,
    hadCatalogCache: () => options.cached ?? false,
    onChange: (l) => (listeners.add(l), { dispose: () => listeners.delete(l) }),
    connectTimeoutMs: () => options.timeoutMs ?? 60_000,
  });
  const server = (name: string, state: UpstreamStatus['state'], readyAt?: number): UpstreamStatus => ({
    name,
    transport: 'stdio',
    state,
    stderrTail: [],
    restarts: 0,
    toolCount: 0,
    promptCount: 0,
    resourceCount: 0,
    ...(readyAt !== undefined && { readyAt }),
  });
  return {
    first,
    statuses,
    server,
    startWithoutTools: (names: string[]) => (withoutTools = names),
    change: () => [...listeners].forEach((l) => l()),
    listening: () => listeners.size,
  };
}

test('no catalog cache: tools wait for the servers starting with none, until they are up', async () => {
  const w = world();
  w.startWithoutTools(['a', 'b']);
  let done = false;
  const waited = w.first.whenListed('tools').then(() => (done = true));
  w.startWithoutTools(['b']);
  w.change();
  await Promise.resolve();
  assert.equal(done, false);
  w.startWithoutTools([]);
  w.change();
  await waited;
  assert.equal(w.listening(), 0, 'the wait stops listening');
});

test('with a catalog cache, tools answer at once, even while a server starts with none', async () => {
  const w = world({ cached: true });
  w.startWithoutTools(['hangs']);
  assert.equal(w.first.waiting('tools'), false);
  await w.first.whenListed('tools');
});

test('prompts and resources wait for servers never up since start; one restarting does not hold them', async () => {
  const w = world({ cached: true });
  w.statuses.push(w.server('restarting', 'starting', 1), w.server('failed', 'error'), w.server('lazy', 'stopped'));
  assert.equal(w.first.waiting('prompts'), false);
  w.statuses.push(w.server('new', 'starting'));
  assert.equal(w.first.waiting('resources'), true);
  const waited = w.first.whenListed('resources');
  w.statuses[3] = w.server('new', 'ready', 2);
  w.change();
  await waited;
});

test('a server that never comes up holds the answer no longer than the connect timeout', async () => {
  const w = world({ timeoutMs: 1 });
  w.statuses.push(w.server('hangs', 'starting'));
  await w.first.whenListed('prompts');
  assert.equal(w.first.waiting('prompts'), true, 'still starting: the bound ended the wait');
});
