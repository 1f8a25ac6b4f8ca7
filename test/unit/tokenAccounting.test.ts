/**
 * The gateway's token accounting on a catalog too large to count in one go: the first find_tools
 * does not wait for the count (its answer has no baseline yet), the count runs in the
 * background, and the savings of the answers given meanwhile are added once the baseline is
 * known. A workspace-sized catalog is counted at once, as before.
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
  assert.equal(accounting.recordFindTools('s1', 500, undefined), undefined);
  assert.equal(accounting.tokenStats(undefined, 0).findToolsCalls, 1, 'the call counts at once');
  assert.equal(accounting.session('s1')?.savedTokens, 0);

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
  assert.equal(stats.savedTokensTotal, cost.baselineTokens - 500);
  assert.equal(accounting.session('s1')?.savedTokens, cost.baselineTokens - 500);
  accounting.stop();
});
