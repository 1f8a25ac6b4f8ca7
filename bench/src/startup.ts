/**
 * Start-up, call overhead and memory of `mcp-lens serve` (dist/cli.js, over stdio, keyword
 * mode) on 22 servers — the 19-server replay of the recorded workspace (test/fixtures/servers/
 * replay.mjs, one process per server) plus the three real test servers (server-everything,
 * -filesystem, -memory) — side by side with a direct SDK client starting the same servers in
 * the same run, with and without one server that never answers initialize:
 *
 *  - first tools/list answered: process start → initialize → the first tools/list result (in
 *    search mode, the meta-tools): what the table calls the first answer, cold and warm;
 *  - first find_tools answer: process start → the first find_tools result (after that tools/list); warm: the catalog cache filled
 *    by one run before the measured ones (the answer must have matches); cold: a fresh state
 *    folder in each run, no catalog cache (the answer holds what is listed by then, maybe
 *    nothing: find_tools never waits for a server), with the matches it had;
 *  - all connected: process start → every server listed its tools (MCP Lens: its "[x] ready"
 *    log lines; direct: connect + tools/list of every server, in parallel; with the hanging
 *    server, every other one, the hanging one started by both all the same);
 *  - CPU: the MCP Lens process's own user+system time (children not counted) when it first
 *    answered and when every server was connected;
 *  - call overhead: get-sum on server-everything, direct vs through call_tool, interleaved, in
 *    every run without the hanging server (the median of the runs: one run's figure moves by
 *    a tenth of a millisecond with whatever else the machine does);
 *  - peak RSS: the MCP Lens process's high-water mark (VmHWM) at the end of a run.
 *
 *   node --import tsx bench/src/startup.ts [--runs N] [--calls N] [--json] [--write bench-results.md]
 *
 * Defaults: 5 runs, 300 calls (what `npm run bench:startup` records in bench-results.md).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { benchServers, configServers, type BenchServerEntry } from './benchServers';
import { writeSection } from './markdownSection';

const ROOT = resolve(__dirname, '../..');
const CLK_TCK = 100;

type Entry = BenchServerEntry;

export interface LensRun {
  /** Process start → the first tools/list answered (after initialize). */
  firstListMs: number;
  /** Tools in that first tools/list (the meta-tools in search mode). */
  firstListTools: number;
  cpuAtFirstListMs: number;
  /** Process start → the first find_tools answered. */
  firstAnswerMs: number;
  /** Matches in that first answer. */
  firstAnswerMatches: number;
  /** undefined when some server never connects (the hanging one). */
  allConnectedMs: number | undefined;
  connectedServers: number;
  cpuAtFirstAnswerMs: number;
  cpuAtAllConnectedMs: number | undefined;
  peakRssMb: number;
}

export interface StartupReport {
  servers: number;
  tools: number;
  runs: number;
  withoutHang: { lens: LensRun[]; directAllConnectedMs: number[] };
  /** The same 22 servers with no catalog cache (a fresh state folder each run), after the warm run. */
  cold: { lens: LensRun[] };
  withHang: { lens: LensRun[]; directAllButHangMs: number[] };
  /** Medians over the runs of each run's medians; `overheadPerRunMs`, each run's own. */
  overhead: {
    calls: number;
    directMedianMs: number;
    lensMedianMs: number;
    overheadMedianMs: number;
    overheadPerRunMs: number[];
  };
  /** The machine: cores, and its 1-minute load average when the runs began and ended (other work shifts every figure). */
  machine: { cores: number; loadBefore: number; loadAfter: number };
}

export interface BenchWorkspace {
  dir: string;
  config: string;
  servers: Record<string, Entry>;
  /** XDG_STATE_HOME for MCP Lens: its catalog cache lives under it. */
  state: string;
  /** XDG_CACHE_HOME: the CLI's code cache, made by the warm-up run and kept by every run after it (cold ones too). */
  cache: string;
}

export function workspace(withHang: boolean): BenchWorkspace {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-lens-startup-'));
  mkdirSync(join(dir, '.vscode'));
  // Keyword mode: no embeddings (what the RSS target is about).
  writeFileSync(
    join(dir, '.vscode', 'settings.json'),
    JSON.stringify({ 'mcpLens.embedding.enabled': false, 'mcpLens.connectTimeoutSeconds': 600 }),
  );
  const s = benchServers(dir, withHang);
  const config = join(dir, 'mcp.json');
  writeFileSync(config, JSON.stringify({ servers: configServers(s) }));
  return { dir, config, servers: s, state: join(dir, 'state'), cache: join(dir, 'cache') };
}

/** utime + stime of a process, in ms. */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK;
}

function peakRssMb(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
}

