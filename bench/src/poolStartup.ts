/**
 * Measures how long the upstream pool takes from setServers() to every server ready:
 *   1. the 3 demo servers (real npm everything, filesystem, memory over stdio);
 *   2. 19 replay servers (one `replay <server>` process per server of the recorded workspace).
 * Run: node --import tsx bench/src/poolStartup.ts [runs]   (prints ms per run and the median)
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { UpstreamPool } from '../../server/src/adapters/upstream/pool';
import type { StdioServerConfig } from '../../server/src/core/config/types';
import { silentLogger } from '../../server/src/core/logger';
import { recordedCatalogFile } from './benchFiles';

const root = resolve(__dirname, '../..');
const recording = recordedCatalogFile();

function node(name: string, args: string[], env: Record<string, string> = {}): StdioServerConfig {
  return {
    name,
    type: 'stdio',
    command: process.execPath,
    args,
    env,
    source: { kind: 'cli-config', file: 'bench', path: `servers.${name}` },
    fingerprint: `${name}:${args.join(' ')}`,
  };
}

function demoServers(dir: string): StdioServerConfig[] {
  const real = (n: string) => join(root, 'node_modules', '@modelcontextprotocol', `server-${n}`, 'dist', 'index.js');
  return [
    node('everything', [real('everything'), 'stdio']),
    node('filesystem', [real('filesystem'), dir]),
    node('memory', [real('memory')], { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') }),
  ];
}

function replayServers(): StdioServerConfig[] {
  const names = Object.keys((JSON.parse(readFileSync(recording, 'utf8')) as { servers: object }).servers);
  const script = join(root, 'test', 'fixtures', 'servers', 'replay.mjs');
  return names.map((n) => node(n, [script, n, '--file', recording]));
}

/** One cold start: new pool, setServers, time until all settled; returns ms and tool count. */
async function timeStart(servers: StdioServerConfig[]): Promise<{ ms: number; tools: number }> {
  const pool = new UpstreamPool({ log: silentLogger, connectTimeoutMs: 60_000 });
  const started = performance.now();
  await pool.setServers(servers);
  const ms = performance.now() - started;
  const notReady = pool.statuses().filter((s) => s.state !== 'ready');
  const tools = pool.tools().length;
  await pool.close();
  if (notReady.length) throw new Error(`not ready: ${notReady.map((s) => `${s.name} (${s.error})`).join(', ')}`);
  return { ms, tools };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function bench(label: string, servers: () => StdioServerConfig[], runs: number): Promise<void> {
  const times: number[] = [];
  let tools = 0;
  for (let i = 0; i < runs; i++) {
    const r = await timeStart(servers());
    times.push(r.ms);
    tools = r.tools;
  }
  const list = times.map((t) => t.toFixed(0)).join(', ');
  process.stdout.write(
    `${label}: ${servers().length} servers, ${tools} tools ready — median ${median(times).toFixed(0)} ms (runs: ${list})\n`,
  );
}

async function main(): Promise<void> {
  const runs = Number(process.argv[2] ?? 5);
  const dir = mkdtempSync(join(tmpdir(), 'mcp-lens-bench-'));
  try {
    await bench('demo (everything, filesystem, memory)', () => demoServers(dir), runs);
    await bench('replay (19 recorded servers)', replayServers, runs);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
