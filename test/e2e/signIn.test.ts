// End-to-end, sign-in (#24): the packed VSIX in code-server, a workspace whose mcpLens.servers
// names a remote MCP server protected by a real OpenID provider (oidc-provider, on 127.0.0.1:
// test/server/oidcWorld.ts). The server shows "needs sign-in" in the status bar; clicking it
// opens the provider's page in the browser through vscode.env.openExternal (a new tab of the
// headless Chromium, answered here as a person would: login, consent); the redirect comes back
// to the sidecar's loopback listener through vscode.env.asExternalUri; the server turns ready
// and an agent finds and calls its tool (vscode.lm.invokeTool on find_tools and call_tool).
// Needs what extension.test.ts needs (install-code-server.sh, `npm run package`,
// /usr/bin/chromium); run alone with `node --import tsx --test test/e2e/signIn.test.ts`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { assertInstalled, QUIET_EDITOR, openWorkbench, startCodeServer } from './codeServer';
import { answerDialogsUntil } from './dialogs';
import { findSidecarLog, until, vsixPath } from './sidecarLog';
import { startOidcWorld, type OidcWorld } from '../server/oidcWorld';

const INVOKE_KEY = 'ctrl+alt+shift+e';

test(
  'a remote server that needs an account: needs sign-in, signed in from VS Code, its tools found and called',
  { timeout: 10 * 60_000 },
  async (t) => {
    assertInstalled();
    const vsix = vsixPath();
    // The provider at 127.0.0.2, as a remote one would be, out of reach of code-server's localhost port proxy.
    const world: OidcWorld = await startOidcWorld({ providerHost: '127.0.0.2' });
    const base = mkdtempSync(join(tmpdir(), 'mcp-lens-e2e-signin-'));
    const ws = join(base, 'signin-workspace');
    mkdirSync(join(ws, '.vscode'), { recursive: true });
    // Only MCP Lens starts it (mcpLens.servers); the empty .mcp.json is what activates the extension.
    writeFileSync(
      join(ws, '.vscode', 'settings.json'),
      JSON.stringify(
        { 'mcpLens.embedding.enabled': false, 'mcpLens.servers': { protected: { type: 'http', url: world.mcpUrl } } },
        null,
        2,
      ),
    );
    writeFileSync(join(ws, '.mcp.json'), JSON.stringify({ mcpServers: {} }));
    const out = join(base, 'invoke-tools.json');
    const cs = await startCodeServer({
      base,
      userSettings: QUIET_EDITOR,
      keybindings: [
        {
          key: INVOKE_KEY,
          command: 'mcpLens.e2e.invokeTools',
          args: { query: 'add two numbers', arguments: { a: 20, b: 22 } },
        },
      ],
      env: { MCP_LENS_E2E_OUT: out, MCP_LENS_E2E_AUTO_APPROVE: 'protected' },
      vsix,
    });
    let browser: Browser | undefined;
    try {
      const opened = await openWorkbench(cs, `?folder=${encodeURIComponent(ws)}`);
      browser = opened.browser;
      const page = opened.page;
      const log = await until('the MCP Lens log', 120_000, () => findSidecarLog(cs.userDataDir));

      await t.test('the server shows "needs sign-in" in the status bar; nothing opened by itself', async () => {
        await until('[protected] needs sign-in in the log', 120_000, () =>
          /\[protected\] needs sign-in/.test(readFileSync(log, 'utf8')) ? true : undefined,
        );
        await page
          .locator('.statusbar-item')
          .filter({ hasText: 'protected: needs sign-in' })
          .first()
          .waitFor({ timeout: 60_000 });
        assert.equal(world.events.filter((e) => e.kind === 'authorization').length, 0);
        assert.equal(page.context().pages().length, 1, 'no browser tab opened before the user asked');
      });

      await t.test(
        'clicking it opens the provider in the browser; after login and consent the server is ready',
        async () => {
          const tab = page.context().waitForEvent('page', { timeout: 60_000 });
          await page.locator('.statusbar-item').filter({ hasText: 'protected: needs sign-in' }).first().click();
          // VS Code may ask before opening an external address: open it, as a user would.
          const provider = await Promise.race([
            tab,
            (async () => {
              const open = page.locator('.monaco-dialog-box .monaco-button').filter({ hasText: /^Open$/ });
              await open.waitFor({ timeout: 60_000 });
              await open.click();
              return tab;
            })(),
          ]);
          await provider.waitForLoadState();
          assert.ok(provider.url().startsWith(world.issuer), `the provider's page opened: ${provider.url()}`);
          await provider.fill('input[name="login"]', 'alice');
          await provider.fill('input[name="password"]', 'any');
          await provider.locator('button[type="submit"]').first().click();
          await provider.locator('button[type="submit"]').first().waitFor({ timeout: 30_000 });
          await provider.locator('button[type="submit"]').first().click(); // consent
          await until('[protected] ready after sign-in', 120_000, () =>
            /\[protected\] ready: 2 tools/.test(readFileSync(log, 'utf8')) ? true : undefined,
          );
          await page
            .locator('.statusbar-item')
            .filter({ hasText: 'needs sign-in' })
            .first()
            .waitFor({ state: 'detached', timeout: 60_000 });
          // The sidecar's loopback address as VS Code maps it (asExternalUri): through code-server's
          // port proxy, as a browser on another machine would reach it.
          const redirect = world.events.find((e) => e.kind === 'authorization')!.params.redirect_uri ?? '';
          assert.match(redirect, new RegExp(`^${cs.url}/proxy/\\d+/callback$`), `redirect_uri: ${redirect}`);
          const text = readFileSync(log, 'utf8');
          for (const e of world.seen) if (e.token) assert.ok(!text.includes(e.token), 'no token in the log');
        },
      );

      await t.test("an agent finds the server's tool and calls it (vscode.lm.invokeTool)", async () => {
        await page.locator('.monaco-workbench').click({ position: { x: 700, y: 300 } });
        await page.keyboard.press('Control+Alt+Shift+E');
        const r = JSON.parse(
          await answerDialogsUntil(page, 'the invokeTools report', 180_000, () =>
            existsSync(out) ? readFileSync(out, 'utf8') : undefined,
          ),
        ) as {
          ok: boolean;
          steps: unknown[];
          findTools?: string;
          callTool?: string;
        };
        assert.ok(r.ok, JSON.stringify(r.steps, null, 2));
        assert.match(r.findTools ?? '', /protected_add_numbers|add_numbers/);
        assert.match(r.callTool ?? '', /42/);
      });
    } finally {
      await browser?.close().catch(() => undefined);
      await cs.stop();
      await world.close();
      rmSync(base, { recursive: true, force: true });
    }
  },
);
