// End-to-end: the packed VSIX installed into code-server (VS Code 1.139, stable MCP API), a
// generated workspace whose .vscode/mcp.json names server-everything and server-memory, driven
// by headless Chromium. Checks the commands in the palette, MCP Lens in "MCP: List Servers", the
// agent path (vscode.lm.invokeTool on MCP Lens's find_tools and call_tool, through the test-only
// command), the sidecar's log, and takes screenshots of the palette and the dashboard into
// test-results/ (the README's pictures are `npm run screenshots`'s, made from examples/demo).
// Needs: scripts/install-code-server.sh, `npm run package`, /usr/bin/chromium.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { ROOT, assertInstalled, QUIET_EDITOR, openWorkbench, startCodeServer } from './codeServer';
import { answerDialogsUntil as answerDialogs } from './dialogs';
import { findSidecarLog, until, vsixPath } from './sidecarLog';
import { fixtureServer, fixtureServers, writeFixtureWorkspace, writeMcpJson } from './fixtureWorkspace';
import {
  paletteRows,
  runCommand,
  waitForPickRow,
  closeQuickInput,
  fillQuickPick,
  SEARCH_TOOLS_PLACEHOLDER,
} from './workbench';

const RESULTS = join(ROOT, 'test-results');
const INVOKE_KEY = 'ctrl+alt+shift+e';
const ELICIT_KEY = 'ctrl+alt+shift+l';

const confirmedDialogs: string[] = [];

/** Confirms VS Code's dialogs until `probe` returns a value, recording their text (the first one's picture too). */
function answerDialogsUntil<T>(
  page: Page,
  what: string,
  timeoutMs: number,
  probe: () => T | undefined | Promise<T | undefined>,
): Promise<T> {
  return answerDialogs(page, what, timeoutMs, probe, async (text) => {
    if (confirmedDialogs.length === 0) await shot(page, 'vscode-tool-confirmation');
    confirmedDialogs.push(text);
  });
}

