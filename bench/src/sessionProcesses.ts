/**
 * Processes and memory per session count on the 22-server dev workspace (benchServers.ts: the
 * 19 replayed servers of the recorded workspace and the three real test servers, every one over
 * stdio), for sessions of one principal (the editor: every session acts for the workspace) and of
 * different principals (`serve --http`: each session its own, with its own process of each stdio
 * server it uses). The gateway runs in a bundled child (sessionProcessesChild.ts) so the harness
 * is not counted; the figures are read from /proc:
 *
 *  - upstream processes: the child's descendants but the watchdog shell that ends their process
 *    groups if MCP Lens dies (childReaper.ts), once every server settled (before any session),
 *    with N sessions open after each made its calls, and after they closed (DELETE);
 *  - MCP Lens RSS: the child's VmRSS; total RSS: the child's and every descendant's VmRSS, summed
 *    (pages the processes share counted in each); total PSS: the same from smaps_rollup, shared
 *    pages split among their users (what the processes really cost together).
 *
 * Each session makes one call on each of SERVERS_USED servers (an agent's session uses a few),
 * the same ones in every session.
 *
 *   node --import tsx bench/src/sessionProcesses.ts [--sessions 1,2,8] [--json] [--write bench-results.md]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { EVERYTHING_SERVER, benchServers, configServers } from './benchServers';
import { writeSection } from './markdownSection';
import { bundleMemoryChild } from './memoryChild';

type Mode = 'editor' | 'serve';

/** Server → the tool each session calls on it, with its arguments. */
const CALLS: Record<string, { tool: string; args: Record<string, unknown> }> = {
  [EVERYTHING_SERVER]: { tool: 'get-sum', args: { a: 1, b: 2 } },
  'test-filesystem': { tool: 'list_allowed_directories', args: {} },
  'test-memory': { tool: 'read_graph', args: {} },
};
/** Calls on this many servers per session: the three real ones and one replayed. */
const SERVERS_USED = 4;

interface Measure {
  upstreams: number;
  lensRssMb: number;
  totalRssMb: number;
  totalPssMb: number;
}

interface Row {
  mode: Mode;
  sessions: number;
  principals: number;
  idle: Measure;
  open: Measure;
  closed: Measure;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      sessions: { type: 'string', default: '1,2,8' },
      json: { type: 'boolean', default: false },
      write: { type: 'string' },
    },
  });
  const counts = values.sessions.split(',').map(Number);
  const child = await bundleMemoryChild(join(__dirname, 'sessionProcessesChild.ts'));
  const ws = mkdtempSync(join(tmpdir(), 'mcp-lens-sessions-bench-'));
  const load = loadavg()[0]!.toFixed(1);
  const rows: Row[] = [];
  try {
    const files = join(ws, 'files');
    mkdirSync(files);
    mkdirSync(join(ws, '.vscode'));
    writeFileSync(join(ws, '.vscode', 'settings.json'), JSON.stringify({ mcpLens: { embedding: { enabled: false } } }));
    const config = join(ws, 'mcp.json');
    writeFileSync(config, JSON.stringify({ servers: configServers(benchServers(files)) }));
    for (const mode of ['editor', 'serve'] as const)
      for (const n of counts) {
        const row = await measure(child, mode, n, ws, config);
        rows.push(row);
        process.stderr.write(`${mode} ${n}: ${JSON.stringify(row)}\n`);
      }
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
  const md = report(rows, load);
  process.stdout.write(values.json ? `${JSON.stringify(rows)}\n` : `${md}\n`);
  if (values.write) writeSection(resolve(values.write), 'session-processes', md);
}

async function measure(child: string, mode: Mode, n: number, ws: string, config: string): Promise<Row> {
  const token = randomBytes(32).toString('hex');
  const proc = spawn(process.execPath, [child, mode, ws, config, token], { stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const url = await listening(proc);
    const pid = proc.pid!;
    const idle = sample(pid);
    const clients: { client: Client; transport: StreamableHTTPClientTransport }[] = [];
    for (let i = 0; i < n; i++) {
      const transport = new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      });
      const client = new Client({ name: `bench-${i}`, version: '1' }, { capabilities: {} });
      await client.connect(transport);
      clients.push({ client, transport });
    }
    const replayed = Object.keys(benchServers(ws)).filter((s) => !(s in CALLS));
    await Promise.all(clients.map(({ client }) => useServers(client, replayed)));
    const open = sample(pid);
    for (const { client, transport } of clients) {
      await transport.terminateSession();
      await client.close();
    }
    await settle(() => sample(pid).upstreams === idle.upstreams);
    const closed = sample(pid);
    return { mode, sessions: n, principals: mode === 'editor' ? 1 : n, idle, open, closed };
  } finally {
    proc.kill('SIGTERM');
    await new Promise((r) => proc.once('close', r));
  }
}

