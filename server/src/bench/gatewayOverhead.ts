/**
 * What routing a call through MCP Lens costs: the same `get-sum` call on server-everything,
 * directly (client → server over stdio) and through the gateway (client → `mcp-lens serve`
 * over stdio → server over stdio), interleaved in one run so both see the same machine load.
 * The gateway runs as users run it (dist/cli.js, default settings: usage tracking, savings
 * accounting, argument validation and result cleaning on) in front of the bench workspace's
 * 22 servers (benchServers.ts), and is measured once every one of them is ready (list_servers
 * says so), so the calls never race the start-up. A bare SDK pass-through to the same server
 * (test/fixtures/servers/sdk-passthrough.mjs: no search, validation, shaping or usage) is timed
 * in the same rounds: the floor of any SDK-built stdio gateway; and so is a pipe pass-through
 * (test/fixtures/servers/pipe-passthrough.mjs: bytes passed on unparsed), the floor of any
 * stdio gateway process at all. Then 200 concurrent call_tool across three upstreams, counting
 * errors.
 *
 *   node esbuild.mjs server && node --import tsx server/src/bench/gatewayOverhead.ts
 *     [--iterations N] [--json] [--cpu-prof DIR] [--hop-probe] [--write bench-results.md]
 *
 * --cpu-prof DIR: the gateway process writes a V8 CPU profile (node --cpu-prof) into DIR when
 * it exits, for where its time goes (open it in Chrome DevTools, or summarize it with
 * server/src/bench/cpuProfileSummary.ts).
 * --hop-probe: the gateway stamps each call's moments (adapters/hopProbe.ts) and the report
 * splits its wall-clock time into the gateway's own work each way, the upstream's round trip,
 * the call's tail after the reply, and what lies outside the gateway process (both pipes, the
 * client); the concurrent calls are skipped, so every probed call is one of the timed ones.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { EVERYTHING_SERVER, benchServers, configServers } from './benchServers';
import { writeSection } from './markdownSection';
import { untilAllReady } from './sidecarProcess';
import { HOP_PROBE_ENV } from '../adapters/hopProbe';
import { formatHops, summarizeHops, type HopSummary } from './hopProbeSummary';

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
  directP90Ms: number;
  gatewayP90Ms: number;
  concurrent: { calls: number; errors: number; wallMs: number; servers: string[] };
  /** 1-minute load average when the calls began and when they ended. */
  load: { before: number; after: number };
  /** With --hop-probe: where a gateway call's time goes (medians, ms). */
  hops?: HopSummary;
}

function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  const i = Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1));
  return Math.round((s[i] ?? 0) * 1000) / 1000;
}

async function connect(command: string, args: string[], cwd: string, env?: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'mcp-lens-bench', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command,
      args,
      cwd,
      stderr: 'ignore',
      env: { ...(process.env as Record<string, string>), ...env },
    }),
  );
  return client;
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

