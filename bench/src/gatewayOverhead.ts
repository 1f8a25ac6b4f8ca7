/**
 * What routing a call through MCP Lens costs: the same `get-sum` call on server-everything,
 * directly (client → server over stdio) and through the gateway (client → `mcp-lens serve`
 * over stdio → server over stdio), interleaved in one run so both see the same machine load
 * (the order of the paths turns with each round, so none always follows another). The gateway
 * runs as users run it (dist/cli.js, default settings: usage tracking, savings accounting,
 * argument validation and result cleaning on) in front of the bench workspace's 22 servers
 * (benchServers.ts), and is measured once every one of them is ready (list_servers says so), so
 * the calls never race the start-up. A bare SDK pass-through to the same server
 * (test/fixtures/servers/sdk-passthrough.mjs: a low-level Server whose tools/call handler
 * forwards to a Client; no search, validation, shaping or usage) is timed in the same rounds:
 * the floor of any SDK-built stdio gateway, and the yardstick MCP Lens is held to (no slower,
 * within 10%); and so is a pipe pass-through (test/fixtures/servers/pipe-passthrough.mjs: bytes
 * passed on unparsed), the floor of any stdio gateway process at all. Where /proc is there, the
 * CPU time MCP Lens's process and the SDK pass-through's spend per call is read too (every
 * thread, from the scheduler's nanosecond counts): load on the machine disturbs it less than
 * wall-clock. Then 200 concurrent call_tool across three upstreams, counting errors.
 *
 *   node esbuild.mjs server && node --import tsx bench/src/gatewayOverhead.ts
 *     [--iterations N] [--runs N] [--json] [--cpu-prof DIR] [--write bench-results.md]
 *
 * --runs N: N runs one after another, each in a fresh workspace; the report gives each run and
 * the median (and range) of the runs' medians.
 * --cpu-prof DIR: the gateway process writes a V8 CPU profile (node --cpu-prof) into DIR when
 * it exits, for where its time goes (open it in Chrome DevTools, or summarize it with
 * bench/src/cpuProfileSummary.ts).
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { EVERYTHING_SERVER, benchServers, configServers } from './benchServers';
import { writeSection } from './markdownSection';
import { untilAllReady } from './sidecarProcess';

export interface OverheadReport {
  servers: number;
  iterations: number;
  directMedianMs: number;
  gatewayMedianMs: number;
  /** The bare SDK pass-through's median, and its ratio to the direct call. */
  passthroughMedianMs: number;
  passthroughRatio: number;
  passthroughP90Ms: number;
  /** The pipe pass-through's median (no parsing: the extra process hop alone), and its ratio to the direct call. */
  pipeMedianMs: number;
  pipeRatio: number;
  pipeP90Ms: number;
  overheadMedianMs: number;
  /** gateway median / direct median. */
  ratio: number;
  /** gateway median / SDK pass-through median: the goal is at most 1.1. */
  vsPassthrough: number;
  /** CPU time (user + system, every thread) per timed call of MCP Lens's process and the SDK pass-through's, without /proc none. */
  cpuPerCallMs?: { gateway: number; passthrough: number };
  directP90Ms: number;
  gatewayP90Ms: number;
  concurrent: { calls: number; errors: number; wallMs: number; servers: string[] };
  /** 1-minute load average when the calls began and when they ended. */
  load: { before: number; after: number };
}

function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  const i = Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1));
  return Math.round((s[i] ?? 0) * 1000) / 1000;
}

interface Connected {
  client: Client;
  /** CPU time (ns, every thread) the process has spent so far; undefined without /proc. */
  cpuNs(): number | undefined;
}

async function connect(command: string, args: string[], cwd: string): Promise<Connected> {
  const client = new Client({ name: 'mcp-lens-bench', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command,
    args,
    cwd,
    stderr: 'ignore',
    env: process.env as Record<string, string>,
  });
  await client.connect(transport);
  const pid = transport.pid;
  return { client, cpuNs: () => (pid === null ? undefined : processCpuNs(pid)) };
}