/** One call on each of SERVERS_USED servers, by their client-safe names (exposure all). */
async function useServers(client: Client, replayedServers: string[]): Promise<void> {
  const { tools } = await client.listTools();
  // A replayed server's tool that takes no required argument (the replay answers any call with an echo).
  const replayed = tools.find(
    (t) => replayedServers.some((s) => t.name.startsWith(`${s}_`)) && !t.inputSchema.required?.length,
  );
  const wanted = Object.entries(CALLS).map(([server, c]) => {
    const tool = tools.find((t) => t.name === `${server}_${c.tool}`);
    if (!tool) throw new Error(`no ${server}_${c.tool} in the tools/list`);
    return { name: tool.name, args: c.args };
  });
  if (replayed) wanted.push({ name: replayed.name, args: {} });
  for (const call of wanted.slice(0, SERVERS_USED)) {
    const r = await client.callTool({ name: call.name, arguments: call.args });
    if (r.isError) throw new Error(`${call.name}: ${JSON.stringify(r.content).slice(0, 300)}`);
  }
}

function listening(proc: ChildProcess): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    let out = '';
    let err = '';
    proc.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolvePromise((JSON.parse(line) as { url: string }).url);
    });
    proc.stderr!.on('data', (c: Buffer) => (err += c.toString()));
    proc.once('close', (code) => reject(new Error(`the gateway exited (${code}): ${err.slice(-1000)}`)));
  });
}

/** Polls a condition on /proc (processes ending): every 50 ms, for at most 60 s. */
async function settle(done: () => boolean): Promise<void> {
  for (let i = 0; i < 1200 && !done(); i++) await new Promise((r) => setTimeout(r, 50));
}

function sample(pid: number): Measure {
  const all = [pid, ...descendants(pid)];
  // Not an upstream: the shell that ends the upstreams' process groups if MCP Lens dies (childReaper.ts).
  const upstreams = all.slice(1).filter((p) => !cmdline(p).startsWith('/bin/sh'));
  return {
    upstreams: upstreams.length,
    lensRssMb: kb(pid, 'status', 'VmRSS') / 1024,
    totalRssMb: all.reduce((sum, p) => sum + kb(p, 'status', 'VmRSS'), 0) / 1024,
    totalPssMb: all.reduce((sum, p) => sum + kb(p, 'smaps_rollup', 'Pss'), 0) / 1024,
  };
}

/** Every process below `pid` (ppid chains in /proc). */
function descendants(pid: number): number[] {
  const parent = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const below = (p: number): number[] =>
    [...parent].filter(([, pp]) => pp === p).flatMap(([child]) => [child, ...below(child)]);
  return below(pid);
}

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

function kb(pid: number, file: 'status' | 'smaps_rollup', field: string): number {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(readFileSync(`/proc/${pid}/${file}`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

function report(rows: Row[], load: string): string {
  const f = (mb: number) => mb.toFixed(0);
  const lines = rows.map(
    (r) =>
      `| ${r.mode === 'editor' ? 'editor (one principal)' : '`serve --http` (a principal per session)'} | ${r.sessions} | ${r.principals} | ${r.idle.upstreams} → ${r.open.upstreams} → ${r.closed.upstreams} | ${f(r.idle.lensRssMb)} → ${f(r.open.lensRssMb)} | ${f(r.idle.totalRssMb)} → ${f(r.open.totalRssMb)} → ${f(r.closed.totalRssMb)} | ${f(r.idle.totalPssMb)} → ${f(r.open.totalPssMb)} → ${f(r.closed.totalPssMb)} |`,
  );
  return [
    '## Processes and memory per session (`node --import tsx bench/src/sessionProcesses.ts --write bench-results.md`)',
    '',
    `The 22-server dev workspace (every server over stdio), the gateway over streamable HTTP in a bundled child; each session calls one tool on each of ${SERVERS_USED} servers. Figures: with every server settled and no session → with the sessions open after their calls → after they closed. RSS sums count shared pages in every process; PSS splits them. ${availableParallelism()} cores, load ${load} at the start.`,
    '',
    '| front door | sessions | principals | upstream processes | MCP Lens RSS (MB) | total RSS (MB) | total PSS (MB) |',
    '|---|---|---|---|---|---|---|',
    ...lines,
  ].join('\n');
}

main().catch((err: unknown) => {
  process.stderr.write(`session processes: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