/** Waits until some frame (the webview's inner document) shows text matching `re`. */
async function frameText(page: Page, re: RegExp, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const f of page.frames()) {
      if (f === page.mainFrame()) continue;
      const text = await f.evaluate(() => document.body?.innerText ?? '').catch(() => '');
      if (re.test(text)) return text;
    }
    if (Date.now() > deadline) throw new Error(`no webview frame shows ${re}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The tool count the status bar shows (0 while it shows none). */
async function statusBarTools(page: Page): Promise<number> {
  return page.evaluate(() =>
    Math.max(
      0,
      ...Array.from(document.querySelectorAll('.statusbar-item')).map((e) =>
        Number(/(\d+) tools/.exec(e.textContent ?? '')?.[1] ?? 0),
      ),
    ),
  );
}

/** Waits until the status bar's tool count is at least `min`. */
async function untilStatusBarTools(page: Page, min: number, timeoutMs = 60_000): Promise<void> {
  await page.waitForFunction(
    (n) =>
      Array.from(document.querySelectorAll('.statusbar-item')).some(
        (e) => Number(/(\d+) tools/.exec(e.textContent ?? '')?.[1] ?? 0) >= n,
      ),
    min,
    { timeout: timeoutMs },
  );
}

/** The webview frame whose page shows text matching `re`. */
async function webviewFrame(page: Page, re: RegExp, timeoutMs: number): Promise<Frame> {
  await frameText(page, re, timeoutMs);
  for (const f of page.frames()) {
    if (f === page.mainFrame()) continue;
    if (re.test(await f.evaluate(() => document.body?.innerText ?? '').catch(() => ''))) return f;
  }
  throw new Error(`no webview frame shows ${re}`);
}

/** Clicks a button of the modal dialog that shows `text`. */
async function answerDialog(page: Page, text: RegExp, button: RegExp): Promise<string> {
  const dialog = page.locator('.monaco-dialog-box').filter({ hasText: text });
  await dialog.waitFor({ timeout: 60_000 });
  const shown = await dialog.innerText();
  await dialog.locator('.monaco-button').filter({ hasText: button }).first().click();
  await dialog.waitFor({ state: 'detached', timeout: 30_000 });
  return shown;
}

async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(RESULTS, { recursive: true });
  await page.screenshot({ path: join(RESULTS, `${name}.png`) });
}

test('MCP Lens in code-server: palette, MCP server, agent tools, dashboard', { timeout: 10 * 60_000 }, async (t) => {
  assertInstalled();
  const vsix = vsixPath();
  const base = mkdtempSync(join(tmpdir(), 'mcp-lens-e2e-'));
  const workspace = writeFixtureWorkspace(base);
  const out = join(base, 'invoke-tools.json');
  const cs = await startCodeServer({
    base,
    userSettings: QUIET_EDITOR,
    keybindings: [
      { key: INVOKE_KEY, command: 'mcpLens.e2e.invokeTools' },
      {
        key: ELICIT_KEY,
        command: 'mcpLens.e2e.invokeTools',
        args: { query: 'ask the user for their name and greet them', args: {} },
      },
    ],
    // Test-only: MCP_LENS_E2E_OUT registers mcpLens.e2e.invokeTools; with it, AUTO_APPROVE
    // approves these servers without the modal prompt (any other gets the real one).
    env: { MCP_LENS_E2E_OUT: out, MCP_LENS_E2E_AUTO_APPROVE: 'everything,memory,asker,hang,added' },
    vsix,
  });
  let browser: Browser | undefined;
  try {
    const opened = await openWorkbench(cs, `?folder=${encodeURIComponent(workspace)}`);
    browser = opened.browser;
    const page = opened.page;

    await t.test('the sidecar starts and the status bar counts the tools', async () => {
      // The count grows as upstream servers come up; wait for both servers' tools.
      await page.waitForFunction(
        () =>
          Array.from(document.querySelectorAll('.statusbar-item')).some(
            (e) => Number(/(\d+) tools/.exec(e.textContent ?? '')?.[1] ?? 0) >= 15,
          ),
        undefined,
        { timeout: 120_000 },
      );
      const text = await page
        .locator('.statusbar-item')
        .filter({ hasText: /\d+ tools/ })
        .first()
        .innerText();
      const tools = Number(/(\d+) tools/.exec(text)?.[1]);
      assert.ok(tools >= 15, `status bar counts everything's and memory's tools: "${text}"`);
      const log = await until('the MCP Lens log', 30_000, () => findSidecarLog(cs.userDataDir));
      // everything's 17 tools alone pass the count above: memory may come up a moment later.
      const lines = await until('memory ready in the MCP Lens log', 120_000, () => {
        const text = readFileSync(log, 'utf8');
        return /\[memory\] ready/.test(text) ? text : undefined;
      });
      assert.match(lines, /gateway listening on http:\/\/127\.0\.0\.1:\d+\/mcp/);
      assert.match(lines, /\[everything\] ready/);
      const gw = readFileSync(log, 'utf8');
      assert.doesNotMatch(gw, /Bearer [A-Za-z0-9_-]{20,}/, 'the token is never logged');
    });

    await t.test('the palette lists the MCP Lens commands', async () => {
      const rows = await paletteRows(page, 'MCP Lens', 'MCP Lens: Search Tools');
      for (const title of [
        'Search Tools',
        'Show Dashboard',
        'Reindex Tools',
        'Restart Sidecar',
        'Show Logs',
        'Pull Embedding Model',
      ]) {
        assert.ok(
          rows.some((r) => r.includes(`MCP Lens: ${title}`)),
          `palette shows MCP Lens: ${title} (rows: ${rows.join(' | ')})`,
        );
      }
      await shot(page, 'vscode-palette');
      await closeQuickInput(page);
    });

    await t.test('Search Tools finds a tool as the user types', async () => {
      await runCommand(page, 'MCP Lens: Search Tools');
      await fillQuickPick(page, SEARCH_TOOLS_PLACEHOLDER, 'echo back a message');
      const rows = await waitForPickRow(page, 'echo');
      assert.match(rows[0] ?? '', /echo/, `top hit is the echo tool: ${rows.join(' | ')}`);
      assert.ok(
        rows.some((r) => r.includes('everything')),
        'hits name their server',
      );
      await shot(page, 'vscode-search-tools');
      await closeQuickInput(page);
    });

    await t.test('"MCP: List Servers" lists MCP Lens', async () => {
      await runCommand(page, 'MCP: List Servers');
      const rows = await waitForPickRow(page, 'MCP Lens');
      assert.ok(
        rows.some((r) => r.includes('MCP Lens')),
        rows.join(' | '),
      );
      await closeQuickInput(page);
    });

    await t.test('an agent finds and calls a tool through MCP Lens (vscode.lm.invokeTool)', async (t) => {
      await page.locator('.monaco-workbench').click({ position: { x: 700, y: 300 } });
      await page.keyboard.press('Control+Alt+Shift+E');
      // VS Code asks the user before running a tool that is not read-only (call_tool): approve it
      // in the dialog as a user would, then wait for the report.
      const report = await answerDialogsUntil(page, 'the invokeTools report', 180_000, () =>
        existsSync(out) ? readFileSync(out, 'utf8') : undefined,
      );
      const r = JSON.parse(report) as {
        ok: boolean;
        steps: { step: string; ok: boolean; detail: string }[];
        findTools?: string;
        findToolsMs?: number;
        callTool?: string;
        lmTools: string[];
        servers: { name: string; state: string }[];
      };
      assert.ok(r.ok, `every step passed: ${JSON.stringify(r.steps, null, 2)}`);
      assert.match(r.findTools ?? '', /echo/, 'find_tools found the echo tool');
      // A server that never answers initialize does not hold find_tools: it answered while
      // `hang` was still starting (connect timeout 600 s in this workspace).
      assert.equal(r.servers.find((x) => x.name === 'hang')?.state, 'starting', JSON.stringify(r.servers));
      t.diagnostic(`find_tools through VS Code answered in ${r.findToolsMs} ms with "hang" still starting`);
      // Through VS Code's tool invocation on a loaded machine: seconds at worst, but a wait for
      // `hang` (which never answers) would run into the bound.
      assert.ok(
        r.findToolsMs !== undefined && r.findToolsMs < 4000,
        `find_tools took ${r.findToolsMs} ms with a hanging server`,
      );
      assert.match(r.callTool ?? '', /hello from e2e/, 'call_tool reached server-everything and came back');
      assert.ok(
        confirmedDialogs.some((d) => /find_tools/.test(d)),
        `VS Code asked before running call_tool: ${confirmedDialogs.join(' | ')}`,
      );
    });

    await t.test('an elicitation from a server behind MCP Lens is answered in VS Code', async () => {
      rmSync(out, { force: true });
      await page.locator('.monaco-workbench').click({ position: { x: 700, y: 300 } });
      await page.keyboard.press('Control+Alt+Shift+L');
      // The asker server's ask_name, called through MCP Lens's call_tool, asks the user: VS Code
      // shows the question as a notification from the MCP Lens server, and "Respond" opens the form.
      const toast = page.locator('.notification-toast').filter({ hasText: 'what is your name?' });
      await answerDialogsUntil(page, 'the elicitation notification', 120_000, async () =>
        (await toast.isVisible().catch(() => false)) ? true : undefined,
      );
      // VS Code names MCP Lens as the server ("MCP Server (MCP Lens)"): the message names the upstream.
      assert.match(await toast.innerText(), /\[asker\] The e2e fixture asks: what is your name\?/);
      mkdirSync(RESULTS, { recursive: true });
      await page.screenshot({ path: join(RESULTS, 'vscode-elicitation-through-mcp-lens.png') });
      await toast
        .locator('.monaco-button')
        .filter({ hasText: /^Respond$/ })
        .click();
      const input = page.locator('.quick-input-widget input.input');
      await input.waitFor({ state: 'visible', timeout: 30_000 });
      await input.fill('Ada');
      await page.keyboard.press('Enter');
      const report = JSON.parse(
        await answerDialogsUntil(page, 'the invokeTools report', 120_000, () =>
          existsSync(out) ? readFileSync(out, 'utf8') : undefined,
        ),
      ) as {
        ok: boolean;
        steps: unknown[];
        findTools?: string;
        callTool?: string;
      };
      assert.ok(report.ok, JSON.stringify(report.steps, null, 2));
      assert.match(report.findTools ?? '', /asker_ask_name/);
      assert.match(
        report.callTool ?? '',
        /hello Ada/,
        'the answer typed in VS Code reached the upstream and its result came back',
      );
    });

    await t.test('a server added to .vscode/mcp.json is searchable without a reload', async () => {
      await closeQuickInput(page);
      const before = await statusBarTools(page);
      writeMcpJson(workspace, {
        ...fixtureServers(workspace),
        added: fixtureServer('gated.mjs', ['--prefix', 'added']),
      });
      await untilStatusBarTools(page, before + 1);
      await runCommand(page, 'MCP Lens: Search Tools');
      await fillQuickPick(page, SEARCH_TOOLS_PLACEHOLDER, 'pong from added');
      const rows = await waitForPickRow(page, 'added_ping');
      assert.match(rows[0] ?? '', /added_ping/, rows.join(' | '));
      await shot(page, 'vscode-added-server-found');
      await closeQuickInput(page);
    });

    await t.test('a JSON syntax error is a diagnostic, and the servers keep running', async () => {
      const mcpJson = join(workspace, '.vscode', 'mcp.json');
      const good = readFileSync(mcpJson, 'utf8');
      const tools = await statusBarTools(page);
      await page.keyboard.press('Control+P');
      await page.waitForSelector('.quick-input-widget input', { state: 'visible' });
      await page.keyboard.type('.vscode/mcp.json');
      await waitForPickRow(page, 'mcp.json');
      await page.keyboard.press('Enter');
      await page.locator('.monaco-editor .view-lines').first().waitFor();
      writeFileSync(mcpJson, good.replace('"servers": {', '"servers": {{'));
      await page.locator('.monaco-editor .squiggly-error').first().waitFor({ timeout: 60_000 });
      await runCommand(page, 'View: Focus Problems');
      // What is wrong on the problem's own row, whole; what MCP Lens does meanwhile on the row under it.
      const problem = page
        .locator('.markers-panel .monaco-list-row')
        .filter({ hasText: /not valid JSON: expected a property name in double quotes/ })
        .first();
      await problem.waitFor({ timeout: 60_000 });
      assert.match(await problem.innerText(), /MCP Lens/);
      await page
        .locator('.markers-panel .monaco-list-row')
        .filter({ hasText: /MCP Lens keeps running the servers of its last valid version/ })
        .first()
        .waitFor({ timeout: 60_000 });
      assert.equal(await statusBarTools(page), tools, 'the last good servers keep running');
      await shot(page, 'vscode-config-syntax-error');
      writeFileSync(mcpJson, good);
      await problem.waitFor({ state: 'detached', timeout: 60_000 });
      await runCommand(page, 'View: Close All Editors');
      await runCommand(page, 'View: Hide Panel');
    });

    await t.test('a refused server can be approved later (List Servers, the dashboard)', async () => {
      await closeQuickInput(page);
      const before = await statusBarTools(page);
      writeMcpJson(workspace, {
        ...fixtureServers(workspace),
        added: fixtureServer('gated.mjs', ['--prefix', 'added']),
        later: fixtureServer('gated.mjs', ['--prefix', 'later']),
      });
      const asked = await answerDialog(page, /MCP Lens wants to start/, /^Don't Allow$/);
      assert.match(asked, /later/);
      await page
        .locator('.statusbar-item')
        .filter({ hasText: /1 server awaiting approval/ })
        .first()
        .waitFor({ timeout: 30_000 });
      await shot(page, 'vscode-approval-waiting');

      await runCommand(page, 'MCP Lens: List Servers');
      const rows = await waitForPickRow(page, 'awaiting approval');
      assert.match(rows[0] ?? '', /later/, rows.join(' | '));
      await shot(page, 'vscode-list-servers');
      await closeQuickInput(page);

      await runCommand(page, 'MCP Lens: Show Dashboard');
      const frame = await webviewFrame(page, /awaiting approval/, 60_000);
      const approve = frame.locator('button[data-action="approve"][data-server="later"]');
      await approve.scrollIntoViewIfNeeded();
      await shot(page, 'vscode-dashboard-approve');
      await approve.click();
      await answerDialog(page, /MCP Lens wants to start 1 MCP server/, /^Allow$/);
      await untilStatusBarTools(page, before + 1);
      await page
        .locator('.statusbar-item')
        .filter({ hasText: /awaiting approval/ })
        .first()
        .waitFor({ state: 'hidden', timeout: 30_000 });
    });

    await t.test('the dashboard opens and shows the servers', async () => {
      await closeQuickInput(page);
      await page.keyboard.press('Escape');
      await runCommand(page, 'MCP Lens: Show Dashboard');
      const text = await frameText(page, /everything/, 60_000);
      assert.match(text, /memory/);
      await shot(page, 'vscode-dashboard');
    });
    await t.test('a crashed sidecar is restarted and says so', async () => {
      const logFile = findSidecarLog(cs.userDataDir)!;
      const pids = [...readFileSync(logFile, 'utf8').matchAll(/sidecar started \(pid (\d+)/g)].map((m) => Number(m[1]));
      const pid = pids.at(-1);
      assert.ok(pid, 'the log names the sidecar pid');
      process.kill(pid, 'SIGKILL');
      const restarted = await until('a new sidecar', 60_000, () => {
        const text = readFileSync(logFile, 'utf8');
        const again = [...text.matchAll(/sidecar started \(pid (\d+)/g)].map((m) => Number(m[1]));
        return again.length > pids.length && /restarting \(1\/5/.test(text) ? text : undefined;
      });
      assert.match(restarted, /stopped unexpectedly/);
      await page.waitForFunction(
        () =>
          Array.from(document.querySelectorAll('.statusbar-item')).some(
            (e) => Number(/(\d+) tools/.exec(e.textContent ?? '')?.[1] ?? 0) >= 15,
          ),
        undefined,
        { timeout: 60_000 },
      );
      await page
        .locator('.notifications-toasts')
        .filter({ hasText: /stopped unexpectedly/ })
        .first()
        .waitFor({ timeout: 30_000 });
    });

    await t.test('"Move into MCP Lens" moves the duplicated servers into mcpLens.servers', async () => {
      await closeQuickInput(page);
      await runCommand(page, 'MCP Lens: Move Duplicate Servers into MCP Lens');
      const dialog = page.locator('.monaco-dialog-box');
      await dialog.waitFor({ timeout: 30_000 });
      assert.match(await dialog.innerText(), /everything/);
      await dialog
        .locator('.monaco-button')
        .filter({ hasText: /^Move$/ })
        .click();
      // The notification comes once both files are written (settings, then mcp.json; neither
      // write is atomic, so the files are read only after it).
      await page
        .locator('.notifications-toasts')
        .filter({ hasText: /moved .* into mcpLens\.servers/ })
        .first()
        .waitFor({ timeout: 30_000 });
      const settings = readFileSync(join(workspace, '.vscode', 'settings.json'), 'utf8');
      assert.match(settings, /mcpLens\.servers/);
      assert.match(settings, /server-everything/);
      const mcpJson = readFileSync(join(workspace, '.vscode', 'mcp.json'), 'utf8');
      assert.match(mcpJson, /generated by test\/e2e/, 'the comment survives');
      assert.doesNotMatch(mcpJson, /server-everything|server-memory/);
      assert.ok(
        readdirSync(join(workspace, '.vscode')).some((f) => f.startsWith('mcp.json.bak-')),
        'a backup was written',
      );
      // The sidecar picks the settings up and serves the same tools from the new source.
      await page.waitForFunction(
        () =>
          Array.from(document.querySelectorAll('.statusbar-item')).some(
            (e) => Number(/(\d+) tools/.exec(e.textContent ?? '')?.[1] ?? 0) >= 15,
          ),
        undefined,
        { timeout: 60_000 },
      );
    });
  } finally {
    await browser?.close().catch(() => undefined);
    await cs.stop();
    rmSync(base, { recursive: true, force: true });
  }
});