/**
 * One start of `mcp-lens serve`; `onReady` runs the overhead measurement before it stops. The
 * warm-up (`coldCache`) lists every server once: its first answer comes before any server did
 * (find_tools never waits for one), so it may have no matches.
 */
async function lensRun(
  ws: Pick<BenchWorkspace, 'dir' | 'config' | 'state' | 'cache'>,
  expected: string[],
  onReady?: (client: Client) => Promise<void>,
  coldCache = false,
): Promise<LensRun> {
  const started = performance.now();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(ROOT, 'dist', 'cli.js'), 'serve', '--workspace', ws.dir, '--config', ws.config],
    cwd: ROOT,
    env: { ...process.env, MCP_LENS_LOG: 'info', XDG_STATE_HOME: ws.state, XDG_CACHE_HOME: ws.cache } as Record<
      string,
      string
    >,
    stderr: 'pipe',
  });
  const ready = new Set<string>();
  let allConnected: { ms: number; cpu: number } | undefined;
  let resolveAll!: () => void;
  const all = new Promise<void>((r) => (resolveAll = r));
  let pid = 0;
  let buffer = '';
  transport.stderr?.on('data', (d: Buffer) => {
    buffer += d.toString();
    for (const m of buffer.matchAll(/\] \[([^\]]+)\] ready: \d+ tools/g)) ready.add(m[1]!);
    buffer = buffer.slice(buffer.lastIndexOf('\n') + 1);
    if (!allConnected && expected.every((n) => ready.has(n))) {
      allConnected = { ms: performance.now() - started, cpu: pid ? cpuMs(pid) : NaN };
      resolveAll();
    }
  });
  const client = new Client({ name: 'mcp-lens-startup-bench', version: '1.0.0' });
  await client.connect(transport);
  pid = transport.pid ?? 0;
  const listed = await client.listTools();
  const firstListMs = performance.now() - started;
  const cpuAtFirstListMs = cpuMs(pid);
  const found = (await client.callTool({
    name: 'find_tools',
    arguments: { query: 'create an issue in a repository' },
  })) as CallToolResult;
  const firstAnswerMs = performance.now() - started;
  const cpuAtFirstAnswerMs = cpuMs(pid);
  const matches = (found.structuredContent as { matches?: unknown[] } | undefined)?.matches?.length ?? 0;
  if (matches === 0 && !coldCache)
    throw new Error(`the first find_tools answer had no matches: ${JSON.stringify(found).slice(0, 300)}`);
  const connectedOrTimeout = await Promise.race([
    all.then(() => true),
    new Promise<boolean>((r) => setTimeout(() => r(false), 60_000).unref()),
  ]);
  if (!connectedOrTimeout)
    throw new Error(
      `not every server connected within 60 s: missing ${expected.filter((n) => !ready.has(n)).join(', ')}`,
    );
  if (onReady) await onReady(client);
  const rss = peakRssMb(pid);
  await client.close();
  return {
    firstListMs,
    firstListTools: listed.tools.length,
    cpuAtFirstListMs,
    firstAnswerMs,
    firstAnswerMatches: matches,
    allConnectedMs: allConnected?.ms,
    connectedServers: ready.size,
    cpuAtFirstAnswerMs,
    cpuAtAllConnectedMs: allConnected?.cpu,
    peakRssMb: rss,
  };
}

/**
 * A direct SDK client per server, connected and listed in parallel: ms until all are done. A
 * server named in `notAwaited` (the hanging one) is started too, as MCP Lens starts it, but not
 * waited for.
 */
