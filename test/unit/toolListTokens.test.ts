/**
 * Each server's tools/list tokens, counted tool by tool (core/toolListTokens.ts): the sums equal
 * the whole-list counts exactly (the figure counted before, one JSON text per server) on the 19
 * recorded real servers; an unchanged catalog, or one rebuilt with the same definitions, is not
 * tokenized again; only a changed tool is; a paced count gives the turn back between slices.
 * (The counts are kept per process, so each test's catalog has descriptions of its own.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildCatalog } from '../../server/src/app/catalogBuilder';
import type { CatalogTool } from '../../server/src/core/catalog';
import { toolListTokens, useTokenCounter, type TokenCounter } from '../../server/src/core/tokens';
import {
  countCatalogTokens,
  countCatalogTokensPaced,
  countCatalogTokensUpTo,
  knownCatalogTokens,
  pieceCounts,
} from '../../server/src/core/toolListTokens';
import { o200kTokenizer } from '../../server/src/adapters/tokens/o200kCounter';
import type { UpstreamTool } from '../../server/src/adapters/upstream/types';
import { readRecordedCatalog } from '../fixtures/catalog/recordedCatalog';

/** The real counter, counting its calls. */
let calls = 0;
const counting: TokenCounter = {
  count: (text) => (calls++, o200kTokenizer.count(text)),
  prefix: (text, n) => o200kTokenizer.prefix(text, n),
};
useTokenCounter(counting);

function recordedUpstream(mark = ''): UpstreamTool[] {
  const recorded = readRecordedCatalog();
  return Object.entries(recorded.servers).flatMap(([server, s]) =>
    s.tools.map((t) => ({
      server,
      name: t.name,
      ...(t.description !== undefined && { description: t.description + mark }),
      inputSchema: t.inputSchema,
    })),
  );
}

const catalogOf = (upstream: UpstreamTool[]) => buildCatalog(upstream, [], [], () => true).tools;

/** The figure as it was counted before: each server's list (original names, catalog order) as one JSON text. */
function wholeListCounts(tools: readonly CatalogTool[]): Map<string, number> {
  const byServer = new Map<string, CatalogTool[]>();
  for (const t of tools) byServer.set(t.server, [...(byServer.get(t.server) ?? []), t]);
  return new Map(
    [...byServer].map(([server, list]) => [server, toolListTokens(list.map((t) => ({ ...t, name: t.originalName })))]),
  );
}

const tokensOf = (counted: { perServer: Map<string, { tokens: number }> }) =>
  new Map([...counted.perServer].map(([s, r]) => [s, r.tokens]));

test('the per-tool sums equal each whole-list count on the 19 recorded servers, and the total with them', () => {
  const tools = catalogOf(recordedUpstream());
  const counted = countCatalogTokens(tools);
  const whole = wholeListCounts(tools);
  assert.equal(counted.perServer.size, 19);
  assert.deepEqual(new Map([...tokensOf(counted)].sort()), new Map([...whole].sort()));
  const total = [...whole.values()].reduce((a, b) => a + b, 0);
  assert.equal(
    [...counted.perServer.values()].reduce((a, r) => a + r.tokens, 0),
    total,
  );
  assert.ok(total > 100_000, `${total} tokens: the whole recorded catalog`);
  assert.deepEqual(
    [...counted.perServer].map(([s, r]) => [s, r.tools]).sort(),
    [...new Set(tools.map((t) => t.server))].map((s) => [s, tools.filter((t) => t.server === s).length]).sort(),
  );
});

test('an unchanged catalog is not tokenized again; a rebuilt one with the same definitions neither; a changed tool alone is', () => {
  const upstream = recordedUpstream(' (second copy)');
  const tools = catalogOf(upstream);
  calls = 0;
  const first = countCatalogTokens(tools);
  assert.ok(calls >= tools.length, `${calls} counts for ${tools.length} tools`);

  calls = 0;
  assert.deepEqual(knownCatalogTokens(tools), first, 'the same tools: known by lookups alone');
  assert.deepEqual(countCatalogTokens(tools), first);
  assert.equal(calls, 0);

  // The catalog is rebuilt on every server's change: new objects, the same definitions.
  const rebuilt = catalogOf(upstream);
  assert.equal(knownCatalogTokens(rebuilt), undefined, 'new objects are not known by identity');
  assert.deepEqual(countCatalogTokens(rebuilt), first, 'remembered by content');
  assert.equal(calls, 0);

  const changed = upstream.map((t, i) => (i === 3 ? { ...t, description: `${t.description ?? ''} now longer` } : t));
  const after = countCatalogTokens(catalogOf(changed));
  assert.ok(calls >= 1 && calls <= 2, `${calls} counts: the changed tool (and its server's last, if it is last)`);
  assert.notEqual(after.version, first.version);
  assert.equal(
    after.perServer.get(upstream[3]!.server)!.tokens,
    wholeListCounts(catalogOf(changed)).get(upstream[3]!.server),
  );
});

test('the counts a cache keeps: one per tool and one per server for its last tool, each a count', () => {
  const tools = catalogOf(recordedUpstream(' (kept)'));
  const first = countCatalogTokens(tools);
  const kept = pieceCounts(tools);
  assert.equal(Object.keys(kept).length, tools.length + first.perServer.size);
  assert.ok(Object.values(kept).every((n) => Number.isInteger(n) && n > 0));
});

test('a paced count gives the turn back between slices, gets the same figures, and stops when told', async () => {
  const upstream = recordedUpstream(' (paced)');
  let pauses = 0;
  const pause = () => new Promise<void>((resolve) => setImmediate(() => (pauses++, resolve())));
  assert.equal(
    await countCatalogTokensPaced(catalogOf(upstream), { pause, stopped: () => pauses >= 1, sliceMs: 0 }),
    undefined,
  );
  const paced = await countCatalogTokensPaced(catalogOf(upstream), { pause, stopped: () => false, sliceMs: 0 });
  assert.ok(pauses > 10, `${pauses} pauses`);
  assert.deepEqual(tokensOf(paced!), wholeListCounts(catalogOf(upstream)));
});

test('counting up to a number of tools: the figures when that was enough, else none (and the counted part stays counted)', () => {
  const tools = catalogOf(recordedUpstream(' (up to)'));
  assert.equal(countCatalogTokensUpTo(tools, 100), undefined);
  assert.equal(countCatalogTokensUpTo(tools, 100), undefined);
  assert.equal(countCatalogTokensUpTo(tools, 100), undefined);
  calls = 0;
  const done = countCatalogTokensUpTo(tools, tools.length);
  assert.ok(done);
  assert.ok(calls <= tools.length - 300 + 19, `${calls}: the 300 tools counted before were not counted again`);
  assert.deepEqual(tokensOf(done), wholeListCounts(tools));
});
