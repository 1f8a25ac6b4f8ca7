/**
 * The gateway's token accounting: one meaning of "saved" (per request: the servers' tool lists
 * less MCP Lens's; in total: what the tool calls' requests saved, less what the searches cost,
 * plus result tokens kept out), and a catalog too large to count in one go: a tool call does not
 * wait for the count, which runs in the background, and the savings of the calls answered
 * meanwhile are added once the baseline is known. A workspace-sized catalog is counted at once.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildCatalog } from '../../server/src/app/catalogBuilder';
import { TokenAccounting } from '../../server/src/gateway/savings';
import { useTokenCounter } from '../../server/src/core/tokens';
import { countCatalogTokens } from '../../server/src/core/toolListTokens';
import { o200kTokenizer } from '../../server/src/adapters/tokens/o200kCounter';
import type { UpstreamTool } from '../../server/src/adapters/upstream/types';
import { readRecordedCatalog } from '../fixtures/catalog/recordedCatalog';

useTokenCounter(o200kTokenizer);

/** The 19 recorded servers `copies` times over, under server names of their own (`mark` keeps them apart from other tests'). */
function recorded(copies: number, mark: string): UpstreamTool[] {
  const servers = Object.entries(readRecordedCatalog().servers);
  return Array.from({ length: copies }, (_, i) =>
    servers.flatMap(([server, s]) =>
      s.tools.map((t) => ({
        server: `${server}-${i}`,
        name: t.name,
        description: `${t.description ?? ''} ${mark}`,
        inputSchema: t.inputSchema,
      })),
    ),
  ).flat();
}

const catalogOf = (upstream: UpstreamTool[]) => buildCatalog(upstream, [], [], () => true).tools;
const turn = () => new Promise((resolve) => setImmediate(resolve));

test('a workspace-sized catalog is counted at once', () => {
  const tools = catalogOf(recorded(1, 'workspace'));
  const cost = new TokenAccounting().catalogCost(tools);
  assert.ok(cost);
  assert.equal(
    cost.baselineTokens,
    [...countCatalogTokens(tools).perServer.values()].reduce((n, r) => n + r.tokens, 0),
  );
});

test('an organisation-sized catalog: no baseline at first, counted in the background, the savings meanwhile added after', async () => {
  const tools = catalogOf(recorded(8, 'organisation'));
  assert.ok(tools.length > 2500, `${tools.length} tools`);
  const accounting = new TokenAccounting();
  assert.equal(accounting.catalogCost(tools), undefined, 'the first ask does not count everything');
  accounting.noteListed('s1', 700);
  accounting.recordFindTools('s1', 500);
  accounting.recordToolCall('s1', undefined);
  assert.equal(accounting.tokenStats(undefined, 0).findToolsCalls, 1, 'the search counts at once');
  assert.equal(accounting.tokenStats(undefined, 0).requests.toolCalls, 0, 'the call waits for the baseline');
  assert.equal(accounting.session('s1')?.savedTokens, -1200, 'the search cost its request and its answer');

  let cost = accounting.catalogCost(tools);
  let turns = 0;
  for (; cost === undefined; turns++) {
    await turn();
    cost = accounting.catalogCost(tools);
  }
  assert.ok(turns > 1, `${turns} turns: the count gave the turn back`);
  assert.equal(
    cost.baselineTokens,
    [...countCatalogTokens(tools).perServer.values()].reduce((n, r) => n + r.tokens, 0),
  );
  assert.equal(cost.perServer.length, 8 * 19);
  const stats = accounting.tokenStats(cost, 0);
  assert.equal(stats.findToolsCalls, 1);
  assert.deepEqual(stats.requests, {
    toolCalls: 1,
    toolCallSavedTokens: cost.baselineTokens - 700,
    searches: 1,
    searchTokens: 1200,
  });
  assert.equal(stats.savedTokensTotal, cost.baselineTokens - 700 - 1200);
  assert.equal(accounting.session('s1')?.savedTokens, cost.baselineTokens - 700 - 1200);
  accounting.stop();
});

test('one meaning of saved: the total is the tool calls at the per-request saving, less the searches, plus results kept out', () => {
  const accounting = new TokenAccounting({ exposedFor: () => 300 });
  const baseline = 4000;
  accounting.noteListed('a', 1000);
  accounting.recordFindTools('a', 600, 1);
  accounting.recordShaping('a', 5000, 1000);
  accounting.recordToolCall('a', baseline, 2);
  // A session that never listed its tools is counted with the list it would get.
  accounting.recordSearch('b', 50, 3);
  accounting.recordToolCall('b', baseline, 4);
  const t = accounting.tokenStats(undefined, 1000);
  assert.deepEqual(t.requests, {
    toolCalls: 2,
    toolCallSavedTokens: baseline - 1000 + (baseline - 300),
    searches: 2,
    searchTokens: 1000 + 600 + (300 + 50),
  });
  assert.equal(t.shaping?.savedTokens, 4000);
  assert.equal(
    t.savedTokensTotal,
    t.requests.toolCallSavedTokens - t.requests.searchTokens + 4000,
    'the total is its parts, nothing else',
  );
  assert.deepEqual(
    t.history.map((p) => [p.kind, p.savedTokens]),
    [
      ['search', -1600],
      ['call', baseline - 1000 + 4000],
      ['search', -350],
      ['call', baseline - 300],
    ],
    'one point per agent request; the result kept out goes with its call',
  );
  assert.equal(
    t.history.reduce((n, p) => n + p.savedTokens, 0),
    t.savedTokensTotal,
    'the chart adds up to the total',
  );
});
