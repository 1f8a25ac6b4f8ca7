/**
 * The dashboard's "Learned search" section in headless Chromium, over the real LensApp with
 * real upstreams: what agents' find_tools → call pairs through the gateway (SDK client) taught,
 * per tool with its words as typed (never stems, never the markup a request carried), weights
 * and counts, and which words count only for the session that taught them; sharing a tool's
 * words with every session; Forget with its inline confirmation. Screenshots go to test-results/.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connectAgent } from '../fixtures/agentClient';
import { useDashboardGateway, RESULTS } from '../fixtures/lens/dashboardGateway';
import { openDashboard } from '../fixtures/lens/dashboardPage';
import { HOSTILE_IMG } from '../fixtures/servers/hostileText';

describe('dashboard: learned search', () => {
  const dash = useDashboardGateway('learned-token');

  const name = (original: string) => dash.world.lens.tools().find((t) => t.originalName === original)!.name;

  /** One agent session: its find_tools requests, then a call. */
  async function session(queries: string[], tool: string, args: Record<string, unknown>): Promise<void> {
    const c: Client = await connectAgent(dash.mcpUrl, dash.token, 'learned-agent');
    try {
      for (const query of queries) await c.callTool({ name: 'find_tools', arguments: { query } });
      const r = await c.callTool({ name: 'call_tool', arguments: { tool_name: name(tool), arguments: args } });
      assert.notEqual(r.isError, true);
    } finally {
      await c.close();
    }
  }

  it('shows what was learned per tool, words as text, and forgets it', async () => {
    const page = await openDashboard(dash.browser, dash.world.dashboardUrl, dash.problems, 'light');
    const card = page.locator('#learned');
    await card.locator('.empty', { hasText: 'Nothing learned yet' }).waitFor();
    assert.equal(await card.locator('[data-action="forget-learned"]').count(), 0, 'nothing to forget');

    await session(['tally 3 and 4', 'sum of 3 and 4'], 'get-sum', { a: 3, b: 4 });
    await session(['tally 10 and 20 please'], 'get-sum', { a: 10, b: 20 });
    await session([`show the banner ${HOSTILE_IMG}`], 'render_banner', { text: 'hi' });

    // Learning runs after each call's reply is sent and the page follows it: wait for the last session's.
    await card
      .locator('.muted', { hasText: /^3 past requests kept \(at most 4,000, the oldest go first\) · 2 tools$/ })
      .first()
      .waitFor();
    const sum = card.locator(`tr[data-tool="${name('get-sum')}"]`);
    const words = await sum.locator('.learned-word').allInnerTexts();
    assert.deepEqual(
      words.map((w) => w.split(' ')[0]),
      ['tally', 'sum'],
      'the words as typed (the stem of "tally" is "talli"), the one both sessions had first',
    );
    assert.equal(await sum.locator('td.num').first().innerText(), '2');
    // "tally" two sessions taught: it counts for every session; "sum" only the first did.
    assert.deepEqual(await sum.locator('.learned-word.own').allInnerTexts(), ['sum 1']);

    // The request's markup is not kept as words; nothing ran, no element was made.
    const banner = card.locator(`tr[data-tool="${name('render_banner')}"]`);
    assert.deepEqual((await banner.locator('.learned-word').allInnerTexts()).map((w) => w.split(' ')[0]).sort(), [
      'banner',
      'show',
    ]);
    assert.equal(await card.locator('img, script').count(), 0);
    assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
    await card.screenshot({ path: join(RESULTS, 'dashboard-learned-light.png') });

    // Sharing get-sum's words: "sum" counts for every session too.
    await sum.locator('[data-action="share-learned"]').click();
    await sum.locator('[data-action="share-learned"]').waitFor({ state: 'detached' });
    assert.equal(await sum.locator('.learned-word.own').count(), 0);
    assert.ok(
      dash.world.lens
        .learnedSearch()
        .tools.find((t) => t.name === name('get-sum'))!
        .words.every((w) => w.everyone),
    );

    await card.locator('[data-action="forget-learned"]').click();
    await card.locator('[data-action="forget-learned-confirm"]').click();
    await card.locator('.empty', { hasText: 'Nothing learned yet' }).waitFor();
    assert.equal(dash.world.lens.learnedSearch().requests, 0);
    assert.deepEqual(dash.problems, []);
    await page.context().close();
  });

  it('looks right in dark (screenshot in test-results/)', async () => {
    await session(['find the literature on adding numbers', 'sum of two numbers'], 'get-sum', { a: 1, b: 2 });
    await session(['say hello back to me'], 'echo', { message: 'hello' });
    const page = await openDashboard(dash.browser, dash.world.dashboardUrl, dash.problems, 'dark');
    const card = page.locator('#learned');
    await card.locator(`tr[data-tool="${name('echo')}"]`).waitFor();
    await card.screenshot({ path: join(RESULTS, 'dashboard-learned-dark.png') });
    assert.deepEqual(dash.problems, []);
    await page.context().close();
  });
});
