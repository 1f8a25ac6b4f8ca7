/**
 * The dashboard's wording and states in headless Chromium, over the real LensApp with real
 * upstreams (server-everything, server-memory, the hostile fixture): search quality from real
 * agent calls through the gateway (SDK client), a token cost shown as a cost, counts with the
 * right noun, the "no matches" hint, and accessible names that read as text. Screenshots of
 * these states go to test-results/.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Page } from 'playwright-core';
import { connectAgent } from '../fixtures/agentClient';
import { useDashboardGateway, RESULTS, ROOT } from '../fixtures/lens/dashboardGateway';
import { openDashboard } from '../fixtures/lens/dashboardPage';

describe('dashboard wording and states', () => {
  const dash = useDashboardGateway('ux-token');

  const open = (scheme: 'light' | 'dark' = 'light'): Promise<Page> =>
    openDashboard(dash.browser, dash.world.dashboardUrl, dash.problems, scheme);
  const agent = (): Promise<Client> => connectAgent(dash.mcpUrl, dash.token, 'ux-agent');
  const name = (original: string) => dash.world.lens.tools().find((t) => t.originalName === original)!.name;

  it('shows search quality from agent calls, with the right nouns', async () => {
    const page = await open();
    const card = page.locator('#retrieval');
    await card.locator('.empty', { hasText: 'No agent calls through MCP Lens yet' }).waitFor();

    // One agent call without a find_tools: one call, one unsearched, no picks yet.
    const c = await agent();
    try {
      await c.callTool({ name: 'call_tool', arguments: { tool_name: name('echo'), arguments: { message: 'hi' } } });
      await page.locator('#usage [data-figure="calls"]', { hasText: /^1 tool call recorded: 1 by agents\./ }).waitFor();
      await card.locator('[data-rate="unsearched"] .value', { hasText: '100%' }).waitFor();
      assert.equal(
        await card.locator('[data-rate="unsearched"]').getAttribute('aria-label'),
        'calls without a find_tools first: 100% (1 of 1 call)',
      );
      assert.equal(await card.locator('[data-rate="hit-1"]').count(), 0, 'no hit rate before any pick');

      // Then a search and a pick from its answer.
      const r = await c.callTool({
        name: 'find_tools',
        arguments: { query: 'add two numbers and return the sum', limit: 5 },
      });
      const answer = (r.structuredContent as { matches: { name: string }[] }).matches.map((m) => m.name);
      const rank = answer.indexOf(name('get-sum')) + 1;
      assert.ok(rank >= 1, `get-sum is in the answer: ${answer.join(', ')}`);
      await c.callTool({ name: 'call_tool', arguments: { tool_name: name('get-sum'), arguments: { a: 1, b: 2 } } });
    } finally {
      await c.close();
    }
    const retrieval = dash.world.lens.usageStats()!.retrieval!;
    const top1 = `${Math.round((retrieval.recent.top1 / retrieval.recent.picks) * 100)}%`;
    await card.locator('[data-rate="hit-1"] .value', { hasText: top1 }).waitFor();
    assert.equal(await card.locator('[data-rate="hit-5"] .value').innerText(), '100%');
    assert.match(await card.locator('[data-rate="hit-5"]').innerText(), /1 of 1 pick$/);
    assert.match(await card.locator('[data-rate="unsearched"]').innerText(), /1 of 2 calls/);
    assert.match(await card.innerText(), /Over the last session: 2 agent calls, 1 pick from a find_tools answer\./);
    // Advice only when it applies: every pick ranked first, no trend.
    assert.doesNotMatch(await card.innerText(), /A falling rate means/);
    assert.equal(await card.locator('.advice').count(), 0);
    // The usage count says whose calls it counts, so it reads beside "2 agent calls" above.
    await page.locator('#usage [data-figure="calls"]', { hasText: /^2 tool calls recorded: 2 by agents\./ }).waitFor();
    await card.screenshot({ path: join(RESULTS, 'dashboard-quality-light.png') });
    await page.context().close();
  });

  it('says what "saved" means per request and in total, and the two figures agree', async () => {
    const page = await open();
    const c = await agent();
    try {
      await c.listTools();
      await c.callTool({ name: 'find_tools', arguments: { query: 'echo a message back' } });
      await c.callTool({ name: 'call_tool', arguments: { tool_name: name('echo'), arguments: { message: 'x' } } });
    } finally {
      await c.close();
    }
    const t = dash.world.stats().tokens;
    const perRequest = t.baselineTokens - t.exposedTokens;
    const n = (v: number) => v.toLocaleString('en-US');
    const total = page.locator('#savings [data-kpi="total"]');
    await total.locator('.value', { hasText: new RegExp(`^${n(t.savedTokensTotal)}$`) }).waitFor();
    assert.equal(await total.locator('.label').innerText(), 'tokens saved in total');
    assert.equal(await page.locator('#savings [data-kpi="per-request"] .value').innerText(), n(perRequest));
    assert.match(
      await page.locator('#savings [data-kpi="per-request"] .label').innerText(),
      /^tokens saved per request/,
    );
    // One line each: the per-request figure is the difference of the two lists; the total is the
    // tool calls at that figure, less what the searches cost.
    assert.equal(
      await page.locator('#savings [data-meaning="per-request"]').innerText(),
      `Per request: each request the agent sends carries the tool definitions, ${n(t.baselineTokens)} tokens with every server listed directly, ${n(t.exposedTokens)} through MCP Lens (search mode).`,
    );
    const r = t.requests;
    assert.ok(r.toolCalls >= 1 && r.searches >= 1, JSON.stringify(r));
    assert.equal(r.toolCallSavedTokens, r.toolCalls * perRequest, 'every call saved what a request saves');
    assert.equal(t.savedTokensTotal, r.toolCallSavedTokens - r.searchTokens, 'the total is its parts');
    assert.equal(
      await page.locator('#savings [data-meaning="total"]').innerText(),
      `In total: ${r.toolCalls} agent tool calls saved ${n(r.toolCallSavedTokens)} (${r.toolCalls === 1 ? '' : `${n(perRequest)} each, `}the per-request figure), ${r.searches} ${r.searches === 1 ? 'search' : 'searches'} cost ${n(r.searchTokens)} (${r.searches === 1 ? 'its request and answer' : 'their requests and answers'}).`,
    );
    // The chart's axes: a unit on y, the agent's requests on x, first and last.
    const axis = await page.locator('#savings svg.line-chart text.axis').allTextContents();
    assert.ok(axis.includes('tokens saved'), axis.join(' | '));
    assert.ok(axis.includes('agent request 1') && axis.includes(`request ${t.history.length}`), axis.join(' | '));
    assert.ok(!axis.includes('first call'), axis.join(' | '));
    await page.context().close();
  });

  it('ranks results instead of showing raw scores, and shows every result it counts', async () => {
    const page = await open();
    await page.fill('#search input[type="search"]', 'create read delete search entities relations observations');
    const meta = page.locator('#search .search-meta', { hasText: /^\d+ results? · / });
    await meta.waitFor();
    const claimed = Number(/^(\d+) results?/.exec(await meta.innerText())![1]);
    assert.equal(claimed, dash.world.lens.settings().search.defaultLimit, 'as many as find_tools gives an agent');
    assert.equal(await page.locator('#search .hit').count(), claimed);
    // Each result's schema open: more than a 560 px box holds.
    for (const summary of await page.locator('#search .hit details:has(pre.schema) summary').all())
      await summary.click();
    const ranks = await page.locator('#search .hit .hit-rank').allInnerTexts();
    assert.deepEqual(
      ranks,
      Array.from({ length: claimed }, (_, i) => `#${i + 1}`),
    );
    assert.doesNotMatch(
      (await page.locator('#search .hit .hit-head').allInnerTexts()).join('\n'),
      /\d\.\d{2,}/,
      'no bare scores',
    );
    // None of the results it counts is hidden in a scroll box of its own: the page shows them all.
    const clipped = await page.evaluate(
      () =>
        [...document.querySelectorAll('#search .hit')].filter((hit) => {
          for (let el = hit.parentElement; el && el !== document.body; el = el.parentElement) {
            const overflow = getComputedStyle(el).overflowY;
            if (overflow === 'visible' || el.scrollHeight <= el.clientHeight + 1) continue;
            const a = hit.getBoundingClientRect();
            const b = el.getBoundingClientRect();
            if (a.bottom > b.bottom + 1 || a.top < b.top - 1) return true;
          }
          return false;
        }).length,
    );
    assert.equal(clipped, 0, 'results cut off by a scroll box');
    await page.context().close();
  });

  it('flags a falling hit rate, with what it means and what to do', async () => {
    const page = await open('dark');
    const card = page.locator('#retrieval');
    await card.locator('[data-rate="hit-1"]').waitFor();
    // Ten sessions pick the top match; the ten after them call a tool the answer did not hold.
    // Search learning would put that tool in the answers after the first such call: the trend
    // is measured here with the ranking the agents saw standing still.
    const settings = dash.world.lens.settings();
    await dash.world.lens.updateSettings({ ...settings, search: { ...settings.search, learnFromUsage: false } });
    for (let i = 0; i < 20; i++) {
      const c = await agent();
      try {
        await c.callTool({ name: 'find_tools', arguments: { query: 'add two numbers and return the sum', limit: 3 } });
        const tool = i < 10 ? name('get-sum') : name('read_graph');
        await c.callTool({
          name: 'call_tool',
          arguments: { tool_name: tool, arguments: i < 10 ? { a: i, b: 1 } : {} },
        });
      } finally {
        await c.close();
      }
    }
    await dash.world.lens.updateSettings(settings);
    const r = dash.world.lens.usageStats()!.retrieval!;
    assert.equal(r.trend, 'falling', JSON.stringify(r));
    // The page may still show an update from before the last session: wait for the final one.
    const trend = card.locator('.trend.falling[role="alert"]', { hasText: 'Falling: 0% at rank 1' });
    await trend.waitFor();
    assert.match(
      await trend.innerText(),
      /^▼ Falling: 0% at rank 1 and 0% in the top 5, against 100% and 100% in the 10 sessions before\.$/,
    );
    const advice = await card.locator('.advice').innerText();
    assert.match(advice, /clearer descriptions.*Ollama/);
    assert.match(advice, /mcpLens\.embedding\.enabled/, 'keyword mode: the advice names the real setting');
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      contributes: { configuration: { properties: Record<string, unknown> } };
    };
    for (const setting of (await page.locator('body').innerText()).match(/mcpLens\.[A-Za-z.]+[A-Za-z]/g) ?? [])
      assert.ok(setting in manifest.contributes.configuration.properties, `${setting} is a setting`);
    assert.match((await card.locator('[data-rate="hit-1"]').getAttribute('aria-label'))!, /, falling$/);
    await card.screenshot({ path: join(RESULTS, 'dashboard-quality-falling-dark.png') });
    await page.context().close();
  });

  it('shows a token cost as a cost, in words, colour and accessible name', async () => {
    const page = await open();
    const first = page.locator('#savings .kpi').first();
    await first.locator('.value.good').waitFor();
    const green = await first.locator('.value').evaluate((e) => getComputedStyle(e).color);
    await dash.world.lens.updateSettings({ ...dash.world.lens.settings(), exposure: 'all' });
    try {
      const stats = dash.world.stats();
      assert.ok(stats.tokens.exposedTokens > stats.tokens.baselineTokens, 'all mode lists more than the servers do');
      const cost = page.locator('#savings .kpi[data-tone="cost"]').first();
      await cost.waitFor();
      const percent = `${Math.abs(stats.tokens.savingsPercent).toFixed(1)}%`;
      assert.equal(await cost.locator('.value').innerText(), `+${percent}`);
      assert.equal(await cost.locator('.label').innerText(), 'more tokens in every request');
      assert.equal(
        await cost.getAttribute('aria-label'),
        `Cost: ${percent} more tokens in every request than without MCP Lens`,
      );
      assert.notEqual(
        await cost.locator('.value').evaluate((e) => getComputedStyle(e).color),
        green,
        'not the success colour',
      );
      assert.match(
        await page.locator('#savings .kpi').nth(1).innerText(),
        /tokens added to every request \(all mode\)/,
      );
      assert.match(await page.locator('#savings .cost-note').innerText(), /All mode lists every tool/);
      assert.equal(await page.locator('#savings .fill-cost').count(), 1, 'the "with MCP Lens" bar is drawn as a cost');
      const text = await page.locator('#savings').innerText();
      assert.doesNotMatch(text, /-\d+(\.\d+)?%|fewer tokens/, 'no negative saving anywhere');
      await page.screenshot({ path: join(RESULTS, 'dashboard-cost-light.png'), fullPage: false });
    } finally {
      await dash.world.lens.updateSettings({ ...dash.world.lens.settings(), exposure: 'search' });
    }
    await first.locator('.value.good').waitFor();
    assert.match(await first.innerText(), /fewer tokens in every request/);
    await page.context().close();
  });

  it("says why nothing matched and offers close names and the servers' words", async () => {
    const page = await open('dark');
    const input = page.locator('#search input[type="search"]');
    await input.fill('echoo');
    await page.locator('#search .hits li.empty', { hasText: 'No tools match "echoo".' }).waitFor();
    const close = page.locator('#search .hit[data-tool="' + name('echo') + '"]');
    await close.waitFor();
    assert.match(await close.locator('.hit-why').innerText(), /name close to "echoo"/);
    assert.equal(await close.locator('.hit-rank').count(), 0, 'no rank for a suggestion');
    await close.locator('details:has(pre.schema) summary').click();
    assert.match(await close.locator('pre.schema').innerText(), /"message"/, 'its schema is there for "Try it"');
    const memory = page.locator('#search .no-match-server[data-server="memory"]');
    assert.match(await memory.innerText(), /memory\s+9 tools/);
    await page.screenshot({ path: join(RESULTS, 'dashboard-no-match-dark.png'), fullPage: false });
    // A word of the catalog is one click from a search that finds that server's tools.
    await memory.locator('button.word', { hasText: /^entities$/ }).click();
    assert.equal(await input.inputValue(), 'entities');
    await page.locator('#search .hit .hit-server', { hasText: 'memory' }).first().waitFor();
    assert.match(await page.locator('#search .search-meta').innerText(), /^\d+ results? · /);
    await page.context().close();
  });

  it('names things for assistive technology in plain words', async () => {
    const page = await open();
    await page.locator('#savings .bars[role="img"]').waitFor();
    const labels = await page.$$eval('[aria-label]', (els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
    assert.ok(labels.length >= 5, labels.join(' | '));
    for (const l of labels) assert.doesNotMatch(l, /&[a-z]+;|&#\d+;|undefined|NaN/, l);
    const bars = await page.locator('#savings .bars[role="img"]').getAttribute('aria-label');
    assert.match(
      bars!,
      /^Tool definitions per request: [\d,]+ tokens without MCP Lens, [\d,]+ with it \([\d.]+% fewer\)$/,
    );
    assert.deepEqual(dash.problems, [], 'no page errors, console errors or CSP violations');
    await page.context().close();
  });
});