/** The first field of each thread's /proc schedstat: nanoseconds on a CPU. */
function processCpuNs(pid: number): number | undefined {
  const tasks = `/proc/${pid}/task`;
  if (!existsSync(tasks)) return undefined;
  let ns = 0;
  for (const task of readdirSync(tasks)) {
    try {
      ns += Number(readFileSync(`${tasks}/${task}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // The thread ended meanwhile: its time is lost either way.
    }
  }
  return ns;
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

export async function measureGatewayOverhead(
  root: string,
  iterations = 300,
  cpuProfDir?: string,
): Promise<OverheadReport> {
  const ws = mkdtempSync(join(tmpdir(), 'mcp-lens-overhead-'));
  const servers = benchServers(ws);
  const config = join(ws, 'mcp.json');
  writeFileSync(config, JSON.stringify({ servers: configServers(servers) }));
  writeFileSync(join(ws, 'note.txt'), 'hello');
  const everything = servers[EVERYTHING_SERVER]!;
  const fixture = (name: string) => join(root, 'test', 'fixtures', 'servers', name);
  const direct = await connect(everything.command, everything.args, root);
  const sdk = await connect(
    process.execPath,
    [fixture('sdk-passthrough.mjs'), everything.command, ...everything.args],
    root,
  );
  const pipe = await connect(
    process.execPath,
    [fixture('pipe-passthrough.mjs'), everything.command, ...everything.args],
    root,
  );
  // 100 µs samples: a call takes about a millisecond, the default 1 ms interval sees almost none of it.
  const profile = cpuProfDir ? ['--cpu-prof', '--cpu-prof-interval', '100', '--cpu-prof-dir', resolve(cpuProfDir)] : [];
  const lens = await connect(
    process.execPath,
    [...profile, join(root, 'dist', 'cli.js'), 'serve', '--workspace', ws, '--config', config],
    root,
  );
  const gateway = lens.client;
  try {
    await untilAllReady(gateway, Object.keys(servers).length);
    const sumName = await toolName(gateway, 'sum of two numbers', EVERYTHING_SERVER, /get-sum$/);
    const names = {
      readGraph: await toolName(gateway, 'read the knowledge graph', 'test-memory', /read_graph/),
      listDir: await toolName(gateway, 'list directory contents', 'test-filesystem', /list_directory$/),
    };
    const times: number[][] = [[], [], [], []];
    const paths = [
      (i: number) => direct.client.callTool({ name: 'get-sum', arguments: { a: i, b: 1 } }),
      (i: number) =>
        gateway.callTool({ name: 'call_tool', arguments: { tool_name: sumName, arguments: { a: i, b: 1 } } }),
      (i: number) => sdk.client.callTool({ name: 'get-sum', arguments: { a: i, b: 1 } }),
      (i: number) => pipe.client.callTool({ name: 'get-sum', arguments: { a: i, b: 1 } }),
    ];
    const warmup = 10;
    let cpuAtStart: (number | undefined)[] = [];
    const loadBefore = loadavg()[0]!;
    for (let i = 0; i < iterations + warmup; i++) {
      if (i === warmup) cpuAtStart = [lens.cpuNs(), sdk.cpuNs()];
      for (let k = 0; k < paths.length; k++) {
        const which = (i + k) % paths.length;
        const ms = await timed(() => paths[which]!(i));
        if (i >= warmup) times[which]!.push(ms);
      }
    }
    const cpuAtEnd = [lens.cpuNs(), sdk.cpuNs()];
    const loadAfter = loadavg()[0]!;
    const [directTimes, gatewayTimes, passthroughTimes, pipeTimes] = times as [number[], number[], number[], number[]];
    const perCall = (k: number) => {
      const [from, to] = [cpuAtStart[k], cpuAtEnd[k]];
      return from === undefined || to === undefined ? undefined : Math.round((to - from) / iterations / 1000) / 1000;
    };
    const [gatewayCpu, passthroughCpu] = [perCall(0), perCall(1)];
    const concurrent = await concurrentCalls(gateway, sumName, names, ws);
    const dm = percentile(directTimes, 50);
    const gm = percentile(gatewayTimes, 50);
    const pm = percentile(passthroughTimes, 50);
    const rm = percentile(pipeTimes, 50);
    return {
      servers: Object.keys(servers).length,
      iterations,
      directMedianMs: dm,
      gatewayMedianMs: gm,
      overheadMedianMs: Math.round((gm - dm) * 1000) / 1000,
      ratio: Math.round((gm / dm) * 100) / 100,
      vsPassthrough: Math.round((gm / pm) * 100) / 100,
      passthroughMedianMs: pm,
      passthroughRatio: Math.round((pm / dm) * 100) / 100,
      passthroughP90Ms: percentile(passthroughTimes, 90),
      pipeMedianMs: rm,
      pipeRatio: Math.round((rm / dm) * 100) / 100,
      pipeP90Ms: percentile(pipeTimes, 90),
      directP90Ms: percentile(directTimes, 90),
      gatewayP90Ms: percentile(gatewayTimes, 90),
      ...(gatewayCpu !== undefined &&
        passthroughCpu !== undefined && { cpuPerCallMs: { gateway: gatewayCpu, passthrough: passthroughCpu } }),
      concurrent,
      load: { before: loadBefore, after: loadAfter },
    };
  } finally {
    await direct.client.close();
    await sdk.client.close();
    await pipe.client.close();
    await gateway.close();
    rmSync(ws, { recursive: true, force: true });
  }
}

async function toolName(gateway: Client, query: string, server: string, re: RegExp): Promise<string> {
  const r = (await gateway.callTool({ name: 'find_tools', arguments: { query, server, limit: 10 } })) as CallToolResult;
  const name = (r.structuredContent as { matches?: { name: string }[] }).matches?.find((m) => re.test(m.name))?.name;
  if (!name) throw new Error(`find_tools found no ${re} tool on ${server}`);
  return name;
}

async function concurrentCalls(
  gateway: Client,
  sumName: string,
  names: { readGraph: string; listDir: string },
  ws: string,
): Promise<OverheadReport['concurrent']> {
  const calls = Array.from({ length: 200 }, (_, i) => {
    const which = i % 3;
    const args =
      which === 0
        ? { tool_name: sumName, arguments: { a: i, b: 2 } }
        : which === 1
          ? { tool_name: names.readGraph, arguments: {} }
          : { tool_name: names.listDir, arguments: { path: ws } };
    return args;
  });
  const started = performance.now();
  const results = await Promise.allSettled(
    calls.map((args) => gateway.callTool({ name: 'call_tool', arguments: args })),
  );
  const errors = results.filter((r) => r.status === 'rejected' || (r.value as CallToolResult).isError).length;
  return {
    calls: calls.length,
    errors,
    wallMs: Math.round(performance.now() - started),
    servers: [EVERYTHING_SERVER, 'test-memory', 'test-filesystem'],
  };
}

/** The median of the runs' figures, and their range. */
function acrossRuns(values: number[]): string {
  const s = [...values].sort((a, b) => a - b);
  const mid = s[Math.floor(s.length / 2)]!;
  return s.length === 1 ? `${mid}` : `${mid} (${s[0]}–${s[s.length - 1]})`;
}

function cpuText(r: OverheadReport): string {
  return r.cpuPerCallMs ? `${r.cpuPerCallMs.gateway} / ${r.cpuPerCallMs.passthrough} ms` : '–';
}

export function formatOverhead(runs: OverheadReport[]): string {
  const lines = runs.flatMap((r, i) => [
    `run ${i + 1}: get-sum on server-everything, ${r.iterations} calls each, interleaved (MCP Lens in front of ${r.servers} servers, all ready):`,
    `  direct            median ${r.directMedianMs} ms   p90 ${r.directP90Ms} ms`,
    `  via MCP Lens      median ${r.gatewayMedianMs} ms   p90 ${r.gatewayP90Ms} ms (${r.ratio}× the direct call, +${r.overheadMedianMs} ms)`,
    `  SDK pass-through  median ${r.passthroughMedianMs} ms   p90 ${r.passthroughP90Ms} ms (${r.passthroughRatio}× the direct call)`,
    `  pipe pass-through median ${r.pipeMedianMs} ms   p90 ${r.pipeP90Ms} ms (${r.pipeRatio}× the direct call: the extra process hop alone)`,
    `  MCP Lens ÷ SDK pass-through ${r.vsPassthrough}; CPU per call, MCP Lens / SDK pass-through: ${cpuText(r)}`,
    `  ${r.concurrent.calls} concurrent call_tool across ${r.concurrent.servers.join(', ')}: ${r.concurrent.errors} errors, ${r.concurrent.wallMs} ms wall`,
    `  load average (1 min): ${r.load.before.toFixed(2)} before the calls, ${r.load.after.toFixed(2)} after`,
  ]);
  if (runs.length > 1) lines.push(...summaryLines(runs));
  return lines.join('\n');
}

function summaryLines(runs: OverheadReport[]): string[] {
  const of = (pick: (r: OverheadReport) => number) => acrossRuns(runs.map(pick));
  const cpu = runs.every((r) => r.cpuPerCallMs)
    ? [
        `  CPU per call: MCP Lens ${of((r) => r.cpuPerCallMs!.gateway)} ms, SDK pass-through ${of((r) => r.cpuPerCallMs!.passthrough)} ms`,
      ]
    : [];
  return [
    `over ${runs.length} runs (median of the runs' medians, range):`,
    `  MCP Lens ÷ SDK pass-through ${of((r) => r.vsPassthrough)}; MCP Lens ÷ direct ${of((r) => r.ratio)}; SDK pass-through ÷ direct ${of((r) => r.passthroughRatio)}; pipe ÷ direct ${of((r) => r.pipeRatio)}`,
    ...cpu,
  ];
}

export function formatOverheadMarkdown(runs: OverheadReport[]): string {
  const first = runs[0]!;
  const of = (pick: (r: OverheadReport) => number) => acrossRuns(runs.map(pick));
  const row = (r: OverheadReport, label: string) =>
    `| ${label} | ${r.directMedianMs} ms | ${r.pipeMedianMs} ms | ${r.passthroughMedianMs} ms | ${r.gatewayMedianMs} ms | **${r.vsPassthrough}** | ${r.ratio}× | ${r.passthroughRatio}× | ${cpuText(r)} | ${r.load.before.toFixed(1)}–${r.load.after.toFixed(1)} |`;
  const errors = runs.reduce((n, r) => n + r.concurrent.errors, 0);
  const ratios = runs.map((r) => r.vsPassthrough).sort((a, b) => a - b);
  const within = ratios.filter((x) => x <= 1.1).length;
  const goal = `${ratios[Math.floor(ratios.length / 2)]! <= 1.1 ? 'met' : 'not met'} in the median, ${within} of ${runs.length} runs within`;
  return [
    `## Call overhead (\`node esbuild.mjs server && node --import tsx bench/src/gatewayOverhead.ts --runs ${runs.length} --write bench-results.md\`)`,
    '',
    `get-sum on server-everything, ${first.iterations} calls each way per run, interleaved (the order turning each round): directly (SDK client → server over stdio), through \`mcp-lens serve\` (dist/cli.js at default settings: usage tracking, savings accounting, argument validation, result cleaning) in front of ${first.servers} servers, all ready, through a bare SDK pass-through (a low-level SDK Server whose tools/call handler forwards to an SDK Client: the floor of an SDK-built stdio gateway) and through a pipe pass-through (bytes passed on unparsed: the extra process hop alone, the floor of any stdio gateway). Medians per run; CPU per call is the process's user + system time over the timed calls, every thread.`,
    '',
    '| run | direct | pipe pass-through | SDK pass-through | MCP Lens call_tool | MCP Lens ÷ SDK pass-through | MCP Lens ÷ direct | SDK pass-through ÷ direct | CPU per call, MCP Lens / SDK pass-through | load (1 min) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...runs.map((r, i) => row(r, String(i + 1))),
    '',
    `Over ${runs.length} run(s), median (range): MCP Lens ÷ SDK pass-through **${of((r) => r.vsPassthrough)}**, MCP Lens ÷ direct ${of((r) => r.ratio)}, SDK pass-through ÷ direct ${of((r) => r.passthroughRatio)}. Goal: MCP Lens no slower than the SDK pass-through in the same run (÷ at most 1.1): ${goal}. ${first.concurrent.calls} concurrent call_tool across ${first.concurrent.servers.join(', ')} in each run: ${errors} errors in all. Machine: ${cpus().length} cores, the load average in the table.`,
  ].join('\n');
}

if (require.main === module) {
  const { values } = parseArgs({
    options: {
      iterations: { type: 'string', default: '300' },
      runs: { type: 'string', default: '1' },
      json: { type: 'boolean', default: false },
      'cpu-prof': { type: 'string' },
      write: { type: 'string' },
    },
  });
  void (async () => {
    const runs: OverheadReport[] = [];
    for (let i = 0; i < Number(values.runs); i++)
      runs.push(
        await measureGatewayOverhead(resolve(__dirname, '../..'), Number(values.iterations), values['cpu-prof']),
      );
    process.stdout.write((values.json ? JSON.stringify(runs, null, 2) : formatOverhead(runs)) + '\n');
    if (values.write) writeSection(resolve(values.write), 'overhead', formatOverheadMarkdown(runs));
  })().catch((err: unknown) => {
    process.stderr.write(`gateway overhead bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exitCode = 1;
  });
}
