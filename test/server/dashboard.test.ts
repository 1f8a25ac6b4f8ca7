/**
 * The dashboard in headless Chromium, served by the real `mcp-lens serve --http` on a workspace
 * with real upstreams (server-everything, server-memory and a hostile fixture server): search,
 * "Try it", a killed upstream coming back after Restart, hostile tool text rendered as text,
 * the 401 without the token, and light/dark screenshots saved to test-results/.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { connectAgent } from '../fixtures/agentClient';
import { until } from '../fixtures/gatewayLens';
import { openDashboard, startWithChromium } from '../fixtures/lens/dashboardPage';
import { startServeWorld, type ServeWorld } from '../fixtures/lens/serveWorld';
import { HOSTILE_IMG, HOSTILE_SCRIPT } from '../fixtures/servers/hostileText';

const ROOT = resolve(__dirname, '../..');
const RESULTS = join(ROOT, 'test-results');

describe('dashboard in a browser', () => {
  let world: ServeWorld;
  let browser: Browser;
  const problems: string[] = [];

  before(async () => {
    const build = spawnSync(process.execPath, ['esbuild.mjs', 'server', 'webview'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(build.status, 0, build.stderr);
    mkdirSync(RESULTS, { recursive: true });
    [world, browser] = await startWithChromium(startServeWorld);
  });
  after(async () => {
    await browser?.close();
    await world?.close();
  });

  const open = (scheme: 'light' | 'dark' = 'dark'): Promise<Page> =>
    openDashboard(browser, world.dashboardUrl, problems, scheme);

  async function search(page: Page, query: string): Promise<void> {
    await page.fill('#search input[type="search"]', query);
    await page.locator('.search-meta', { hasText: 'result' }).waitFor();
  }

  it('refuses to load without the token', async () => {
    const page = await browser.newPage();
    const res = await page.goto(`${world.origin}/`);
    assert.equal(res?.status(), 401);
    assert.match(await page.locator('body').innerText(), /not authorized/);
    assert.equal(await page.locator('#search').count(), 0);
    await page.close();
  });

  it('searches with live results and tries a real tool', async () => {
    const page = await open();
    await search(page, 'sum of two numbers');
    const hit = page.locator('.hit', { has: page.locator('.hit-name', { hasText: /^get-sum$/ }) });
    await hit.waitFor();
    assert.match(await hit.locator('.hit-server').innerText(), /everything/);
    assert.equal(await hit.locator('.badge.keyword').count(), 1);
    await hit.locator('details:has(pre.schema) summary').click();
    assert.match(await hit.locator('pre.schema').innerText(), /"required"/);
    await hit.locator('details.try-it summary').click();
    const args = JSON.parse(await hit.locator('textarea').inputValue()) as Record<string, unknown>;
    assert.deepEqual(Object.keys(args).sort(), ['a', 'b'], 'pre-filled from the required properties');
    await hit.locator('textarea').fill('{"a": 19, "b": 23}');
    await hit.locator('button', { hasText: 'Call' }).click();
    await hit.locator('.try-result.ok', { hasText: 'The sum of 19 and 23 is 42' }).waitFor();
    await page.context().close();
  });

  it('renders hostile tool text as text and runs none of it', async () => {
    const page = await open();
    await search(page, 'banner');
    const hit = page.locator('.hit', { has: page.locator('.hit-name', { hasText: 'render_banner' }) });
    const desc = await hit.locator('.hit-desc').innerText();
    assert.ok(desc.includes(HOSTILE_IMG) && desc.includes(HOSTILE_SCRIPT), desc);
    await hit.locator('details.try-it summary').click();
    await hit.locator('button', { hasText: 'Call' }).click();
    await hit.locator('.try-result', { hasText: 'echoed' }).waitFor();
    assert.ok((await hit.locator('.try-result').innerText()).includes(HOSTILE_SCRIPT));
    const hostile = page.locator('.server[data-server="hostile"]');
    await hostile.locator('summary', { hasText: 'stderr' }).click();
    // The stderr tail comes with the server rows, which the page may redraw as it arrives.
    await hostile.locator('pre', { hasText: HOSTILE_IMG }).waitFor({ state: 'attached' });
    assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned), undefined);
    assert.equal(await page.locator('#search img, .servers img, #search script').count(), 0);
    await page.context().close();
  });

  it('shows a killed upstream with its exit reason, restarts it, and Restart works by hand', async () => {
    const page = await open();
    const pid = world.upstreamPid('memory');
    assert.ok(pid, 'memory server has a pid');
    process.kill(pid, 'SIGKILL');
    const row = page.locator('.server[data-server="memory"]');
    // The pool restarts a server that was ready, after a backoff: meanwhile the row says why.
    await page.locator('.server[data-server="memory"]:not([data-state="ready"])').waitFor();
    assert.match(await row.locator('.server-error').innerText(), /exited/);
    await page.locator('.server[data-server="memory"][data-state="ready"]').waitFor();
    const restarted = world.upstreamPid('memory');
    assert.ok(restarted && restarted !== pid, 'a new process');
    await row.locator('button', { hasText: 'Restart' }).click();
    await page
      .waitForFunction(
        () => document.querySelector('.server[data-server="memory"]')?.getAttribute('data-state') !== 'ready',
      )
      .catch(() => undefined);
    await page.locator('.server[data-server="memory"][data-state="ready"]').waitFor();
    assert.match(await row.locator('.muted').first().innerText(), /9 tools/);
    await until(
      'the memory server to restart with a new pid',
      () => {
        const now = world.upstreamPid('memory');
        return now !== undefined && now !== restarted;
      },
      15_000,
    );
    await page.context().close();
  });

  it('looks right in dark and light (screenshots in test-results/)', async () => {
    // An agent's search and pick, so the screenshots show search quality from real calls.
    const agent = await connectAgent(new URL('/mcp', world.origin), world.token, 'screenshot-agent');
    try {
      await agent.callTool({ name: 'find_tools', arguments: { query: 'sum of two numbers' } });
      await agent.callTool({
        name: 'call_tool',
        arguments: { tool_name: 'everything_get-sum', arguments: { a: 1, b: 2 } },
      });
    } finally {
      await agent.close();
    }
    for (const scheme of ['dark', 'light'] as const) {
      const page = await open(scheme);
      const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      assert.equal(bg, scheme === 'dark' ? 'rgb(31, 31, 31)' : 'rgb(255, 255, 255)');
      await page.locator('.bar-row').first().waitFor();
      await search(page, 'sum numbers');
      const hit = page.locator('.hit').first();
      await hit.locator('details.try-it summary').click();
      await hit.locator('textarea').fill('{ "a": 19, "b": 23 }');
      await hit.locator('button', { hasText: 'Call' }).click();
      await hit.locator('.try-result.ok').waitFor();
      await page.locator('#retrieval [data-rate="hit-1"]').waitFor();
      await page.screenshot({ path: join(RESULTS, `dashboard-${scheme}.png`), fullPage: true });
      await page.context().close();
    }
    assert.deepEqual(problems, [], 'no page errors, console errors or CSP violations');
  });
});
