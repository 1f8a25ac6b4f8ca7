/**
 * The benchmarks' sidecar: a temp workspace with three real upstreams (server-everything,
 * server-memory, server-filesystem), `node dist/cli.js serve --http` as a child process with a
 * fixed token, MCP clients over HTTP, and the child's resident memory read from /proc.
 * Used by load.ts and soak.ts; `close()` stops the child (and so its upstreams) and removes
 * the workspace.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export interface Sidecar {
  url: string;
  pid: number;
  /** A workspace folder the filesystem server may read (holds note.txt). */
  filesDir: string;
  connect(): Promise<Client>;
  /** VmRSS and VmHWM (peak) of the sidecar process, in MB. */
  memory(): { rssMb: number; peakMb: number };
  close(): Promise<void>;
}

/** Starts `node <root>/dist/cli.js serve --http` over a fresh workspace; resolves once it listens. */
export async function startSidecar(root: string): Promise<Sidecar> {
  const cli = join(root, 'dist/cli.js');
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run \`node esbuild.mjs server\` first`);
  const ws = mkdtempSync(join(tmpdir(), 'mcp-lens-load-'));
  const nm = join(root, 'node_modules/@modelcontextprotocol');
  const filesDir = join(ws, 'files');
  mkdirSync(filesDir);
  writeFileSync(join(filesDir, 'note.txt'), 'hello from the load test\n');
  mkdirSync(join(ws, '.vscode'));
  // No Ollama here: keyword search only, so the figures do not include a retry loop.
  writeFileSync(join(ws, '.vscode/settings.json'), JSON.stringify({ mcpLens: { embedding: { enabled: false } } }));
  const config = join(ws, 'mcp.json');
  const node = process.execPath;
  writeFileSync(
    config,
    JSON.stringify({
      servers: {
        everything: { command: node, args: [join(nm, 'server-everything/dist/index.js'), 'stdio'] },
        memory: {
          command: node,
          args: [join(nm, 'server-memory/dist/index.js')],
          env: { MEMORY_FILE_PATH: join(ws, 'memory.jsonl') },
        },
        files: { command: node, args: [join(nm, 'server-filesystem/dist/index.js'), filesDir] },
      },
    }),
  );
  const token = randomBytes(24).toString('base64url');
  const child = spawn(node, [cli, 'serve', '--http', '--workspace', ws, '--config', config], {
    cwd: root,
    env: { ...process.env, MCP_LENS_TOKEN: token },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let url: string;
  try {
    url = await listeningUrl(child);
  } catch (err) {
    child.kill('SIGKILL');
    rmSync(ws, { recursive: true, force: true });
    throw err;
  }
  const clients: Client[] = [];
  return {
    url,
    pid: child.pid!,
    filesDir,
    async connect() {
      const c = new Client({ name: 'mcp-lens-load', version: '1.0.0' });
      await c.connect(
        new StreamableHTTPClientTransport(new URL(url), {
          requestInit: { headers: { Authorization: `Bearer ${token}` } },
        }),
      );
      clients.push(c);
      return c;
    },
    memory: () => procMemory(child.pid!),
    async close() {
      await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
      const exited = new Promise<void>((r) => (child.exitCode !== null ? r() : child.once('exit', () => r())));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
      rmSync(ws, { recursive: true, force: true });
    },
  };
}

/** Waits for the "MCP Lens listening on URL" line; fails with the stderr seen if the child exits first. */
function listeningUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`sidecar did not start within 60 s:\n${seen}`)), 60_000);
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      if (seen.length < 100_000) seen += chunk;
      const m = /MCP Lens listening on (\S+)/.exec(seen);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`sidecar exited (${code}) before listening:\n${seen}`));
    });
  });
}

export function procMemory(pid: number): { rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { rssMb: Math.round(kb('VmRSS') / 1024), peakMb: Math.round(kb('VmHWM') / 1024) };
}

/** Until list_servers says every server is ready (each answer is a fresh look; nothing is timed here). */
export async function untilAllReady(gateway: Client, expected: number, deadlineMs = 120_000): Promise<void> {
  const deadline = performance.now() + deadlineMs;
  for (;;) {
    const r = (await gateway.callTool({ name: 'list_servers', arguments: {} })) as CallToolResult;
    const text = r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
    const servers = (JSON.parse(text) as { servers: { name: string; state: string }[] }).servers;
    const ready = servers.filter((s) => s.state === 'ready').length;
    if (ready === expected) return;
    if (performance.now() > deadline) {
      throw new Error(
        `servers not ready after ${deadlineMs / 1000} s: ${servers
          .filter((s) => s.state !== 'ready')
          .map((s) => `${s.name} (${s.state})`)
          .join(', ')}`,
      );
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The three calls the benchmarks rotate through, one per upstream, resolved by find_tools. */
export async function benchCalls(
  client: Client,
  filesDir: string,
): Promise<{ name: string; args: Record<string, unknown> }[]> {
  // find_tools never waits for a server that is still starting once another has listed its
  // tools: pick only once all three are ready, or a slow start reads as a missing tool.
  await untilAllReady(client, 3);
  const pick = async (query: string, server: string, re: RegExp) => {
    const r = (await client.callTool({
      name: 'find_tools',
      arguments: { query, server, limit: 10 },
    })) as CallToolResult;
    const name = (r.structuredContent as { matches: { name: string }[] }).matches.find((m) => re.test(m.name))?.name;
    if (!name) throw new Error(`find_tools found no ${re} tool on ${server}`);
    return name;
  };
  return [
    { name: await pick('add two numbers', 'everything', /get-sum$/), args: { a: 19, b: 23 } },
    { name: await pick('read the knowledge graph', 'memory', /read_graph$/), args: {} },
    { name: await pick('read a text file', 'files', /read_text_file$/), args: { path: join(filesDir, 'note.txt') } },
  ];
}

/** Nearest-rank percentile of milliseconds, rounded to 0.1 ms. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const s = [...values].sort((a, b) => a - b);
  const i = Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1));
  return Math.round(s[i]! * 10) / 10;
}

/** `--name N` from a bench's argv: a positive number, or the fallback when absent. */
export function flagValue(argv: string[], name: string, fallback: number): number {
  const i = argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(argv[i + 1]) : fallback;
  if (!Number.isFinite(v) || v <= 0) throw new Error(`--${name} must be a positive number`);
  return v;
}
