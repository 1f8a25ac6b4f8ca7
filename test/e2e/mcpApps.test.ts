// End-to-end, MCP Apps (#34 item 1): the packed VSIX in code-server (VS Code 1.139 renders MCP
// Apps in its chat) with server-basic-vanillajs behind MCP Lens (exposure `all`), and VS Code's
// own start of workspace servers turned off, so the only way to the server is through MCP Lens.
// A test-only chat participant (test/e2e/appsChat, packaged here with vsce) calls MCP Lens's
// get-time in a chat as an agent would; the test checks that the call ran through MCP Lens, that
// the app's view renders in the chat with the tool's result, and that the view's own call (its
// "Get Server Time" button: `tools/call get-time`, the server's own name) comes back through MCP
// Lens. Screenshot: test-results/mcp-app-in-chat.png. Needs what extension.test.ts needs
// (install-code-server.sh, `npm run package:e2e`, /usr/bin/chromium); run alone with
// `node test/run.mjs test/e2e/mcpApps.test.ts`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { ROOT, assertInstalled, QUIET_EDITOR, installExtension, openWorkbench, startCodeServer } from './codeServer';
import { vsixPath } from './sidecarLog';
import { writeMcpJson } from './fixtureWorkspace';
import { runCommand } from './workbench';

const RESULTS = join(ROOT, 'test-results');
const PROMPT = '@apps get-time';
/** What server-basic-vanillajs's view shows once it holds a get-time result. */
const SERVER_TIME = /Server Time:\s*(\d{4}-\d\d-\d\dT[\d:.]+Z)/;

/** The test-only chat extension as a VSIX, packaged from a copy (vsce writes nothing into the tree). */
function packageAppsChat(base: string): string {
  const src = join(base, 'apps-chat');
  cpSync(join(ROOT, 'test', 'e2e', 'appsChat'), src, { recursive: true });
  const out = join(base, 'apps-chat.vsix');
  const vsce = join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');
  const args = [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '-o', out];
  const r = spawnSync(process.execPath, args, { cwd: src, encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0)
    throw new Error(`vsce package of test/e2e/appsChat failed (${r.status}): ${r.stdout}\n${r.stderr}`);
  return out;
}

function writeWorkspace(base: string): string {
  const ws = join(base, 'apps-workspace');
  mkdirSync(join(ws, '.vscode'), { recursive: true });
  const basic = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-basic-vanillajs', 'dist', 'index.js');
  writeMcpJson(ws, { basic: { type: 'stdio', command: process.execPath, args: [basic, '--stdio'] } });
  writeFileSync(
    join(ws, '.vscode', 'settings.json'),
    JSON.stringify({ 'mcpLens.embedding.enabled': false, 'mcpLens.exposure': 'all' }, null, 2),
  );
  return ws;
}

/** The frame (at any depth: the chat's webview holds the app's own frame) whose text matches `re`. */
async function frameMatching(page: Page, re: RegExp): Promise<{ frame: Frame; match: RegExpExecArray } | undefined> {
  for (const frame of page.frames()) {
    if (frame === page.mainFrame()) continue;
    const text = await frame.evaluate(() => document.body?.innerText ?? '').catch(() => '');
    const match = re.exec(text);
    if (match) return { frame, match };
  }
  return undefined;
}

/**
 * Types the prompt and sends it once the input shows `@apps` as a participant (decorated): typed
 * before the test extension registered it, it would go to the default agent, which asks to sign in.
 */
async function sendPrompt(page: Page): Promise<void> {
  const editor = page.locator('.interactive-input-part .monaco-editor').first();
  const participant = editor.locator('.view-line span[class*="ced-chat-"]').filter({ hasText: /^@apps$/ });
  for (let attempt = 1; ; attempt++) {
    await editor.click({ timeout: 60_000 });
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Backspace');
    await page.keyboard.type(PROMPT);
    await editor.filter({ hasText: PROMPT }).waitFor({ timeout: 30_000 });
    if (
      await participant.waitFor({ timeout: 5_000 }).then(
        () => true,
        () => false,
      )
    )
      break;
    if (attempt === 24)
      throw new Error(`the chat input never showed @apps as a participant: ${await editor.innerText()}`);
  }
  await page.keyboard.press('Enter');
}

async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(RESULTS, { recursive: true });
  await page.screenshot({ path: join(RESULTS, `${name}.png`) });
}

/** The chat's text (requests, tool invocations, answers). */
async function chatText(page: Page): Promise<string> {
  return page
    .locator('.interactive-session')
    .first()
    .innerText()
    .catch(() => '');
}

