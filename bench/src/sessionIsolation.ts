/**
 * What one session can do to another on the same gateway: `node dist/cli.js serve --http` in
 * front of server-everything, -memory and -filesystem (sidecarProcess.ts), session A doing the
 * worst it can and session B, on its own MCP session over streamable HTTP, timing its answers.
 *
 * 1. Idle: B's find_tools latency (p50/p99), the gateway's RSS, and a trivial run_code
 *    (`return 1`) from A, end to end as the client sees it.
 * 2. Scripts: B's find_tools while A runs, one after another for the whole window, the worst
 *    script of each kind: a busy loop at the largest timeout, deep recursion in a loop, and a
 *    memory bomb. Each B figure is compared with its idle p99.
 * 3. select flood: A sends 24 selects that each run until the select deadline; B's trivial
 *    select, first answer and p50/p99.
 * 4. call flood: A sends 64 concurrent calls returning ~8 MB each (a 4 MB JSON file read
 *    through server-filesystem, which returns the text twice: content and structuredContent),
 *    each with a select; B's find_tools meanwhile and the gateway's RSS (sampled every 50 ms).
 *
 *   node esbuild.mjs server && node --import tsx bench/src/sessionIsolation.ts \
 *     [--root DIR] [--samples 200] [--window-ms 4000] [--only scripts,select,calls] [--json] [--write bench-results.md]
 *
 * --root: a folder with dist/cli.js and node_modules (another build, to compare). --only: the
 * sections after the idle one (default all).
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { flagValue, percentile, startSidecar, untilAllReady, type Sidecar } from './sidecarProcess';
import { writeSection } from './markdownSection';

interface Latency {
  first: number;
  p50: number;
  p99: number;
  max: number;
  n: number;
  /** Requests that got no answer (the connection dropped), timed until they failed. */
  failed: number;
}

export interface IsolationReport {
  idle: { findTools: Latency; rssMb: number; runCode: Latency };
  scripts?: { script: string; findTools: Latency; runs: number; outcome: string }[];
  selectFlood?: { sent: number; select: Latency; outcomes: Record<string, number> };
  callFlood?: {
    sent: number;
    findTools: Latency;
    rss: { beforeMb: number; peakMb: number; afterMb: number };
    outcomes: Record<string, number>;
    seconds: number;
  };
}

const QUERIES = ['add two numbers', 'read a file', 'store a fact in memory', 'list directory', 'echo a message'];
/** 2000³ steps, each small: runs until the select deadline stops it. */
const chars = "split(pad_left('a', `2000`), '')";
const TIME_BOMB = `length(map(&length(map(&length(map(&@, ${chars})), ${chars})), ${chars}))`;
const LONG = { timeout: 600_000 };

const SCRIPTS: { script: string; code: string; single: boolean }[] = [
  { script: 'busy loop, largest timeout', code: 'for (;;) {}', single: true },
  {
    script: 'deep recursion, in a loop',
    code: 'function f(n) { return n === 0 ? 0 : f(n - 1) + 1 } for (;;) { try { f(1e6) } catch (e) {} }',
    single: true,
  },
  {
    script: 'memory bomb, one after another',
    code: 'const hoard = []; for (;;) hoard.push(new Array(100000).fill(hoard.length));',
    single: false,
  },
];

