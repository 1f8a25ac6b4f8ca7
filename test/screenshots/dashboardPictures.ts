/**
 * The dashboard's pictures, as a CLI user sees it: the real `mcp-lens serve --http` (dist/cli.js)
 * on the demo workspace, an agent (an MCP SDK client) searching and calling its tools through
 * the gateway, and a person trying a tool in the page, in headless Chromium.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Browser, Page } from 'playwright-core';
import { connectAgent } from '../fixtures/agentClient';
import { REMOTE, ROOT, type DemoWorkspace } from './demoWorkspace';
import type { Pictures, Scheme } from './pictures';

interface Served {
  origin: string;
  token: string;
  stop(): Promise<void>;
}

/** `mcp-lens serve --http --trust` on the workspace, its state, approvals and token its own. */
async function serve(demo: DemoWorkspace, settings: Record<string, unknown> = {}): Promise<Served> {
  const state = mkdtempSync(join(tmpdir(), 'mcp-lens-demo-state-'));
  demo.writeSettings(settings);
  const dir = demo.dir;
  const token = randomBytes(24).toString('hex');
  const child = spawn(process.execPath, [join(ROOT, 'dist/cli.js'), 'serve', '--http', '0', '--trust'], {
    cwd: dir,
    env: {
      ...process.env,
      MCP_LENS_TOKEN: token,
      MCP_LENS_LOG: 'warn',
      XDG_STATE_HOME: state,
      XDG_CACHE_HOME: state,
      MCP_LENS_APPROVALS_FILE: join(state, 'approvals.json'),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const origin = await listening(child);
  return {
    origin,
    token,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((ok) => child.once('exit', ok));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(state, { recursive: true, force: true });
    },
  };
}

function listening(child: ChildProcess): Promise<string> {
  return new Promise((ok, fail) => {
    let buffer = '';
    child.once('exit', (code) => fail(new Error(`serve --http exited with ${code}:\n${buffer}`)));
    child.stderr!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const at = /MCP Lens listening on (http:\/\/127\.0\.0\.1:\d+)\/mcp/.exec(buffer);
      if (at && /Dashboard: \S+/.test(buffer)) ok(at[1]!);
    });
  });
}

/** The first match of a find_tools answer, as an agent reads it. */
async function search(agent: Client, query: string): Promise<string[]> {
  const r = await agent.callTool({ name: 'find_tools', arguments: { query } });
  return ((r.structuredContent as { matches?: { name: string }[] } | undefined)?.matches ?? []).map((m) => m.name);
}

/** One agent session: find a tool for each task and call what it picked. */
async function agentSession(url: string, token: string, tasks: [string, string, Record<string, unknown>][]) {
  const agent = await connectAgent(url, token, 'demo-agent');
  try {
    await agent.listTools();
    for (const [query, pick, args] of tasks) {
      const answer = await search(agent, query);
      const tool = answer.find((n) => n.endsWith(pick)) ?? pick;
      await agent.callTool({ name: 'call_tool', arguments: { tool_name: tool, arguments: args } });
    }
  } finally {
    await agent.close();
  }
}

async function openPage(browser: Browser, served: Served): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
  const page = await context.newPage();
  await page.goto(`${served.origin}/?token=${served.token}`);
  await page.locator('.server[data-state="ready"]').first().waitFor();
  return page;
}

/** Every server of the demo ready, and the remote one asking for sign-in. */
async function serversUp(page: Page, demo: DemoWorkspace): Promise<void> {
  for (const name of demo.servers)
    await page
      .locator(`.server[data-server="${name}"][data-state="${name === REMOTE ? 'needs-sign-in' : 'ready'}"]`)
      .waitFor({ timeout: 120_000 });
}

/** Switches the page's colour scheme and waits until the page wears it. */
async function wear(page: Page, scheme: Scheme): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
  await page.waitForFunction(
    (dark) => (getComputedStyle(document.body).backgroundColor === 'rgb(31, 31, 31)') === dark,
    scheme === 'dark',
  );
}

export const MAIN_SCENARIO =
  'mcp-lens serve --http on the demo workspace; an agent (MCP SDK client) searched with find_tools and called what it found: get-sum (19 + 23), list_directory of the workspace, create_entities (remember a fact), in one session, then read_text_file in another; a person searched "add two numbers" in the dashboard and tried get-sum. "issues" is a remote server nobody signed in to.';

export async function mainDashboardPictures(demo: DemoWorkspace, browser: Browser, pictures: Pictures): Promise<void> {
  const served = await serve(demo);
  try {
    const url = `${served.origin}/mcp`;
    // The agent starts once the servers are up, as one opened after the editor would.
    const page = await openPage(browser, served);
    await serversUp(page, demo);
    await agentSession(url, served.token, [
      ['add two numbers', 'get-sum', { a: 19, b: 23 }],
      ['list the files in a folder', 'list_directory', { path: demo.dir }],
      [
        'remember a fact about a person',
        'create_entities',
        { entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote the first program'] }] },
      ],
    ]);
    await agentSession(url, served.token, [
      ['read the text of a file', 'read_text_file', { path: join(demo.dir, '.vscode', 'mcp.json') }],
    ]);
    await page.fill('#search input[type="search"]', 'add two numbers');
    const hit = page.locator('#search .hit').first();
    await hit.locator('details.try-it summary').click();
    await hit.locator('textarea').fill('{ "a": 19, "b": 23 }');
    await hit.locator('button', { hasText: 'Call' }).click();
    await hit.locator('.try-result.ok').waitFor();
    await page.locator('#learned table.learned').waitFor();
    await pictures.pair('dashboard', MAIN_SCENARIO, async (scheme, file) => {
      await wear(page, scheme);
      await page.screenshot({ path: file, fullPage: true });
      return page.locator('body').innerText();
    });
    await pictures.pair('dashboard-learned', MAIN_SCENARIO, async (scheme, file) => {
      await wear(page, scheme);
      await page.locator('#learned').screenshot({ path: file });
      return page.locator('#learned').innerText();
    });
    await page.context().close();
  } finally {
    await served.stop();
  }
}

export const FALLING_SCENARIO =
  'mcp-lens serve --http on the demo workspace with search learning off (mcpLens.search.learnFromUsage: false, so the ranking the agents saw stood still): 10 agent sessions asked find_tools to "add two numbers" and called its first match, then 10 called a tool its answer did not hold (memory read_graph).';

export async function fallingQualityPictures(demo: DemoWorkspace, browser: Browser, pictures: Pictures): Promise<void> {
  const served = await serve(demo, { 'mcpLens.search.learnFromUsage': false });
  try {
    const url = `${served.origin}/mcp`;
    const page = await openPage(browser, served);
    await serversUp(page, demo);
    for (let i = 0; i < 20; i++)
      await agentSession(url, served.token, [
        i < 10 ? ['add two numbers', 'get-sum', { a: i, b: 1 }] : ['add two numbers', 'memory_read_graph', {}],
      ]);
    await page.locator('#retrieval .trend.falling').waitFor();
    await pictures.pair('dashboard-quality-falling', FALLING_SCENARIO, async (scheme, file) => {
      await wear(page, scheme);
      await page.locator('#retrieval').screenshot({ path: file });
      return page.locator('#retrieval').innerText();
    });
    await page.context().close();
  } finally {
    await served.stop();
  }
}
