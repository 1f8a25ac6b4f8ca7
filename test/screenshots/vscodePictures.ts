/**
 * The editor's pictures: the e2e VSIX (`npm run package:e2e`: the shipped extension plus the
 * agent hook, mcpLens.e2e.invokeTools, which invokes find_tools and call_tool through
 * vscode.lm.invokeTool as a chat agent would) in code-server on the demo workspace, driven by
 * headless Chromium as a person would. Each picture in VS Code's light theme, then its dark one.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { applyEdits, modify } from 'jsonc-parser';
import type { Frame, Page } from 'playwright-core';
import { assertInstalled, openWorkbench, QUIET_EDITOR, startCodeServer } from '../e2e/codeServer';
import { answerDialogsUntil } from '../e2e/dialogs';
import { vsixPath } from '../e2e/sidecarLog';
import { closeQuickInput, fillQuickPick, runCommand, SEARCH_TOOLS_PLACEHOLDER, waitForPickRow } from '../e2e/workbench';
import { ROOT, type DemoWorkspace } from './demoWorkspace';
import type { Pictures, Scheme } from './pictures';

/** The README's consent prompt: issue 34 adds it; no picture until it exists. */
export const CONSENT_PICTURE = {
  name: 'vscode-consent',
  why: "TODO(issue 34): call_tool's per-call consent prompt (which upstream tool, with which arguments) does not exist yet; add its scenario here when it does: an agent's call_tool of a tool that is not read-only, the prompt shown, light and dark.",
};

const THEMES: Record<Scheme, string> = { light: 'Default Light Modern', dark: 'Default Dark Modern' };
/** The agent hook's key bindings, as VS Code reads them and as Playwright presses them. */
const ADD_KEY = { binding: 'ctrl+alt+shift+e', press: 'Control+Alt+Shift+E' };
const ASK_KEY = { binding: 'ctrl+alt+shift+l', press: 'Control+Alt+Shift+L' };
const THEME_KEY = { binding: 'ctrl+alt+shift+t', press: 'Control+Alt+Shift+T' };

export const VSCODE_SCENARIO =
  'code-server (VS Code 1.139) on the demo workspace with the MCP Lens VSIX; "everything", "filesystem" and "issues" approved; "memory" added to .vscode/mcp.json once they ran (the file then the demo\'s, as committed) and refused at the prompt ("Don\'t Allow"); an agent (vscode.lm.invokeTool) used find_tools and call_tool to add 19 and 23.';

/** The server the scenario has a person refuse: VS Code asks about every server of a change at once, so it comes alone. */
const REFUSED = 'memory';

interface Editor {
  page: Page;
  /** The workspace's .vscode/mcp.json, and the demo's text of it. */
  mcpJson: string;
  demoConfig: string;
  report: string;
}

export async function vscodePictures(demo: DemoWorkspace, pictures: Pictures): Promise<void> {
  assertInstalled();
  demo.writeSettings();
  const mcpJson = join(demo.dir, '.vscode', 'mcp.json');
  const demoConfig = readFileSync(mcpJson, 'utf8');
  writeFileSync(mcpJson, applyEdits(demoConfig, modify(demoConfig, ['servers', REFUSED], undefined, {})));
  const base = mkdtempSync(join(tmpdir(), 'mcp-lens-demo-vscode-'));
  const report = join(base, 'invoke-tools.json');
  const settings = {
    ...QUIET_EDITOR,
    'workbench.colorTheme': THEMES.light,
    'workbench.preferredLightColorTheme': THEMES.light,
    'workbench.preferredDarkColorTheme': THEMES.dark,
    // code-server counts the ports the servers open in the status bar: noise that changes between two pictures.
    'remote.autoForwardPorts': false,
    'workbench.secondarySideBar.defaultVisibility': 'hidden',
  };
  const cs = await startCodeServer({
    base,
    userSettings: settings,
    keybindings: [
      { key: THEME_KEY.binding, command: 'workbench.action.toggleLightDarkThemes' },
      {
        key: ADD_KEY.binding,
        command: 'mcpLens.e2e.invokeTools',
        args: { query: 'add two numbers', args: { a: 19, b: 23 } },
      },
      {
        key: ASK_KEY.binding,
        command: 'mcpLens.e2e.invokeTools',
        args: { query: 'ask the user for input with a form (elicitation)', args: {} },
      },
    ],
    env: { MCP_LENS_E2E_OUT: report, MCP_LENS_E2E_AUTO_APPROVE: 'everything,filesystem,issues' },
    vsix: vsixPath(),
  });
  const opened = await openWorkbench(cs, `?folder=${encodeURIComponent(demo.dir)}`).catch(async (err: unknown) => {
    await cs.stop();
    throw err;
  });
  const editor: Editor = {
    page: opened.page,
    mcpJson,
    demoConfig,
    report,
  };
  try {
    await scenario(editor, pictures).catch(async (err: unknown) => {
      // What the window showed when a step failed: the picture a person debugging this needs first.
      const file = join(ROOT, 'test-results', 'screenshots-failed.png');
      mkdirSync(dirname(file), { recursive: true });
      await editor.page.screenshot({ path: file }).catch(() => undefined);
      throw new Error(`${err instanceof Error ? err.message : String(err)}\n(the window then: ${file})`);
    });
  } finally {
    await opened.browser.close().catch(() => undefined);
    await cs.stop();
    rmSync(base, { recursive: true, force: true });
  }
}