function text(r: unknown): string {
  return ((r as CallToolResult).content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

/** Milliseconds per request; a request that failed is pushed as a negative time. */
function figures(signed: number[]): Latency {
  const ms = signed.map(Math.abs);
  return {
    failed: signed.filter((t) => t < 0).length,
    first: Math.round((ms[0] ?? 0) * 10) / 10,
    p50: percentile(ms, 50),
    p99: percentile(ms, 99),
    max: percentile(ms, 100),
    n: ms.length,
  };
}

/** The time `op` took; negative when it failed without an answer (a dropped connection). */
async function timed(op: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  let r: unknown;
  try {
    r = await op();
  } catch {
    return -(performance.now() - t);
  }
  if ((r as CallToolResult).isError) throw new Error(`unexpected error: ${text(r).slice(0, 300)}`);
  return performance.now() - t;
}

function findTools(b: Client, i: number): Promise<unknown> {
  return b.callTool({ name: 'find_tools', arguments: { query: QUERIES[i % QUERIES.length]! } }, undefined, LONG);
}

/** B's find_tools, `n` in a row. */
async function sampleFind(b: Client, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(await timed(() => findTools(b, i)));
  return out;
}

/** What a run ended with, in a few words: the limit it named, or ok. */
function outcome(r: CallToolResult | Error): string {
  if (r instanceof Error) return `thrown: ${r.message.slice(0, 60)}`;
  if (!r.isError) return 'ok';
  const t = text(r);
  return /limit: |limit per session|the limit for one select|the limit for one|limit is/.exec(t)
    ? t.slice(0, 90).replace(/\s+/g, ' ')
    : `error: ${t.slice(0, 90)}`;
}

function tally(outcomes: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const o of outcomes) out[o] = (out[o] ?? 0) + 1;
  return out;
}

async function idle(sidecar: Sidecar, a: Client, b: Client, samples: number): Promise<IsolationReport['idle']> {
  await sampleFind(b, 20);
  const find = figures(await sampleFind(b, samples));
  // Resident memory of a gateway that has answered searches and run no script yet.
  await new Promise((r) => setTimeout(r, 3000));
  const rssMb = sidecar.memory().rssMb;
  const run = () => a.callTool({ name: 'run_code', arguments: { code: 'return 1' } }, undefined, LONG);
  const runs: number[] = [];
  // The first run is timed too: with a sandbox started ahead, it costs what the others cost.
  for (let i = 0; i < 100; i++) runs.push(await timed(run));
  return { findTools: find, rssMb, runCode: figures(runs) };
}

async function underScripts(a: Client, b: Client, windowMs: number, samples: number) {
  const out: NonNullable<IsolationReport['scripts']> = [];
  for (const s of SCRIPTS) {
    let stop = false;
    const controller = new AbortController();
    const results: (CallToolResult | Error)[] = [];
    const once = () =>
      a
        .callTool({ name: 'run_code', arguments: { code: s.code, timeout_ms: 120_000 } }, undefined, {
          ...LONG,
          signal: controller.signal,
        })
        .then(
          (r) => results.push(r as CallToolResult),
          (err: Error) => results.push(err),
        );
    const loop = (async () => {
      do await once();
      while (!stop && !s.single);
    })();
    // Long enough for the script to be running before B starts.
    await new Promise((r) => setTimeout(r, 300));
    const ms: number[] = [];
    const until = performance.now() + windowMs;
    for (let i = 0; i < samples && (i < 5 || performance.now() < until); i++)
      ms.push(await timed(() => findTools(b, i)));
    stop = true;
    controller.abort();
    await loop;
    out.push({ script: s.script, findTools: figures(ms), runs: results.length, outcome: outcome(results[0]!) });
  }
  return out;
}

async function selectFlood(
  sidecar: Sidecar,
  a: Client,
  b: Client,
  read: string,
): Promise<NonNullable<IsolationReport['selectFlood']>> {
  const json = join(sidecar.filesDir, 'small.json');
  writeFileSync(json, JSON.stringify({ a: [...'abcdefghijklmnopqrstuvwxyz'] }));
  const select = (c: Client, expression: string, signal?: AbortSignal) =>
    c.callTool(
      { name: 'call_tool', arguments: { tool_name: read, arguments: { path: json }, select: expression } },
      undefined,
      { ...LONG, ...(signal && { signal }) },
    );
  await timed(() => select(b, 'length(a)'));
  const controller = new AbortController();
  const sent = 24;
  const flood = Array.from({ length: sent }, () =>
    select(a, TIME_BOMB, controller.signal).then(
      (r) => outcome(r as CallToolResult),
      (err: Error) => outcome(err),
    ),
  );
  await new Promise((r) => setTimeout(r, 300));
  const ms: number[] = [];
  for (let i = 0; i < 10; i++) ms.push(await timed(() => select(b, 'length(a)')));
  controller.abort();
  return { sent, select: figures(ms), outcomes: tally(await Promise.all(flood)) };
}

async function callFlood(
  sidecar: Sidecar,
  a: Client,
  b: Client,
  read: string,
): Promise<NonNullable<IsolationReport['callFlood']>> {
  const big = join(sidecar.filesDir, 'big.json');
  // 4 MB of numbers: no quotes, so the JSON-RPC text is no larger than the file.
  const numbers: number[] = [];
  for (let size = 2; size < 4 * 1024 * 1024; size += 8) numbers.push(1_000_000 + (numbers.length % 8_999_999));
  writeFileSync(big, JSON.stringify(numbers));
  const before = sidecar.memory().rssMb;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, sidecar.memory().rssMb)), 50);
  const sent = 64;
  const started = performance.now();
  let done = false;
  const flood = Promise.all(
    Array.from({ length: sent }, () =>
      a
        .callTool(
          { name: 'call_tool', arguments: { tool_name: read, arguments: { path: big }, select: 'length(@)' } },
          undefined,
          LONG,
        )
        .then(
          (r) => outcome(r as CallToolResult),
          (err: Error) => outcome(err),
        ),
    ),
  ).finally(() => (done = true));
  const ms: number[] = [];
  for (let i = 0; !done || i < 5; i++) ms.push(await timed(() => findTools(b, i)));
  const outcomes = await flood;
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  clearInterval(sampler);
  const after = sidecar.memory().rssMb;
  return {
    sent,
    findTools: figures(ms),
    rss: { beforeMb: before, peakMb: Math.max(peak, after), afterMb: after },
    outcomes: tally(outcomes),
    seconds,
  };
}

