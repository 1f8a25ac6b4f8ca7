/**
 * A symlinked `.mcp-lens/usage/usage.log` made MCP Lens truncate or append to a file outside
 * the workspace. Since issue #23 the CLI keeps its usage log, salt, catalog cache and tool index
 * in the user's state folder (adapters/workspaceState.ts), not in the workspace: a linked
 * usage.log, usage folder, tool index folder or `.mcp-lens` itself is not used at all, and the
 * files links point at are never touched. What MCP Lens writes in its state folder is private:
 * folders 0700, files 0600.
 */
import assert from 'node:assert/strict';
import { existsSync, lstatSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { startFakeOllama } from '../fixtures/fakeOllama';
import { until } from '../fixtures/gatewayLens';
import { workspaceStateDir } from '../../server/src/adapters/workspaceState';
import {
  EVERYTHING,
  cliEnv,
  hostileWorkspace,
  mcpJson,
  runCli,
  startCli,
  type Entry,
  type HostileWorkspace,
} from './hostileWorkspace';

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

const tools = (ws: HostileWorkspace) =>
  runCli(['tools', '--workspace', ws.dir, '--config', ws.path('.vscode/mcp.json')], cliEnv(ws));

test('a linked usage.log, usage folder, index folder or .mcp-lens is never used; what they point at is untouched', async () => {
  for (const links of [
    { '.mcp-lens/usage/usage.log': 'OUTSIDE/precious.txt' },
    { '.mcp-lens/usage': 'OUTSIDE' },
    { '.mcp-lens/index': 'OUTSIDE' },
    { '.mcp-lens': 'OUTSIDE' },
  ]) {
    const ws = world(links);
    const run = await tools(ws);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /everything/, 'the rest works');
    assert.deepEqual(readdirSync(ws.outside).sort(), ['precious.txt'], JSON.stringify(links));
    assert.equal(readFileSync(join(ws.outside, 'precious.txt'), 'utf8'), PRECIOUS);
  }
});

test('MCP Lens creates its folders 0700 and its files 0600, in the state folder', async () => {
  const ws = world({});
  const run = await tools(ws);
  assert.equal(run.code, 0, run.stderr);
  const state = stateOf(ws);
  for (const dir of ['.', 'usage']) assert.equal(statSync(join(state, dir)).mode & 0o777, 0o700, dir);
  for (const file of ['usage/salt', 'usage/usage.log'])
    assert.equal(statSync(join(state, file)).mode & 0o777, 0o600, file);
  assert.equal(existsSync(ws.path('.mcp-lens')), false, 'nothing is written in the workspace');
});

const stateOf = (ws: HostileWorkspace) => workspaceStateDir(ws.dir, { XDG_STATE_HOME: ws.state });

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

test('with embeddings on, everything MCP Lens writes in its state folder is private: its folders 0700, its files 0600', async () => {
  const ollama = await startFakeOllama();
  const ws = world({});
  // serve keeps indexing until every tool is embedded; the vector snapshot is written once writes go quiet.
  const serve = startCli(
    ['serve', '--workspace', ws.dir, '--config', ws.path('.vscode/mcp.json')],
    cliEnv(ws, { OLLAMA_HOST: ollama.url }),
    'pipe',
  );
  try {
    await until('the vector snapshot', () => existsSync(join(stateOf(ws), 'index/lancedb/tools.vectors')), 60_000);
    serve.child.stdin!.end();
    assert.equal(await serve.stop(undefined), 0, serve.stderr());
  } finally {
    await serve.stop('SIGKILL').catch(() => undefined);
    await ollama.close();
  }
  assert.ok(ollama.embedCalls > 0);
  const root = stateOf(ws);
  const entries = modesUnder(root);
  const shown = entries.map((e) => `${e.mode.toString(8)} ${e.path}${e.dir ? '/' : ''}`).join('\n');
  for (const written of ['index/lancedb/tools.vectors', 'catalog.json', 'usage/salt'])
    assert.ok(
      entries.some((e) => e.path === written),
      `${written} written:\n${shown}`,
    );
  assert.ok(
    entries.some((e) => e.path === 'index/lancedb/tools.lance'),
    `the LanceDB table is there:\n${shown}`,
  );
  assert.equal(statSync(root).mode & 0o777, 0o700, root);
  // LanceDB writes its table's own files with its own modes, inside the 0700 lancedb folder.
  const lanceOwn = (p: string) => p === 'index/lancedb/tools.lance' || p.startsWith('index/lancedb/tools.lance/');
  for (const e of entries.filter((x) => !lanceOwn(x.path)))
    assert.equal(e.mode, e.dir ? 0o700 : 0o600, `${e.path}:\n${shown}`);
  for (const folder of ['index', 'index/lancedb'])
    assert.equal(entries.find((e) => e.path === folder)?.mode, 0o700, folder);
});