export async function measureGatewayOverhead(
  root: string,
  iterations = 200,
  cpuProfDir?: string,
  hopProbe = false,
): Promise<OverheadReport> {
  const ws = mkdtempSync(join(tmpdir(), 'mcp-lens-overhead-'));
  const servers = benchServers(ws);
  const config = join(ws, 'mcp.json');
  writeFileSync(config, JSON.stringify({ servers: configServers(servers) }));
  writeFileSync(join(ws, 'note.txt'), 'hello');
  const everything = servers[EVERYTHING_SERVER]!;
  const direct = await connect(everything.command, everything.args, root);
  const passthrough = await connect(
    process.execPath,
    [join(root, 'test', 'fixtures', 'servers', 'sdk-passthrough.mjs'), everything.command, ...everything.args],
    root,
  );
  const pipe = await connect(
    process.execPath,
    [join(root, 'test', 'fixtures', 'servers', 'pipe-passthrough.mjs'), everything.command, ...everything.args],
    root,
  );
  // 100 µs samples: a call takes about a millisecond, the default 1 ms interval sees almost none of it.
  const profile = cpuProfDir ? ['--cpu-prof', '--cpu-prof-interval', '100', '--cpu-prof-dir', resolve(cpuProfDir)] : [];
  const hopFile = hopProbe ? join(ws, 'hops.json') : undefined;
  const gateway = await connect(
    process.execPath,
    [...profile, join(root, 'dist', 'cli.js'), 'serve', '--workspace', ws, '--config', config],
    root,
    hopFile ? { [HOP_PROBE_ENV]: hopFile } : undefined,
  );
  let hops: HopSummary | undefined;
  try {
    await untilAllReady(gateway, Object.keys(servers).length);
    const sumName = await toolName(gateway, 'sum of two numbers', EVERYTHING_SERVER, /get-sum$/);
    const names = {
      readGraph: await toolName(gateway, 'read the knowledge graph', 'test-memory', /read_graph/),
      listDir: await toolName(gateway, 'list directory contents', 'test-filesystem', /list_directory$/),
    };
    const directTimes: number[] = [];
    const gatewayTimes: number[] = [];
    const passthroughTimes: number[] = [];
    const pipeTimes: number[] = [];
    const loadBefore = loadavg()[0]!;
    for (let i = 0; i < iterations + 10; i++) {
      const d = await timed(() => direct.callTool({ name: 'get-sum', arguments: { a: i, b: 1 } }));
      const g = await timed(() =>
        gateway.callTool({ name: 'call_tool', arguments: { tool_name: sumName, arguments: { a: i, b: 1 } } }),
      );
      const p = await timed(() => passthrough.callTool({ name: 'get-sum', arguments: { a: i, b: 1 } }));
      const r = await timed(() => pipe.callTool({ name: 'get-sum', arguments: { a: i, b: 1 } }));
      if (i >= 10) {
        pipeTimes.push(r);
        directTimes.push(d);
        gatewayTimes.push(g);
        passthroughTimes.push(p);
      }
    }
    const loadAfter = loadavg()[0]!;
    const concurrent = hopFile
      ? { calls: 0, errors: 0, wallMs: 0, servers: [] }
      : await concurrentCalls(gateway, sumName, names, ws);
    if (hopFile) {
      await gateway.close();
      hops = summarizeHops(hopFile, gatewayTimes);
    }
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
      passthroughMedianMs: pm,
      passthroughRatio: Math.round((pm / dm) * 100) / 100,
      passthroughP90Ms: percentile(passthroughTimes, 90),
      pipeMedianMs: rm,
      pipeRatio: Math.round((rm / dm) * 100) / 100,
      pipeP90Ms: percentile(pipeTimes, 90),
      directP90Ms: percentile(directTimes, 90),
      gatewayP90Ms: percentile(gatewayTimes, 90),
      concurrent,
      load: { before: loadBefore, after: loadAfter },
      ...(hops && { hops }),
    };
  } finally {
    await direct.close();
    await passthrough.close();
    await pipe.close();
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

export function formatOverhead(r: OverheadReport): string {
  return [
    `get-sum on server-everything, ${r.iterations} calls each, interleaved (MCP Lens in front of ${r.servers} servers, all ready):`,
    `  direct           median ${r.directMedianMs} ms   p90 ${r.directP90Ms} ms`,
    `  via MCP Lens     median ${r.gatewayMedianMs} ms   p90 ${r.gatewayP90Ms} ms`,
    `  overhead         median ${r.overheadMedianMs} ms (${r.ratio}× the direct call)`,
    `  SDK pass-through median ${r.passthroughMedianMs} ms (${r.passthroughRatio}× the direct call: the floor of an SDK stdio gateway)`,
    `  pipe pass-through median ${r.pipeMedianMs} ms (${r.pipeRatio}× the direct call: the extra process hop alone, nothing parsed)`,
    `${r.concurrent.calls} concurrent call_tool across ${r.concurrent.servers.join(', ')}: ${r.concurrent.errors} errors, ${r.concurrent.wallMs} ms wall`,
    `load average (1 min): ${r.load.before.toFixed(2)} before the calls, ${r.load.after.toFixed(2)} after`,
    ...(r.hops ? [formatHops(r.hops)] : []),
  ].join('\n');
}

export function formatOverheadMarkdown(r: OverheadReport): string {
  return [
    '## Call overhead (`node esbuild.mjs server && node --import tsx server/src/bench/gatewayOverhead.ts --write bench-results.md`)',
    '',
    `get-sum on server-everything, ${r.iterations} calls each way, interleaved in one run: directly (SDK client → server over stdio), through \`mcp-lens serve\` (dist/cli.js at default settings: usage tracking, savings accounting, argument validation, result cleaning) in front of ${r.servers} servers, all ready, through a bare SDK pass-through (no search, validation, shaping or usage: the floor of an SDK-built stdio gateway), and through a pipe pass-through (bytes passed on unparsed: the extra process hop alone, the floor of any stdio gateway).`,
    '',
    '| path | median | p90 | ratio to direct |',
    '|---|---:|---:|---:|',
    `| direct | ${r.directMedianMs} ms | ${r.directP90Ms} ms | 1× |`,
    `| pipe pass-through | ${r.pipeMedianMs} ms | ${r.pipeP90Ms} ms | ${r.pipeRatio}× |`,
    `| SDK pass-through | ${r.passthroughMedianMs} ms | ${r.passthroughP90Ms} ms | ${r.passthroughRatio}× |`,
    `| MCP Lens call_tool | ${r.gatewayMedianMs} ms | ${r.gatewayP90Ms} ms | **${r.ratio}×** (+${r.overheadMedianMs} ms) |`,
    '',
    `${r.concurrent.calls} concurrent call_tool across ${r.concurrent.servers.join(', ')}: ${r.concurrent.errors} errors, ${r.concurrent.wallMs} ms wall. Machine: 1-minute load average ${r.load.before.toFixed(2)} when the calls began, ${r.load.after.toFixed(2)} when they ended.`,
  ].join('\n');
}

if (require.main === module) {
  const { values } = parseArgs({
    options: {
      iterations: { type: 'string', default: '200' },
      json: { type: 'boolean', default: false },
      'cpu-prof': { type: 'string' },
      'hop-probe': { type: 'boolean', default: false },
      write: { type: 'string' },
    },
  });
  measureGatewayOverhead(
    resolve(__dirname, '../../..'),
    Number(values.iterations),
    values['cpu-prof'],
    values['hop-probe'],
  ).then(
    (r) => {
      process.stdout.write((values.json ? JSON.stringify(r, null, 2) : formatOverhead(r)) + '\n');
      if (values.write) writeSection(resolve(values.write), 'overhead', formatOverheadMarkdown(r));
    },
    (err: unknown) => {
      process.stderr.write(`gateway overhead bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