const SECTIONS = ['scripts', 'select', 'calls'] as const;
type Section = (typeof SECTIONS)[number];

export async function runIsolation(
  root: string,
  samples: number,
  windowMs: number,
  sections: readonly Section[] = SECTIONS,
): Promise<IsolationReport> {
  const sidecar = await startSidecar(root);
  try {
    const a = await sidecar.connect();
    const b = await sidecar.connect();
    await untilAllReady(b, 3);
    const found = (await b.callTool({
      name: 'find_tools',
      arguments: { query: 'read a text file', server: 'files', limit: 10 },
    })) as CallToolResult;
    const read = (found.structuredContent as { matches: { name: string }[] }).matches.find((m) =>
      /read_text_file$/.test(m.name),
    )!.name;
    const report: IsolationReport = { idle: await idle(sidecar, a, b, samples) };
    if (sections.includes('scripts')) report.scripts = await underScripts(a, b, windowMs, samples);
    if (sections.includes('select')) report.selectFlood = await selectFlood(sidecar, a, b, read);
    if (sections.includes('calls')) report.callFlood = await callFlood(sidecar, a, b, read);
    return report;
  } finally {
    await sidecar.close();
  }
}

export function formatIsolation(r: IsolationReport): string {
  const lat = (l: Latency) =>
    `first ${l.first} ms, p50 ${l.p50} ms, p99 ${l.p99} ms, max ${l.max} ms (n ${l.n}${l.failed ? `, ${l.failed} dropped without an answer` : ''})`;
  const list = (o: Record<string, number>) =>
    Object.entries(o)
      .map(([k, n]) => `${n}× ${k}`)
      .join('; ');
  const lines = [
    '## Session isolation (`node esbuild.mjs server && node --import tsx bench/src/sessionIsolation.ts --write bench-results.md`)',
    '',
    "`mcp-lens serve --http` (dist) in front of server-everything, -memory and -filesystem; two SDK sessions over streamable HTTP: A does the worst it can, B times its answers (sequential requests; first = B's first answer after A started; a dropped request is timed until it failed).",
    '',
    `- Idle: B's find_tools ${lat(r.idle.findTools)}; gateway RSS ${r.idle.rssMb} MB (before any script); A's trivial run_code (\`return 1\`) ${lat(r.idle.runCode)}.`,
  ];
  for (const s of r.scripts ?? []) {
    lines.push(
      `- A runs ${s.script} (${s.runs} run${s.runs === 1 ? '' : 's'}, first ended: ${s.outcome}): B's find_tools ${lat(s.findTools)}; p99 ${Math.round((s.findTools.p99 - r.idle.findTools.p99) * 10) / 10} ms over idle.`,
    );
  }
  const sf = r.selectFlood;
  if (sf) {
    lines.push(
      `- A sends ${sf.sent} selects that run to the deadline: B's trivial select ${lat(sf.select)}. A's: ${list(sf.outcomes)}.`,
    );
  }
  const cf = r.callFlood;
  if (cf) {
    lines.push(
      `- A sends ${cf.sent} calls of ~8 MB each with a select (${cf.seconds} s): B's find_tools ${lat(cf.findTools)}; RSS ${cf.rss.beforeMb} MB before, ${cf.rss.peakMb} MB peak, ${cf.rss.afterMb} MB after. A's: ${list(cf.outcomes)}.`,
    );
  }
  return lines.join('\n');
}

if (require.main === module) {
  const argv = process.argv.slice(2);
  const r = argv.indexOf('--root');
  const root = r >= 0 ? resolve(argv[r + 1]!) : resolve(__dirname, '../../..');
  const w = argv.indexOf('--write');
  const o = argv.indexOf('--only');
  const only = o >= 0 ? (argv[o + 1]!.split(',') as Section[]) : SECTIONS;
  runIsolation(root, flagValue(argv, 'samples', 200), flagValue(argv, 'window-ms', 4000), only).then(
    (report) => {
      const md = formatIsolation(report);
      process.stdout.write(argv.includes('--json') ? `${JSON.stringify(report, null, 2)}\n` : `${md}\n`);
      if (w >= 0) writeSection(resolve(argv[w + 1] ?? 'bench-results.md'), 'session-isolation', md);
    },
    (err: unknown) => {
      process.stderr.write(`session isolation bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
