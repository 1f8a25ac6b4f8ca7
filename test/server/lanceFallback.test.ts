/**
 * Without a loadable LanceDB the sidecar degrades, it never dies: the built `mcp-lens serve`
 * runs from an install folder the test lays out like a VSIX or an npm install, with LanceDB's
 * native module missing, replaced by a binary of another architecture, or LanceDB absent
 * altogether. Ollama (a real HTTP server speaking its protocol) answers, so the index does
 * try to open its store; search then says, in one log line and in its mode, why it is
 * keyword-only, and tools are still found and called.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { EVERYTHING, ROOT, makeWorkspace } from '../fixtures/gatewayLens';
import { startFakeOllama, type FakeOllama } from '../fixtures/fakeOllama';
import { findToolsWhenStarted } from '../fixtures/agentClient';

let ollama: FakeOllama;
before(async () => {
  ollama = await startFakeOllama({ models: { 'nomic-embed-text': 64 } });
});
after(async () => ollama.close());

type LanceLayout = 'no-native-module' | 'no-lancedb';

/** dist/cli.js with the runtime modules beside it, as a VSIX or `npm install` lays them out. */
function installFolder(layout: LanceLayout): { dir: string; cli: string } {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-lens-install-'));
  mkdirSync(join(dir, 'dist'));
  for (const f of ['cli.js', 'cliMain.js', 'o200k.ranks']) cpSync(join(ROOT, 'dist', f), join(dir, 'dist', f));
  const nm = join(dir, 'node_modules');
  const link = (name: string) => {
    mkdirSync(dirname(join(nm, name)), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules', name), join(nm, name), 'dir');
  };
  link('apache-arrow');
  if (layout === 'no-native-module') {
    // A copy, not a link: Node resolves a linked package's own requires from its real folder,
    // where the native package sits. Its dependencies are linked.
    const lance = join(ROOT, 'node_modules/@lancedb/lancedb');
    cpSync(join(lance, 'package.json'), join(nm, '@lancedb/lancedb/package.json'));
    cpSync(join(lance, 'dist'), join(nm, '@lancedb/lancedb/dist'), { recursive: true });
    for (const dep of Object.keys(
      (JSON.parse(readFileSync(join(lance, 'package.json'), 'utf8')) as { dependencies: Record<string, string> })
        .dependencies,
    ))
      link(dep);
  }
  return { dir, cli: join(dir, 'dist', 'cli.js') };
}

interface Served {
  client: Client;
  stderr: () => string;
  close(): Promise<void>;
}

async function serve(layout: LanceLayout, env: Record<string, string> = {}): Promise<Served> {
  const install = installFolder(layout);
  const ws = makeWorkspace({ everything: EVERYTHING }, { embedding: { enabled: true } });
  let stderr = '';
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [install.cli, 'serve', '--workspace', ws.dir, '--config', ws.configFile],
    cwd: ws.dir,
    env: { ...(process.env as Record<string, string>), OLLAMA_HOST: ollama.url, MCP_LENS_LOG: 'info', ...env },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'lance-fallback-test', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    stderr: () => stderr,
    async close() {
      await client.close();
      ws.close();
      rmSync(install.dir, { recursive: true, force: true });
    },
  };
}

async function findTools(
  client: Client,
  query: string,
): Promise<{ search_mode: string; matches: { name: string; server: string }[] }> {
  const r = (await client.callTool({ name: 'find_tools', arguments: { query } })) as CallToolResult;
  return r.structuredContent as { search_mode: string; matches: { name: string; server: string }[] };
}

/** find_tools until its mode is final (not the moment before Ollama's probe answered). */
async function settledMode(client: Client, expected: RegExp): Promise<string> {
  let mode = '';
  const deadline = Date.now() + 60_000;
  while (!expected.test(mode) && Date.now() < deadline) mode = (await findTools(client, 'add two numbers')).search_mode;
  return mode;
}

async function stillServes(client: Client): Promise<void> {
  // A first run: `everything` may still be starting (find_tools says so rather than wait).
  const { result } = await findToolsWhenStarted(client, { query: 'add two numbers' });
  const { matches } = result.structuredContent as { matches: { name: string; server: string }[] };
  const sum = matches.find((m) => m.server === 'everything' && /sum/.test(m.name));
  assert.ok(sum, `no sum tool in ${matches.map((m) => m.name).join(', ')}`);
  const r = (await client.callTool({
    name: 'call_tool',
    arguments: { tool_name: sum.name, arguments: { a: 19, b: 23 } },
  })) as CallToolResult;
  assert.match(JSON.stringify(r.content), /\b42\b/);
}

function keywordOnlyLines(stderr: string): string[] {
  return stderr.split('\n').filter((l) => /searching keyword-only/.test(l));
}

test('LanceDB without its native module: keyword search, one clear message, the mode says why', async () => {
  ollama.resetCounters();
  const s = await serve('no-native-module');
  try {
    const mode = await settledMode(s.client, /^keyword only: no LanceDB native module/);
    assert.match(mode, /^keyword only: no LanceDB native module for linux-x64 \((glibc|musl)\)$/);
    await stillServes(s.client);
    const lines = keywordOnlyLines(s.stderr());
    assert.equal(lines.length, 1, s.stderr());
    assert.match(lines[0], /Cannot find module '@lancedb\/lancedb-linux-x64-(gnu|musl)'/);
    assert.equal(ollama.embedInputs.length, 0, 'nothing is embedded for vectors that cannot be kept');
  } finally {
    await s.close();
  }
});

test('a native module of another architecture: keyword search, and the mode says it does not load', async (t) => {
  // An ELF header for aarch64: the dynamic loader refuses it as it would a real arm64 build.
  const dir = mkdtempSync(join(tmpdir(), 'mcp-lens-wrong-arch-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const header = Buffer.alloc(4096);
  header.write('\x7fELF', 'latin1');
  header.set([2, 1, 1], 4); // 64-bit, little-endian, ELF version 1
  header.writeUInt16LE(3, 16); // a shared object
  header.writeUInt16LE(0xb7, 18); // EM_AARCH64
  header.writeUInt32LE(1, 20);
  writeFileSync(join(dir, 'lancedb.linux-arm64-gnu.node'), header);
  const s = await serve('no-native-module', { NAPI_RS_NATIVE_LIBRARY_PATH: join(dir, 'lancedb.linux-arm64-gnu.node') });
  try {
    const mode = await settledMode(s.client, /^keyword only: LanceDB's native module does not load/);
    assert.match(mode, /^keyword only: LanceDB's native module does not load on linux-x64/);
    await stillServes(s.client);
    const lines = keywordOnlyLines(s.stderr());
    assert.equal(lines.length, 1, s.stderr());
    assert.match(lines[0], /lancedb\.linux-arm64-gnu\.node/);
  } finally {
    await s.close();
  }
});

test('a build without LanceDB: keyword only from the start, without asking Ollama', async () => {
  ollama.resetCounters();
  const s = await serve('no-lancedb');
  try {
    const { search_mode } = await findTools(s.client, 'add two numbers');
    assert.match(search_mode, /^keyword only: this build has no LanceDB for linux-x64/);
    await stillServes(s.client);
    assert.equal(keywordOnlyLines(s.stderr()).length, 1, s.stderr());
    assert.equal(ollama.requests.size, 0, 'Ollama is not probed when there is nowhere to keep vectors');
  } finally {
    await s.close();
  }
});