/**
 * Sends the prompt and answers what a person would (VS Code's dialogs, the chat's "Allow" for the
 * tool) until the app's view shows a result. The chat resolves the test's model only once asked:
 * a request sent before is answered "Language model unavailable", or goes to VS Code's chat setup,
 * which asks to sign in to Copilot (dismissed); either way it is sent again.
 */
async function untilAppRenders(page: Page, timeoutMs: number): Promise<{ frame: Frame; match: RegExpExecArray }> {
  const deadline = Date.now() + timeoutMs;
  const signIn = page.locator('.monaco-dialog-box').filter({ hasText: 'Sign in' });
  let sent = 0;
  let signIns = 0;
  for (;;) {
    const found = await frameMatching(page, SERVER_TIME);
    if (found) return found;
    if (await signIn.isVisible().catch(() => false)) {
      await page.keyboard.press('Escape');
      await signIn.waitFor({ state: 'hidden', timeout: 30_000 });
      signIns++;
    }
    const chat = await chatText(page);
    // VS Code could not load the view (as without MCP Lens's pass-through: "Unknown resource").
    if (/Error\sloading\sMCP\sApp/.test(chat)) {
      await shot(page, 'mcp-app-in-chat-failed');
      throw new Error(`VS Code could not load the MCP App; the chat shows:\n${chat}`);
    }
    const unavailable = chat.split('Language model unavailable').length - 1;
    if (sent === 0 || unavailable + signIns >= sent) {
      await sendPrompt(page);
      sent++;
    }
    for (const button of [
      page.locator('.monaco-dialog-box .monaco-button').filter({ hasText: /^(Yes|Allow|Continue)$/ }),
      page.locator('.interactive-session .monaco-button').filter({ hasText: /^Allow/ }),
    ]) {
      if (
        await button
          .first()
          .isVisible()
          .catch(() => false)
      )
        await button.first().click();
    }
    if (Date.now() > deadline) {
      await shot(page, 'mcp-app-in-chat-failed');
      throw new Error(`no MCP App view in the chat; the chat shows:\n${await chatText(page)}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

test('an MCP App renders in VS Code chat through MCP Lens', { timeout: 10 * 60_000 }, async () => {
  assertInstalled();
  const vsix = vsixPath();
  const base = mkdtempSync(join(tmpdir(), 'mcp-lens-e2e-apps-'));
  const ws = writeWorkspace(base);
  const userDataDir = join(base, 'user-data');
  const extensionsDir = join(base, 'extensions');
  mkdirSync(extensionsDir, { recursive: true });
  assert.match(installExtension(packageAppsChat(base), { userDataDir, extensionsDir }), /successfully installed/i);
  const cs = await startCodeServer({
    base,
    // VS Code starts no workspace server itself: basic is reached through MCP Lens or not at all.
    userSettings: { ...QUIET_EDITOR, 'chat.mcp.autostart': 'never' },
    env: { MCP_LENS_E2E_OUT: join(base, 'e2e-out.json'), MCP_LENS_E2E_AUTO_APPROVE: 'basic' },
    vsix,
  });
  let browser: Browser | undefined;
  try {
    const opened = await openWorkbench(cs, `?folder=${encodeURIComponent(ws)}`);
    browser = opened.browser;
    const page = opened.page;
    // No toasts over the chat's input (MCP Lens says which servers it serves).
    await runCommand(page, 'Notifications: Toggle Do Not Disturb Mode');
    await runCommand(page, 'Chat: Open Chat');

    const first = await untilAppRenders(page, 5 * 60_000);
    const chat = await chatText(page);
    assert.match(chat, /called mcp_\S*lens\S*get-time/i, chat);
    // The tool VS Code ran is MCP Lens's: basic is started by no one else.
    const ran = chat.slice(chat.indexOf('Ran Get Time'));
    assert.match(ran, /^Ran Get Time[^]{0,80}?MCP\sLens\s\(MCP\sServer\)/, JSON.stringify(ran.slice(0, 120)));
    await shot(page, 'mcp-app-in-chat');

    // The view's own call, by the server's own tool name, through MCP Lens: a later time.
    await first.frame.getByRole('button', { name: 'Get Server Time' }).click();
    await first.frame.waitForFunction(
      ({ source, before }) => {
        const m = new RegExp(source).exec(document.body?.innerText ?? '');
        return m !== null && m[1] !== before;
      },
      { source: SERVER_TIME.source, before: first.match[1] },
      { timeout: 60_000 },
    );
  } finally {
    await browser?.close().catch(() => undefined);
    await cs.stop();
    rmSync(base, { recursive: true, force: true });
  }
});
