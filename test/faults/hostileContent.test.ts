/**
 * Hostile tool text (prompt injection, HTML and script, ANSI escapes, NUL, bidi overrides, a
 * 1 MB description) from a fixture server beside server-everything: kept up to 8,000
 * characters (more flattened everyone's ranking), cut short with a marker and cleaned in find_tools and get_tool_schema, rendered as
 * text in the dashboard (headless chromium) with nothing executed, and printed clean by the
 * CLI `tools` and `search`. The older <script>/<img> fixture is covered in
 * test/server/dashboard.test.ts.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { MAX_DESCRIPTION_CHARS } from '../../server/src/adapters/upstream/listing';
import { TRUNCATED_MARK } from '../../server/src/gateway/findToolsResult';
import { EVERYTHING, ROOT, makeWorkspace } from '../fixtures/gatewayLens';
import { startWithChromium } from '../fixtures/lens/dashboardPage';
// @ts-expect-error -- a plain .mjs fixture module without types
import { ANSI, BIDI, DEEP_WORD, INJECTION, MARKUP, NUL } from '../fixtures/servers/faulty/hostileTools.mjs';
import { faulty, startGatewayWorld, text, type GatewayWorld } from './faultWorld';

/** Characters that must never reach a client, a terminal or a page from tool text. */
const FORBIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

interface Match {
  name: string;
  description: string;
}

describe('hostile tool text', () => {
  let g: GatewayWorld;
  let browser: Browser;

  before(async () => {
    const build = spawnSync(process.execPath, ['esbuild.mjs', 'webview'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(build.status, 0, build.stderr);
    [g, browser] = await startWithChromium(() =>
      startGatewayWorld({ everything: EVERYTHING, hostile: faulty('hostile') }, {}, { dashboard: true }),
    );
  });
  after(async () => {
    await browser?.close();
    await g?.close();
  });

  async function find(query: string): Promise<{ matches: Match[]; raw: string }> {
    const r = await g.call('find_tools', { query, limit: 10 });
    assert.ok(!r.isError, text(r));
    return { matches: (r.structuredContent as { matches: Match[] }).matches, raw: text(r) };
  }

  it('keeps 8,000 characters of the 1 MB description, so it cannot flatten ranking for other servers', async () => {
    const tool = g.world.lens.tools().find((t) => t.originalName === 'megabyte')!;
    assert.equal(tool.description.length, MAX_DESCRIPTION_CHARS + TRUNCATED_MARK.length);
    assert.ok(tool.description.endsWith(TRUNCATED_MARK));
    // Indexed whole, it pushed get-sum out of the top 8 for this query.
    const { matches } = await find('add two numbers');
    assert.equal(g.world.lens.findTool(matches[0]!.name)?.originalName, 'get-sum');
    const deep = await find(DEEP_WORD);
    assert.ok(!deep.matches.some((m) => m.name === tool.name), 'text past the cap is not searchable');
  });

  it('find_tools cuts long descriptions with a marker and strips escapes, NUL and bidi controls', async () => {
    const { matches, raw } = await find('huge description megabyte colours terminal output');
    const mega = matches.find((m) => m.name === 'hostile_megabyte')!;
    assert.ok(mega.description.endsWith(TRUNCATED_MARK), mega.description.slice(-40));
    assert.ok(mega.description.length <= 500 + TRUNCATED_MARK.length);
    const esc = matches.find((m) => m.name === 'hostile_escapes')!;
    assert.doesNotMatch(esc.description, FORBIDDEN);
    assert.match(esc.description, /RED/);
    assert.ok(!esc.description.includes('[31m'), 'escape sequences removed whole');
    assert.ok(esc.description.includes('beforeafter'));
    assert.doesNotMatch(raw, /\\u0000|\\u001b|\u202e/, 'nor in the text content');
    assert.ok(raw.length < 20_000, `find_tools text ${raw.length} chars`);
  });

  it('prompt injection and markup are returned as inert data, and only as long as the limit', async () => {
    // One search each: a hit far below the first carries only its first sentence (#25), and the
    // point here is what a hit shown in full carries.
    const inject = (await find('reads the weather')).matches.find((m) => m.name === 'hostile_inject')!;
    assert.ok(inject.description.includes(INJECTION), 'the text is data: shown, not obeyed, not hidden');
    const markup = (await find('renders markup')).matches.find((m) => m.name === 'hostile_markup')!;
    assert.ok(markup.description.includes(MARKUP));
    await g.healthy();
  });

  it('get_tool_schema caps the 1 MB description and cleans control characters', async () => {
    const mega = JSON.parse(text(await g.call('get_tool_schema', { tool_name: 'hostile_megabyte' }))) as {
      description: string;
    };
    assert.ok(mega.description.length <= 8000 + TRUNCATED_MARK.length && mega.description.endsWith(TRUNCATED_MARK));
    const esc = JSON.parse(text(await g.call('get_tool_schema', { tool_name: 'hostile_escapes' }))) as {
      description: string;
    };
    assert.doesNotMatch(esc.description, FORBIDDEN);
  });

  it('the dashboard shows the markup as text and runs none of it', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`http://127.0.0.1:${g.port}/?token=${encodeURIComponent(g.token)}`);
      await page.locator('.server[data-state="ready"]').first().waitFor();
      await page.fill('#search input[type="search"]', 'renders markup');
      const hit = page.locator('.hit', { has: page.locator('.hit-name', { hasText: 'markup' }) }).first();
      await hit.waitFor();
      assert.ok((await hit.locator('.hit-desc').innerText()).includes(MARKUP));
      await page.fill('#search input[type="search"]', 'huge description megabyte');
      await page.locator('.hit-name', { hasText: 'megabyte' }).first().waitFor();
      assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned), undefined);
      assert.equal(await page.locator('#search img, #search script').count(), 0);
    } finally {
      await page.close();
    }
  });

  it('the CLI `tools` and `search` print no control characters, escapes or bidi overrides', () => {
    const ws = makeWorkspace({ hostile: faulty('hostile') });
    try {
      const cli = (...args: string[]) =>
        spawnSync(
          process.execPath,
          [
            '--import',
            'tsx',
            join(ROOT, 'server/src/cli/main.ts'),
            ...args,
            '--workspace',
            ws.dir,
            '--config',
            ws.configFile,
          ],
          {
            cwd: ROOT,
            encoding: 'utf8',
            timeout: 60_000,
          },
        );
      const tools = cli('tools');
      assert.equal(tools.status, 0, tools.stderr);
      assert.match(tools.stdout, /hostile_escapes/);
      const search = cli('search', 'colours terminal output');
      assert.equal(search.status, 0, search.stderr);
      assert.match(search.stdout, /hostile_escapes/);
      for (const out of [tools.stdout, search.stdout]) {
        const bad = out.split('\n').filter((l) => FORBIDDEN.test(l));
        assert.deepEqual(bad, []);
        assert.ok(!out.includes(ANSI) && !out.includes(NUL) && !out.includes(BIDI));
      }
    } finally {
      ws.close();
    }
  });
});
