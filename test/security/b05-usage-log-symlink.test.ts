/**
 * B5. A symlinked `.mcp-lens/usage/usage.log` made MCP Lens truncate or append to a file outside
 * the workspace. `.mcp-lens/` is MCP Lens's own folder: nothing there is followed through a
 * link. A linked usage.log is refused (usage is then recorded in memory only, and the warning
 * names the file); a linked `.mcp-lens/usage` folder likewise; a linked `.mcp-lens` itself stops
 * the CLI with an error naming it. The files links point at are never touched.
 */
import assert from 'node:assert/strict';
import { existsSync, lstatSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { startFakeOllama } from '../fixtures/fakeOllama';
import { until } from '../fixtures/gatewayLens';
import { EVERYTHING, cliEnv, hostileWorkspace, mcpJson, runCli, startCli, type Entry, type HostileWorkspace } from './hostileWorkspace';

const PRECIOUS = 'precious data that is not a usage log\n';
const worlds: HostileWorkspace[] = [];
after(() => worlds.forEach((w) => w.close()));

function world(links: Record<string, string>): HostileWorkspace {
  const files: Record<string, Entry> = { '.vscode/mcp.json': mcpJson({ everything: EVERYTHING }) };
  for (const [rel, target] of Object.entries(links)) files[rel] = { link: target };
  const ws = hostileWorkspace(files, { 'precious.txt': PRECIOUS });
  worlds.push(ws);
  return ws;
}

const tools = (ws: HostileWorkspace) => runCli(['tools', '--workspace', ws.dir, '--config', ws.path('.vscode/mcp.json')], cliEnv(ws));

test('b05: a linked usage.log is refused by name and the file it points at is untouched', async () => {
  const ws = world({ '.mcp-lens/usage/usage.log': 'OUTSIDE/precious.txt' });
  const run = await tools(ws);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(readFileSync(join(ws.outside, 'precious.txt'), 'utf8'), PRECIOUS);
  assert.match(run.stderr, /\.mcp-lens\/usage\/usage\.log: it is a symbolic link/);
  assert.match(run.stdout, /everything/, 'the rest works');
});

test('b05: a linked usage folder is refused; nothing is written where it points', async () => {
  const ws = world({ '.mcp-lens/usage': 'OUTSIDE' });
  const run = await tools(ws);
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(readdirSync(ws.outside).sort(), ['precious.txt']);
  assert.match(run.stderr, /\.mcp-lens\/usage: it is a symbolic link/);
});

test('b05: a linked .mcp-lens, or a linked tool index folder in it, stops the CLI with an error naming it', async () => {
  for (const [link, name] of [
    ['.mcp-lens', '.mcp-lens'],
    ['.mcp-lens/index', '.mcp-lens/index'],
  ] as const) {
    const ws = world({ [link]: 'OUTSIDE' });
    const run = await tools(ws);
    assert.notEqual(run.code, 0);
    assert.match(run.stderr, new RegExp(`refusing .*/repo/${name.replace(/\./g, '\\.')}: it is a symbolic link`));
    assert.deepEqual(readdirSync(ws.outside).sort(), ['precious.txt']);
  }
});

test('b05: MCP Lens creates its folders 0700 and its files 0600', async () => {
  const ws = world({});
  const run = await tools(ws);
  assert.equal(run.code, 0, run.stderr);
  for (const dir of ['.mcp-lens', '.mcp-lens/usage']) assert.equal(statSync(ws.path(dir)).mode & 0o777, 0o700, dir);
  for (const file of ['.mcp-lens/usage/salt', '.mcp-lens/usage/usage.log']) assert.equal(statSync(ws.path(file)).mode & 0o777, 0o600, file);
});

/** Every entry under `dir`, relative to it, with its permission bits, links not followed. */
function modesUnder(dir: string, rel = ''): { path: string; dir: boolean; mode: number }[] {
  const out: { path: string; dir: boolean; mode: number }[] = [];
  for (const name of readdirSync(join(dir, rel))) {
    const path = rel ? `${rel}/${name}` : name;
    const st = lstatSync(join(dir, path));
    out.push({ path, dir: st.isDirectory(), mode: st.mode & 0o777 });
    if (st.isDirectory()) out.push(...modesUnder(dir, path));
  }
  return out;
}

test('b05: with embeddings on, everything MCP Lens writes under .mcp-lens is private: its folders 0700, its files 0600', async () => {
  const ollama = await startFakeOllama();
  const ws = world({});
  // serve keeps indexing until every tool is embedded; the vector snapshot is written once writes go quiet.
  const serve = startCli(['serve', '--workspace', ws.dir, '--config', ws.path('.vscode/mcp.json')], cliEnv(ws, { OLLAMA_HOST: ollama.url }), 'pipe');
  try {
    await until('the vector snapshot', () => existsSync(ws.path('.mcp-lens/index/lancedb/tools.vectors')), 60_000);
    serve.child.stdin!.end();
    assert.equal(await serve.stop(undefined), 0, serve.stderr());
  } finally {
    await serve.stop('SIGKILL').catch(() => undefined);
    await ollama.close();
  }
  assert.ok(ollama.embedCalls > 0);
  const root = ws.path('.mcp-lens');
  const entries = modesUnder(root);
  const shown = entries.map((e) => `${e.mode.toString(8)} ${e.path}${e.dir ? '/' : ''}`).join('\n');
  for (const written of ['index/lancedb/tools.vectors', 'catalog.json', '.gitignore', 'usage/salt'])
    assert.ok(
      entries.some((e) => e.path === written),
      `${written} written:\n${shown}`,
    );
  assert.ok(
    entries.some((e) => e.path === 'index/lancedb/tools.lance'),
    `the LanceDB table is there:\n${shown}`,
  );
  assert.equal(statSync(root).mode & 0o777, 0o700, '.mcp-lens');
  // LanceDB writes its table's own files with its own modes, inside the 0700 lancedb folder.
  const lanceOwn = (p: string) => p === 'index/lancedb/tools.lance' || p.startsWith('index/lancedb/tools.lance/');
  for (const e of entries.filter((x) => !lanceOwn(x.path))) assert.equal(e.mode, e.dir ? 0o700 : 0o600, `${e.path}:\n${shown}`);
  for (const folder of ['index', 'index/lancedb']) assert.equal(entries.find((e) => e.path === folder)?.mode, 0o700, folder);
});
