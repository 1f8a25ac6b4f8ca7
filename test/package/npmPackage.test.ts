/**
 * The `mcp-lens` npm package as a user gets it: `npm run package:npm` packs it, `npm install`
 * puts the tarball into an empty folder (LanceDB comes along as an optional dependency), and
 * the installed `mcp-lens` bin prints its version, benches a dataset folder (dist/bench.js) and
 * serves a real MCP server (server-everything) over stdio to the SDK's client: tools are found
 * and called through it.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { findToolsWhenStarted } from '../fixtures/agentClient';
import { EVERYTHING, ROOT, makeWorkspace } from '../fixtures/gatewayLens';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
let dir: string;
let bin: string;
const npm = (args: string[], cwd: string) =>
  execFileSync('npm', args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    shell: process.platform === 'win32',
  });

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-lens-npm-'));
  const tarball = execFileSync(process.execPath, [join(ROOT, 'scripts/package-npm.mjs'), '--out-dir', dir], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .trim()
    .split('\n')
    .pop()!;
  const files = execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' }).trim().split('\n').sort();
  assert.deepEqual(files, [
    'package/LICENSE',
    'package/README.md',
    'package/dist/bench.js',
    'package/dist/cli.js',
    'package/dist/cliMain.js',
    'package/dist/learnedFileWorker.js',
    'package/dist/o200k.ranks',
    'package/dist/sandboxWorker.js',
    'package/dist/selectChild.js',
    'package/package.json',
  ]);
  const app = join(dir, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), '{"private":true}\n');
  npm(['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], app);
  bin = join(app, 'node_modules', '.bin', 'mcp-lens');
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('the installed bin prints the version and lays out only what the CLI runs', () => {
  assert.ok(existsSync(bin), 'npm linked the mcp-lens bin');
  assert.equal(execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim(), pkg.version);
  const manifest = JSON.parse(readFileSync(join(dir, 'app/node_modules/mcp-lens/package.json'), 'utf8')) as Record<
    string,
    unknown
  >;
  assert.deepEqual(manifest.bin, { 'mcp-lens': 'dist/cli.js' });
  assert.deepEqual(Object.keys(manifest.optionalDependencies as object).sort(), ['@lancedb/lancedb', 'apache-arrow']);
  assert.equal(manifest.dependencies, undefined, 'everything else is bundled');
});

test('mcp-lens bench from the installed package benches a dataset folder and writes its section in the working folder', () => {
  const sets = join(dir, 'sets');
  mkdirSync(join(sets, 'tiny'), { recursive: true });
  writeFileSync(
    join(sets, 'tiny', 'tools.json'),
    JSON.stringify([
      { server: 'weather', name: 'get_forecast', description: 'Weather forecast for a city' },
      { server: 'files', name: 'read_file', description: 'Read a file from disk' },
    ]),
  );
  writeFileSync(
    join(sets, 'tiny', 'queries.json'),
    JSON.stringify([{ id: 't1', query: 'forecast for Paris', gold: ['weather/get_forecast'] }]),
  );
  const work = join(dir, 'work');
  mkdirSync(work);
  const out = execFileSync(bin, ['bench', '--all'], {
    cwd: work,
    encoding: 'utf8',
    env: { ...process.env, MCP_LENS_BENCH_DIR: sets },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  assert.match(out, /mcp-lens\s+keyword/);
  assert.match(readFileSync(join(work, 'bench-results.md'), 'utf8'), /<!-- search bench: start -->[\s\S]*## tiny/);
  assert.equal(existsSync(join(dir, 'app', 'node_modules', 'mcp-lens', 'bench-results.md')), false);
});

test('mcp-lens serve from the installed package serves a real MCP server to an SDK client', async () => {
  const ws = makeWorkspace({ everything: EVERYTHING });
  const transport = new StdioClientTransport({
    command: bin,
    args: ['serve', '--workspace', ws.dir, '--config', ws.configFile],
    cwd: ws.dir,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'npm-package-test', version: '1.0.0' });
  try {
    await client.connect(transport);
    // A first run in this workspace: find_tools waits at most a few seconds for the first
    // server to list, and a loaded machine may take longer; search again until none is starting.
    const found = (await findToolsWhenStarted(client, { query: 'add two numbers' })).result;
    const matches = (found.structuredContent as { matches: { name: string; server: string }[] }).matches;
    const sum = matches.find((m) => m.server === 'everything' && /sum/.test(m.name));
    assert.ok(sum, JSON.stringify(matches));
    const r = (await client.callTool({
      name: 'call_tool',
      arguments: { tool_name: sum.name, arguments: { a: 19, b: 23 } },
    })) as CallToolResult;
    assert.match(JSON.stringify(r.content), /\b42\b/);
  } finally {
    await client.close();
    ws.close();
  }
});
