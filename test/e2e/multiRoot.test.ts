// End-to-end, multi-root (#17 item 3): the packed VSIX in code-server opening a .code-workspace
// with two folders, each with its own .vscode/mcp.json, both defining a server called "memory"
// (server-memory) and the first also server-everything. Every folder's servers run, named
// <folder>/<server>; Search Tools finds the tools of both folders; a server added to the second
// folder's file is picked up live. Needs what extension.test.ts needs (install-code-server.sh,
// `npm run package`, /usr/bin/chromium); run alone with
// `node --import tsx --test test/e2e/multiRoot.test.ts`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { ROOT, assertInstalled, QUIET_EDITOR, openWorkbench, startCodeServer } from './codeServer';
import { findSidecarLog, until, vsixPath } from './sidecarLog';
import { fixtureServer, writeMcpJson } from './fixtureWorkspace';
import { closeQuickInput, fillQuickPick, runCommand, SEARCH_TOOLS_PLACEHOLDER, waitForPickRow } from './workbench';

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

/** Runs Search Tools with `query` and returns the rows once one contains `expect`. */
async function searchRows(page: Page, query: string, expect: string): Promise<string[]> {
  await closeQuickInput(page);
  await runCommand(page, 'MCP Lens: Search Tools');
  await fillQuickPick(page, SEARCH_TOOLS_PLACEHOLDER, query);
  const rows = await waitForPickRow(page, expect);
  await closeQuickInput(page);
  return rows;
}

/** Two folders, each with its own .vscode/mcp.json, in a .code-workspace that names the second. */
function writeMultiRootWorkspace(base: string): { file: string; api: string; web: string } {
  const root = join(base, 'multi-root');
  const api = join(root, 'api');
  const web = join(root, 'web-app');
  const mod = (p: string) => join(ROOT, 'node_modules', '@modelcontextprotocol', p, 'dist', 'index.js');
  // `${workspaceFolder}`: each folder's memory keeps its graph in that folder.
  const memory = {
    type: 'stdio',
    command: process.execPath,
    args: [mod('server-memory')],
    env: { MEMORY_FILE_PATH: '${workspaceFolder}/memory.jsonl' },
  };
  for (const f of [api, web]) mkdirSync(join(f, '.vscode'), { recursive: true });
  writeMcpJson(api, {
    everything: { type: 'stdio', command: process.execPath, args: [mod('server-everything'), 'stdio'] },
    memory,
  });
  writeMcpJson(web, { memory });
  const file = join(root, 'multi.code-workspace');
  writeFileSync(
    file,
    JSON.stringify(
      {
        folders: [{ path: 'api' }, { path: 'web-app', name: 'web' }],
        settings: { 'mcpLens.embedding.enabled': false },
      },
      null,
      2,
    ),
  );
  return { file, api, web };
}

test(
  "MCP Lens in a multi-root workspace: every folder's .vscode/mcp.json, servers kept apart",
  { timeout: 10 * 60_000 },
  async (t) => {
    assertInstalled();
    const vsix = vsixPath();
    const base = mkdtempSync(join(tmpdir(), 'mcp-lens-e2e-multi-'));
    const ws = writeMultiRootWorkspace(base);
    const cs = await startCodeServer({
      base,
      userSettings: QUIET_EDITOR,
      // Test-only (client/src/extension.ts): these servers start without the modal prompt.
      env: {
        MCP_LENS_E2E_OUT: join(base, 'invoke-tools.json'),
        MCP_LENS_E2E_AUTO_APPROVE: 'api/everything,api/memory,web/memory,web/added',
      },
      vsix,
    });
    let browser: Browser | undefined;
    try {
      const opened = await openWorkbench(cs, `?workspace=${encodeURIComponent(ws.file)}`);
      browser = opened.browser;
      const page = opened.page;

      await t.test("every folder's servers start, named <folder>/<server>", async () => {
        const log = await until('the MCP Lens log', 120_000, () => findSidecarLog(cs.userDataDir));
        const lines = await until('all three servers ready', 120_000, () => {
          const text = readFileSync(log, 'utf8');
          return ['api/everything', 'api/memory', 'web/memory'].every((n) => text.includes(`[${n}] ready`))
            ? text
            : undefined;
        });
        assert.match(lines, /multi-root workspace: reading the MCP configuration of 2 folders/);
        // No server is named without its folder.
        assert.doesNotMatch(lines, /\[(everything|memory)\] ready/);
      });

      await t.test('Search Tools finds the tools of both folders', async () => {
        const echo = await searchRows(page, 'echo back a message', 'echo');
        assert.ok(
          echo.some((r) => r.includes('api/everything')),
          `api's everything: ${echo.join(' | ')}`,
        );
        const entities = await searchRows(page, 'create entities in the knowledge graph', 'web/memory');
        assert.ok(
          entities.some((r) => r.includes('api_memory_create_entities')),
          `api's memory: ${entities.join(' | ')}`,
        );
        assert.ok(
          entities.some((r) => r.includes('web_memory_create_entities')),
          `web's memory: ${entities.join(' | ')}`,
        );
      });

      await t.test("a server added to the second folder's mcp.json is picked up without a reload", async () => {
        const before = await statusBarTools(page);
        writeMcpJson(ws.web, {
          memory: {
            type: 'stdio',
            command: process.execPath,
            args: [join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js')],
            env: { MEMORY_FILE_PATH: '${workspaceFolder}/memory.jsonl' },
          },
          added: fixtureServer('gated.mjs', ['--prefix', 'added']),
        });
        await page.waitForFunction(
          (n) =>
            Array.from(document.querySelectorAll('.statusbar-item')).some(
              (e) => Number(/(\d+) tools/.exec(e.textContent ?? '')?.[1] ?? 0) > n,
            ),
          before,
          { timeout: 60_000 },
        );
        const rows = await searchRows(page, 'pong from added', 'web_added_added_ping');
        assert.match(rows[0] ?? '', /web_added_added_ping/, rows.join(' | '));
      });

      await t.test("List Servers shows each folder's servers apart", async () => {
        await closeQuickInput(page);
        await runCommand(page, 'MCP Lens: List Servers');
        const rows = await waitForPickRow(page, 'web/added');
        for (const name of ['api/everything', 'api/memory', 'web/memory', 'web/added'])
          assert.ok(
            rows.some((r) => r.includes(name)),
            `${name}: ${rows.join(' | ')}`,
          );
        await closeQuickInput(page);
      });
    } finally {
      await browser?.close().catch(() => undefined);
      await cs.stop();
      rmSync(base, { recursive: true, force: true });
    }
  },
);