async function directRun(
  entries: Record<string, Entry>,
  keep?: string,
  notAwaited?: string,
): Promise<{ ms: number; tools: number; kept?: Client; close(): Promise<void> }> {
  const started = performance.now();
  const clients: Client[] = [];
  let kept: Client | undefined;
  const counts = await Promise.all(
    Object.entries(entries).map(async ([name, e]) => {
      const client = new Client({ name: 'direct', version: '1.0.0' });
      const connected = client.connect(
        new StdioClientTransport({
          command: e.command,
          args: e.args,
          env: { ...(process.env as Record<string, string>), ...e.env },
          stderr: 'ignore',
        }),
      );
      clients.push(client);
      if (name === notAwaited) {
        connected.catch(() => undefined);
        return 0;
      }
      await connected;
      if (name === keep) kept = client;
      return (await client.listTools()).tools.length;
    }),
  );
  const ms = performance.now() - started;
  return {
    ms,
    tools: counts.reduce((a, b) => a + b, 0),
    ...(kept && { kept }),
    close: async () => void (await Promise.all(clients.map((c) => c.close().catch(() => undefined)))),
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

/** Interleaved get-sum calls: direct on `direct`, through call_tool on `lens`. */
async function overhead(
  direct: Client,
  lens: Client,
  calls: number,
): Promise<Omit<StartupReport['overhead'], 'overheadPerRunMs'>> {
  const found = (await lens.callTool({
    name: 'find_tools',
    arguments: { query: 'sum of two numbers', server: 'test-everything' },
  })) as CallToolResult;
  const sum = (found.structuredContent as { matches: { name: string }[] }).matches.find((m) =>
    /sum/.test(m.name),
  )?.name;
  if (!sum) throw new Error('find_tools found no get-sum');
  const d: number[] = [];
  const l: number[] = [];
  for (let i = 0; i < calls + 20; i++) {
    let t = performance.now();
    await direct.callTool({ name: 'get-sum', arguments: { a: i, b: 1 } });
    const dt = performance.now() - t;
    t = performance.now();
    const r = (await lens.callTool({
      name: 'call_tool',
      arguments: { tool_name: sum, arguments: { a: i, b: 1 } },
    })) as CallToolResult;
    const lt = performance.now() - t;
    if (r.isError) throw new Error(`call_tool failed: ${JSON.stringify(r.content)}`);
    if (i >= 20) (d.push(dt), l.push(lt));
  }
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return {
    calls,
    directMedianMs: round(median(d)),
    lensMedianMs: round(median(l)),
    overheadMedianMs: round(median(l) - median(d)),
  };
}

export const DEFAULT_RUNS = 5;
export const DEFAULT_CALLS = 300;

export async function measureStartup(runs = DEFAULT_RUNS, calls = DEFAULT_CALLS): Promise<StartupReport> {
  const loadBefore = loadavg()[0]!;
  const plain = workspace(false);
  const hanging = workspace(true);
  try {
    const names = Object.keys(plain.servers);
    // Warm-up, twice per workspace. The first start fills the catalog cache (and the OS file
    // cache), but closes once every server is up, before its index read the complete catalog
    // (that sync waits for the servers to settle): the catalog's reading (catalog-tokens.json)
    // is not kept yet. The second start's find_tools reads the cached catalog and keeps its
    // reading as it closes, so the first measured warm run is a warm start's usual case, as
    // every later one is (startupProfile.ts warms up the same way).
    process.stderr.write('startup bench: warm-up runs…\n');
    for (let i = 0; i < 2; i++) {
      await lensRun(plain, names, undefined, true);
      await lensRun(hanging, names, undefined, true);
    }
    const report: StartupReport = {
      machine: { cores: availableParallelism(), loadBefore, loadAfter: NaN },
      servers: names.length,
      tools: 0,
      runs,
      withoutHang: { lens: [], directAllConnectedMs: [] },
      cold: { lens: [] },
      withHang: { lens: [], directAllButHangMs: [] },
      overhead: { calls, directMedianMs: NaN, lensMedianMs: NaN, overheadMedianMs: NaN, overheadPerRunMs: [] },
    };
    const perRun: Omit<StartupReport['overhead'], 'overheadPerRunMs'>[] = [];
    for (let i = 0; i < runs; i++) {
      process.stderr.write(`startup bench: run ${i + 1}/${runs}…\n`);
      const direct = await directRun(plain.servers, 'test-everything');
      report.tools = direct.tools;
      report.withoutHang.directAllConnectedMs.push(direct.ms);
      report.withoutHang.lens.push(
        await lensRun(plain, names, async (lens) => void perRun.push(await overhead(direct.kept!, lens, calls))),
      );
      await direct.close();
      // Cold: nothing cached, so the first answer comes before, or while, the servers list.
      const cold = { ...plain, state: mkdtempSync(join(plain.dir, 'cold-state-')) };
      report.cold.lens.push(await lensRun(cold, names, undefined, true));
      rmSync(cold.state, { recursive: true, force: true });
      // With a hanging server, the direct client's "all" can only be all but that one.
      const directHang = await directRun(hanging.servers, undefined, 'test-hang');
      report.withHang.directAllButHangMs.push(directHang.ms);
      await directHang.close();
      report.withHang.lens.push(await lensRun(hanging, names));
    }
    const round = (x: number) => Math.round(x * 1000) / 1000;
    report.overhead = {
      calls,
      directMedianMs: round(median(perRun.map((r) => r.directMedianMs))),
      lensMedianMs: round(median(perRun.map((r) => r.lensMedianMs))),
      overheadMedianMs: round(median(perRun.map((r) => r.overheadMedianMs))),
      overheadPerRunMs: perRun.map((r) => r.overheadMedianMs),
    };
    report.machine.loadAfter = loadavg()[0]!;
    return report;
  } finally {
    rmSync(plain.dir, { recursive: true, force: true });
    rmSync(hanging.dir, { recursive: true, force: true });
  }
}

export function formatStartupMarkdown(r: StartupReport): string {
  const ms = (x: number | undefined) => (x === undefined || Number.isNaN(x) ? 'n/a' : `${Math.round(x)} ms`);
  const med = (xs: (number | undefined)[]) => median(xs.filter((x): x is number => x !== undefined));
  const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
  const row = (label: string, cache: string, lens: LensRun[], direct: number[], directLabel: string) => {
    const list = med(lens.map((x) => x.firstListMs));
    const first = med(lens.map((x) => x.firstAnswerMs));
    const all = med(lens.map((x) => x.allConnectedMs));
    const matches = med(lens.map((x) => x.firstAnswerMatches));
    const cpu = [(x) => x.cpuAtFirstListMs, (x) => x.cpuAtFirstAnswerMs, (x) => x.cpuAtAllConnectedMs] satisfies ((
      x: LensRun,
    ) => number | undefined)[];
    return `| ${label} | ${cache} | ${ms(list)} (${med(lens.map((x) => x.firstListTools))} tools) | ${ratio(list, med(direct))} | ${ms(first)} (${matches} matches) | ${ratio(first, med(direct))} | ${ms(all)} | ${ms(med(direct))} (${directLabel}) | ${ratio(all, med(direct))} | ${cpu.map((f) => ms(med(lens.map(f)))).join(' / ')} | ${Math.max(...lens.map((x) => x.peakRssMb))} MB |`;
  };
  return [
    '## Start-up, call overhead and memory (`npm run bench:startup`)',
    '',
    `\`mcp-lens serve\` (dist/cli.js, stdio, keyword mode) on ${r.servers} servers with ${r.tools} tools: the 19-server replay of the recorded workspace plus server-everything, -filesystem and -memory; a direct SDK client starts the same servers in the same run (connect + tools/list of every server, in parallel). Warm: the catalog cache of one run before; cold: a fresh state folder in each run, no catalog cache (the code cache in the user's cache folder, made by the warm-up run, is kept: cold is a new workspace, not a first start after install). Medians of ${r.runs} runs; times from process start; the first tools/list answered (after initialize: in search mode, the meta-tools; the issue's "first answer"), the first find_tools answered (after that tools/list) and all connected given as ratios to the direct client's time to list every tool in the same run (goals: first answer ≤ 0.07×, all connected ≤ 1.1×).`,
    '',
    '| servers | catalog cache | first tools/list answered | ratio | first find_tools answer | ratio | all connected (MCP Lens) | all connected (direct client) | ratio | MCP Lens CPU at first tools/list / first find_tools / all connected | peak RSS |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    row(`${r.servers}`, 'warm', r.withoutHang.lens, r.withoutHang.directAllConnectedMs, 'all'),
    row(`${r.servers}`, 'cold', r.cold.lens, r.withoutHang.directAllConnectedMs, 'all'),
    row(
      `${r.servers} + 1 hanging`,
      'warm',
      r.withHang.lens,
      r.withHang.directAllButHangMs,
      'all but the hanging one, which it starts too',
    ),
    '',
    `Call overhead (get-sum on server-everything, ${r.overhead.calls} calls each way, interleaved, in each run without the hanging server; medians of the runs' medians): direct ${r.overhead.directMedianMs} ms, through call_tool ${r.overhead.lensMedianMs} ms, overhead **${r.overhead.overheadMedianMs} ms** (per run: ${r.overhead.overheadPerRunMs.join(', ')} ms). MCP Lens logs at info here (the bench reads its "ready" lines); a call's own log line is at debug, so no call writes one.`,
    '',
    `CPU is the MCP Lens process alone (user + system; the servers it starts are not counted). Peak RSS is its VmHWM over the whole run (the highest of the runs), find_tools and the ${r.overhead.calls} calls included.`,
    '',
    `Machine: ${r.machine.cores} cores, 1-minute load average ${r.machine.loadBefore.toFixed(2)} when the bench began and ${r.machine.loadAfter.toFixed(2)} when it ended (its own processes count in the second).`,
  ].join('\n');
}

if (require.main === module) {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: String(DEFAULT_RUNS) },
      calls: { type: 'string', default: String(DEFAULT_CALLS) },
      json: { type: 'boolean', default: false },
      write: { type: 'string' },
    },
  });
  measureStartup(Number(values.runs), Number(values.calls)).then(
    (r) => {
      const md = formatStartupMarkdown(r);
      process.stdout.write(values.json ? `${JSON.stringify(r, null, 2)}\n` : `${md}\n`);
      if (values.write) writeSection(resolve(values.write), 'startup', md);
    },
    (err: unknown) => {
      process.stderr.write(`startup bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
