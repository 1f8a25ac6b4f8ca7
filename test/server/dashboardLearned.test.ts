/**
 * The dashboard's "Learned search" section in headless Chromium, over the real LensApp with
 * real upstreams: what agents' find_tools → call pairs through the gateway (SDK client) taught,
 * per tool with its words, weights and counts; request words with markup in them shown as
 * text; Forget with its inline confirmation. Screenshots go to test-results/.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Browser } from 'playwright-core';
import { silentLogger } from '../../server/src/core/logger';
import { GatewayHttpServer } from '../../server/src/gateway/http';
import { connectAgent } from '../fixtures/agentClient';
import { openDashboard, startWithChromium } from '../fixtures/lens/dashboardPage';
import { startDashboardWorld, type DashboardWorld } from '../fixtures/lens/dashboardWorld';
import { HOSTILE_IMG } from '../fixtures/servers/hostileText';

const ROOT = resolve(__dirname, '../..');
const RESULTS = join(ROOT, 'test-results');
const TOKEN = 'learned-token-' + Math.random().toString(36).slice(2);

describe('dashboard: learned search', () => {
  let world: DashboardWorld;
  let browser: Browser;
  let gateway: GatewayHttpServer;
  let mcpUrl: string;
  const problems: string[] = [];

  before(async () => {
    const build = spawnSync(process.execPath, ['esbuild.mjs', 'webview'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(build.status, 0, build.stderr);
    mkdirSync(RESULTS, { recursive: true });
    [world, browser] = await startWithChromium(startDashboardWorld);
    gateway = new GatewayHttpServer({ lens: world.lens, token: TOKEN, log: silentLogger, sessionIdleMs: 60_000 });
    ({ url: mcpUrl } = await gateway.start());
  });
  after(async () => {
    await browser?.close();
    await gateway?.close();
    await world?.close();
  });

  const name = (original: string) => world.lens.tools().find((t) => t.originalName === original)!.name;

  /** One agent session: its find_tools requests, then a call. */
  async function session(queries: string[], tool: string, args: Record<string, unknown>): Promise<void> {
    const c: Client = await connectAgent(mcpUrl, TOKEN, 'learned-agent');
    try {
      for (const query of queries) await c.callTool({ name: 'find_tools', arguments: { query } });
      const r = await c.callTool({ name: 'call_tool', arguments: { tool_name: name(tool), arguments: args } });
      assert.notEqual(r.isError, true);
    } finally {
      await c.close();
    }
  }

  it('shows what was learned per tool, words as text, and forgets it', async () => {
    const page = await openDashboard(browser, world.dashboardUrl, problems, 'light');
    const card = page.locator('#learned');
    await card.locator('.empty', { hasText: 'Nothing learned yet' }).waitFor();
    assert.equal(await card.locator('[data-action="forget-learned"]').count(), 0, 'nothing to forget');

    await session(['tally 3 and 4', 'sum of 3 and 4'], 'get-sum', { a: 3, b: 4 });
    await session(['tally 10 and 20 please'], 'get-sum', { a: 10, b: 20 });
    await session([`show the banner ${HOSTILE_IMG}`], 'render_banner', { text: 'hi' });

    const sum = card.locator(`tr[data-tool="${name('get-sum')}"]`);
    await sum.waitFor();
    const words = await sum.locator('.learned-word').allInnerTexts();
    assert.deepEqual(
      words.map((w) => w.split(' ')[0]),
      ['talli', 'sum'],
      'the word both requests had weighs most',
    );
    assert.equal(await sum.locator('td.num').first().innerText(), '2');
    assert.match(await card.locator('.muted').first().innerText(), /^3 past requests kept \(at most 4,000, the oldest go first\) · 2 tools$/);

    // The request's markup became words, shown as text: nothing ran, no element was made.
    const banner = card.locator(`tr[data-tool="${name('render_banner')}"]`);
    assert.ok((await banner.locator('.learned-word').allInnerTexts()).some((w) => w.startsWith('onerror')));
    assert.equal(await card.locator('img, script').count(), 0);
    assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
    await card.screenshot({ path: join(RESULTS, 'dashboard-learned-light.png') });

    await card.locator('[data-action="forget-learned"]').click();
    await card.locator('[data-action="forget-learned-confirm"]').click();
    await card.locator('.empty', { hasText: 'Nothing learned yet' }).waitFor();
    assert.equal(world.lens.learnedSearch().requests, 0);
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  it('looks right in dark (screenshot in test-results/)', async () => {
    await session(['find the literature on adding numbers', 'sum of two numbers'], 'get-sum', { a: 1, b: 2 });
    await session(['say hello back to me'], 'echo', { message: 'hello' });
    const page = await openDashboard(browser, world.dashboardUrl, problems, 'dark');
    const card = page.locator('#learned');
    await card.locator(`tr[data-tool="${name('echo')}"]`).waitFor();
    await card.screenshot({ path: join(RESULTS, 'dashboard-learned-dark.png') });
    assert.deepEqual(problems, []);
    await page.context().close();
  });
});
