// The caching hints a 2026-07-28 client gets on MCP Lens's lists: 0 while the list is about to
// change (a server starting, the catalog behind what its servers said, sessions not yet told, a
// predictive list), else the list's ttl bounded by the upstreams' own; always private.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Lens } from '../../server/src/app/lens';
import type { ServerStatus } from '../../protocol/model';
import { cacheHint, LIST_TTL_MS } from '../../server/src/gateway/modern/cacheHints';

/** The little of a Lens the hint reads: its servers' states, whether its catalog is behind, its exposure. */
function lensWith(o: { states?: ServerStatus['state'][]; behind?: boolean; exposure?: string }): Lens {
  const servers = (o.states ?? ['ready']).map((state, i) => ({ name: `s${i}`, state }) as ServerStatus);
  return {
    servers: () => servers,
    catalogBehind: () => o.behind === true,
    settings: () => ({ exposure: o.exposure ?? 'all' }),
  } as unknown as Lens;
}

test('a settled list may be reused for LIST_TTL_MS, privately', () => {
  assert.deepEqual(cacheHint('tools/list', lensWith({})), { ttlMs: LIST_TTL_MS, cacheScope: 'private' });
});

test('a list about to change is not to be reused: a server starting, the catalog behind, sessions not yet told', () => {
  assert.equal(cacheHint('tools/list', lensWith({ states: ['ready', 'starting'] })).ttlMs, 0);
  // A server is up and its tools are being gathered into the catalog: the list lacks them yet.
  assert.equal(cacheHint('tools/list', lensWith({ behind: true })).ttlMs, 0);
  assert.equal(cacheHint('prompts/list', lensWith({ behind: true })).ttlMs, 0);
  assert.equal(cacheHint('tools/list', lensWith({}), undefined, true).ttlMs, 0);
  assert.equal(cacheHint('tools/list', lensWith({ exposure: 'predictive' })).ttlMs, 0);
  assert.equal(cacheHint('prompts/list', lensWith({ exposure: 'predictive' })).ttlMs, LIST_TTL_MS);
});

test('never longer than the upstreams said of their own list; a read only as long as its upstream said', () => {
  const upstream = (method: string) => (method === 'tools/list' ? 1234 : undefined);
  assert.equal(cacheHint('tools/list', lensWith({}), upstream).ttlMs, 1234);
  assert.equal(cacheHint('resources/list', lensWith({}), upstream).ttlMs, LIST_TTL_MS);
  assert.equal(cacheHint('resources/read', lensWith({})).ttlMs, 0);
  assert.equal(cacheHint('resources/read', lensWith({}), () => 500).ttlMs, 500);
});