/**
 * Switches VS Code's colour theme with its own command (Preferences: Toggle between Light/Dark
 * Themes, bound to a key: no focus moves, an open prompt or quick pick stays; code-server does not
 * pick up a user settings file rewritten under it) and waits until the workbench and every
 * webview wear it.
 */
async function wear(e: Editor, scheme: Scheme): Promise<void> {
  const dark = scheme === 'dark';
  const wearing = () =>
    e.page.evaluate(() => document.querySelector('.monaco-workbench')?.classList.contains('vs-dark') ?? false);
  if ((await wearing()) !== dark) await e.page.keyboard.press(THEME_KEY.press);
  await e.page.waitForFunction(
    (d) => document.querySelector('.monaco-workbench')?.classList.contains('vs-dark') === d,
    dark,
    { timeout: 60_000 },
  );
  // Webviews (their body wears vscode-light or vscode-dark) follow the workbench a moment later.
  for (const frame of e.page.frames()) {
    const themed = await frame
      .evaluate(() => /\bvscode-(light|dark)\b/.test(document.body?.className ?? ''))
      .catch(() => false);
    if (themed)
      await frame.waitForFunction((d) => document.body.classList.contains('vscode-dark') === d, dark, {
        timeout: 30_000,
      });
  }
}

/**
 * The whole window, in `scheme`. Its text is what a person reads there: the workbench's, without
 * its screen-reader announcements (an aria-live region that keeps what it last said, on its own
 * clock), and each webview's; not the extension host's worker frame (a script, no page).
 */
function wholeWindow(e: Editor) {
  return async (scheme: Scheme, file: string): Promise<string> => {
    await wear(e, scheme);
    await e.page.screenshot({ path: file });
    const workbench = await e.page.evaluate(() => {
      const announcements = [...document.querySelectorAll<HTMLElement>('.monaco-aria-container')];
      for (const a of announcements) a.style.display = 'none';
      const text = document.body.innerText;
      for (const a of announcements) a.style.display = '';
      return text;
    });
    const webviews = await Promise.all(
      e.page
        .frames()
        .map((f) =>
          f
            .evaluate(() =>
              /\bvscode-(light|dark)\b/.test(document.body?.className ?? '') ? document.body.innerText : '',
            )
            .catch(() => ''),
        ),
    );
    return [workbench, ...webviews].join('\n');
  };
}

/** Runs the agent hook bound to `key` and confirms VS Code's dialogs until its report is written. */
async function agentCall(e: Editor, key: typeof ADD_KEY): Promise<void> {
  rmSync(e.report, { force: true });
  await e.page.locator('.monaco-workbench').click({ position: { x: 700, y: 300 } });
  await e.page.keyboard.press(key.press);
  await answerDialogsUntil(e.page, 'the agent hook', 180_000, () =>
    existsSync(e.report) ? readFileSync(e.report, 'utf8') : undefined,
  );
}

