/**
 * The dashboard bundle as VS Code runs it: acquireVsCodeApi exists, requests go over
 * postMessage with ids and the "host" (this test, answering from the same handlers the HTTP
 * routes use) replies by id and pushes events. Also: the workbench theme classes and
 * --vscode-* variables win over the browser palette, and the query survives via setState.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { HostMessage, WebviewRequestMessage } from '../../protocol/webviewProtocol';
import { lensHandlers } from '../../server/src/gateway/dashboard/handlers';
import { startWithChromium } from '../fixtures/lens/dashboardPage';
import { startDashboardWorld, type DashboardWorld } from '../fixtures/lens/dashboardWorld';

const ROOT = resolve(__dirname, '../..');

/** Stands in for acquireVsCodeApi: posts go to the test through a binding; state survives reloads like VS Code's. */
const FAKE_VSCODE_API = `
  window.acquireVsCodeApi = () => ({
    postMessage: (m) => window.__toHost(JSON.stringify(m)),
    getState: () => JSON.parse(sessionStorage.getItem('vscodeState') ?? 'null') ?? undefined,
    setState: (s) => sessionStorage.setItem('vscodeState', JSON.stringify(s)),
  });`;

describe('dashboard as a VS Code webview (postMessage transport)', () => {
  let world: DashboardWorld;
  let browser: Browser;
  const requests: string[] = [];

  before(async () => {
    const build = spawnSync(process.execPath, ['esbuild.mjs', 'webview'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(build.status, 0, build.stderr);
    [world, browser] = await startWithChromium(startDashboardWorld);
  });
  after(async () => {
    await browser?.close();
    await world?.close();
  });

  async function openWebview(): Promise<Page> {
    const page = await browser.newPage();
    const handlers = lensHandlers(
      world.lens,
      () => world.stats(),
      undefined,
      () => undefined,
    );
    const toPage = (m: HostMessage) =>
      page.evaluate((msg) => window.postMessage(msg, '*'), m as unknown as Record<string, unknown>);
    await page.exposeFunction('__toHost', async (raw: string) => {
      const m = JSON.parse(raw) as WebviewRequestMessage;
      requests.push(m.method);
      try {
        const handler = handlers[m.method] as (p: unknown) => Promise<unknown>;
        await toPage({ kind: 'response', id: m.id, result: await handler(m.params) });
      } catch (err) {
        await toPage({ kind: 'error', id: m.id, message: (err as Error).message });
      }
    });
    await page.addInitScript(FAKE_VSCODE_API);
    // The page is the bundle itself; the HTTP server only delivers the file, the API is never used.
    await page.goto(world.dashboardUrl);
    await page.locator('.server[data-state="ready"]').first().waitFor();
    return page;
  }

  it('answers requests by id over postMessage and applies pushed state events', async () => {
    const page = await openWebview();
    assert.ok(requests.includes('listServers') && requests.includes('stats'), requests.join(','));
    await page.fill('#search input[type="search"]', 'store observations in memory');
    await page.locator('.hit-name', { hasText: 'add_observations' }).waitFor();
    assert.equal(
      await page.evaluate(
        () => (JSON.parse(sessionStorage.getItem('vscodeState') ?? '{}') as { query?: string }).query,
      ),
      'store observations in memory',
    );

    const state = {
      servers: world.lens
        .servers()
        .map((s) => (s.name === 'hostile' ? { ...s, state: 'error' as const, error: 'pushed by the host' } : s)),
      index: world.lens.indexStatus(),
      stats: world.stats(),
    };
    await page.evaluate((msg) => window.postMessage(msg, '*'), {
      kind: 'event',
      event: 'state',
      data: state,
    } as unknown as Record<string, unknown>);
    await page
      .locator('.server[data-server="hostile"][data-state="error"]', { hasText: 'pushed by the host' })
      .waitFor();

    await page.reload();
    await page.locator('.hit-name', { hasText: 'add_observations' }).waitFor();
    assert.equal(
      await page.inputValue('#search input[type="search"]'),
      'store observations in memory',
      'query restored from getState',
    );
    await page.close();
  });

  it('follows the workbench theme classes and variables, with no browser theme toggle', async () => {
    const page = await openWebview();
    assert.equal(await page.locator('#theme-toggle').count(), 0);
    await page.evaluate(() => {
      document.documentElement.style.setProperty('--vscode-editor-background', 'rgb(1, 2, 3)');
      document.body.className = 'vscode-dark';
    });
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    assert.equal(await page.evaluate(() => getComputedStyle(document.body).backgroundColor), 'rgb(1, 2, 3)');
    await page.evaluate(() => {
      document.body.className = 'vscode-light';
    });
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
    await page.close();
  });
});