async function scenario(e: Editor, pictures: Pictures): Promise<void> {
  const { page } = e;
  await page
    .locator('.statusbar-item')
    .filter({ hasText: /issues: needs sign-in/ })
    .first()
    .waitFor({ timeout: 120_000 });
  // The demo's config back, memory with it: refused at the prompt, as a person unsure of it would, it waits for approval.
  writeFileSync(e.mcpJson, e.demoConfig);
  const prompt = page.locator('.monaco-dialog-box').filter({ hasText: /MCP Lens wants to start/ });
  await prompt.waitFor({ timeout: 120_000 });
  await prompt
    .locator('.monaco-button')
    .filter({ hasText: /^Don't Allow$/ })
    .click();
  await page
    .locator('.statusbar-item')
    .filter({ hasText: /1 server awaiting approval/ })
    .first()
    .waitFor({ timeout: 60_000 });
  await agentCall(e, ADD_KEY);
  await runCommand(page, 'Notifications: Clear All Notifications');

  await elicitation(e, pictures);
  // A quick pick is opened in the scheme it is taken in, and closed after.
  await pictures.pair('vscode-search-tools', VSCODE_SCENARIO, async (scheme, file) => {
    await wear(e, scheme);
    await runCommand(page, 'MCP Lens: Search Tools');
    await fillQuickPick(page, SEARCH_TOOLS_PLACEHOLDER, 'add two numbers');
    await waitForPickRow(page, 'get-sum');
    const text = await wholeWindow(e)(scheme, file);
    await closeQuickInput(page);
    return text;
  });
  await pictures.pair('vscode-list-servers', VSCODE_SCENARIO, async (scheme, file) => {
    await wear(e, scheme);
    await runCommand(page, 'MCP Lens: List Servers');
    await waitForPickRow(page, 'awaiting approval');
    const text = await wholeWindow(e)(scheme, file);
    await closeQuickInput(page);
    return text;
  });

  await syntaxError(e, pictures);
  await dashboard(e, pictures);
}

async function elicitation(e: Editor, pictures: Pictures): Promise<void> {
  rmSync(e.report, { force: true });
  await e.page.locator('.monaco-workbench').click({ position: { x: 700, y: 300 } });
  await e.page.keyboard.press(ASK_KEY.press);
  // server-everything's form, asked through MCP Lens's call_tool: VS Code shows it as a notification.
  const toast = e.page.locator('.notification-toast').filter({ hasText: '[everything]' });
  await answerDialogsUntil(e.page, 'the elicitation', 120_000, async () =>
    (await toast.isVisible().catch(() => false)) ? true : undefined,
  );
  await pictures.pair(
    'vscode-elicitation',
    `${VSCODE_SCENARIO} Then the agent called server-everything's trigger-elicitation-request through call_tool: VS Code shows its question.`,
    wholeWindow(e),
  );
  // Respond opens the form; Escape declines it, and the agent's call_tool gets the answer.
  await toast
    .locator('.monaco-button')
    .filter({ hasText: /^Respond$/ })
    .click();
  await e.page.locator('.quick-input-widget input.input').waitFor({ state: 'visible', timeout: 30_000 });
  await e.page.keyboard.press('Escape');
  await answerDialogsUntil(e.page, 'the agent hook', 120_000, () => (existsSync(e.report) ? true : undefined));
}

async function syntaxError(e: Editor, pictures: Pictures): Promise<void> {
  const { page } = e;
  await page.keyboard.press('Control+P');
  await page.waitForSelector('.quick-input-widget input', { state: 'visible' });
  await page.keyboard.type('.vscode/mcp.json');
  await waitForPickRow(page, 'mcp.json');
  await page.keyboard.press('Enter');
  await page.locator('.monaco-editor .view-lines').first().waitFor();
  // A person's typo: a second brace where a server name belongs.
  const mcpJson = join(await workspaceDir(page), '.vscode', 'mcp.json');
  const good = readFileSync(mcpJson, 'utf8');
  writeFileSync(mcpJson, good.replace('"servers": {', '"servers": {{'));
  try {
    await runCommand(page, 'View: Focus Problems');
    await page
      .locator('.markers-panel .monaco-list-row')
      .filter({ hasText: /keeps running the servers of its last valid version/ })
      .first()
      .waitFor({ timeout: 60_000 });
    await pictures.pair(
      'vscode-config-syntax-error',
      `${VSCODE_SCENARIO} Then .vscode/mcp.json got a second "{" after "servers": MCP Lens keeps its servers running and says where the file is wrong.`,
      wholeWindow(e),
    );
  } finally {
    writeFileSync(mcpJson, good);
  }
  await page
    .locator('.markers-panel .monaco-list-row')
    .filter({ hasText: /keeps running the servers of its last valid version/ })
    .first()
    .waitFor({ state: 'detached', timeout: 60_000 });
  await runCommand(page, 'View: Close All Editors');
  await runCommand(page, 'View: Hide Panel');
}

/** The folder code-server opened (?folder=…), from the page's URL. */
async function workspaceDir(page: Page): Promise<string> {
  return new URL(page.url()).searchParams.get('folder')!;
}

async function dashboard(e: Editor, pictures: Pictures): Promise<void> {
  const { page } = e;
  await runCommand(page, 'MCP Lens: Show Dashboard');
  const frame = await webview(page, /Token savings/i);
  await frame.locator('#savings .kpi').first().waitFor();
  await frame.locator('.server[data-server="memory"] button[data-action="approve"]').waitFor();
  await frame.evaluate(() => window.scrollTo(0, 0));
  await pictures.pair('vscode-dashboard', VSCODE_SCENARIO, wholeWindow(e));
  const approve = frame.locator('.server[data-server="memory"] button[data-action="approve"]');
  await approve.scrollIntoViewIfNeeded();
  await pictures.pair(
    'vscode-dashboard-approve',
    `${VSCODE_SCENARIO} The dashboard shows "memory" awaiting approval, with what approving it starts.`,
    wholeWindow(e),
  );
  await approve.click();
  const dialog = page.locator('.monaco-dialog-box').filter({ hasText: /MCP Lens wants to start 1 MCP server/ });
  await dialog.waitFor({ timeout: 60_000 });
  await dialog
    .locator('.monaco-button')
    .filter({ hasText: /^Allow$/ })
    .click();
  await frame.locator('.server[data-server="memory"][data-state="ready"]').waitFor({ timeout: 120_000 });
}

/** The webview frame whose page shows `re`. */
async function webview(page: Page, re: RegExp): Promise<Frame> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    for (const f of page.frames()) {
      if (f === page.mainFrame()) continue;
      if (re.test(await f.evaluate(() => document.body?.innerText ?? '').catch(() => ''))) return f;
    }
    if (Date.now() > deadline) throw new Error(`no webview frame shows ${re}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
