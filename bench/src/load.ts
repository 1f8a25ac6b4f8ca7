/**
 * Load on a real sidecar: `node dist/cli.js serve --http` in front of server-everything,
 * server-memory and server-filesystem; N workers looping on find_tools and N on call_tool
 * (rotating over the three upstreams) over HTTP for a fixed time, spread over several MCP
 * sessions. Reports per kind: requests, errors (thrown or isError), p50/p99 latency; and the
 * sidecar's RSS (sampled from /proc/PID/status, plus the kernel's peak VmHWM).
 *
 *   node esbuild.mjs server && node --import tsx bench/src/load.ts [--seconds 60] [--concurrency 200] [--json]
 */
import { resolve } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { benchCalls, flagValue, percentile, startSidecar } from './sidecarProcess';

export interface LoadOptions {
  root: string;
  seconds: number;
  /** Workers per kind (find_tools and call_tool each get this many). */
  concurrency: number;
  /** MCP sessions the workers share. */
  sessions?: number;
}

export interface KindFigures {
  requests: number;
  errors: number;
  p50Ms: number;
  p99Ms: number;
  perSecond: number;
  /** Up to five distinct error texts, for the report. */
  errorSamples: string[];
}

export interface LoadReport {
  seconds: number;
  concurrency: number;
  sessions: number;
  findTools: KindFigures;
  callTool: KindFigures;
  rss: { startMb: number; peakSampledMb: number; endMb: number; vmHwmMb: number };
}

const QUERIES = [
  'add two numbers',
  'read a file',
  'store a fact in memory',
  'list directory',
  'echo a message',
  'search entities in the knowledge graph',
  'print environment',
  'long running operation',
];

/** An error's message and its causes: undici says only "fetch failed" and puts why (ECONNRESET, a timeout) in `cause`. */
function errorText(err: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = err, depth = 0; e !== undefined && depth < 4; depth++) {
    parts.push(e instanceof Error ? `${e.message}${'code' in e && e.code ? ` (${String(e.code)})` : ''}` : String(e));
    e = e instanceof Error ? e.cause : undefined;
  }
  return parts.join(': ');
}

class Kind {
  readonly latencies: number[] = [];
  errors = 0;
  readonly samples = new Set<string>();

  async run(op: () => Promise<CallToolResult>): Promise<void> {
    const t = performance.now();
    try {
      const r = await op();
      if (r.isError) this.fail(String((r.content?.[0] as { text?: string } | undefined)?.text ?? 'isError'));
    } catch (err) {
      this.fail(errorText(err));
    }
    this.latencies.push(performance.now() - t);
  }

  figures(seconds: number): KindFigures {
    return {
      requests: this.latencies.length,
      errors: this.errors,
      p50Ms: percentile(this.latencies, 50),
      p99Ms: percentile(this.latencies, 99),
      perSecond: Math.round(this.latencies.length / seconds),
      errorSamples: [...this.samples],
    };
  }

  private fail(message: string): void {
    this.errors++;
    if (this.samples.size < 5) this.samples.add(message.slice(0, 200));
  }
}

export async function runLoad(options: LoadOptions): Promise<LoadReport> {
  const sessions = options.sessions ?? 20;
  const sidecar = await startSidecar(options.root);
  try {
    const clients: Client[] = [];
    for (let i = 0; i < sessions; i++) clients.push(await sidecar.connect());
    const calls = await benchCalls(clients[0]!, sidecar.filesDir);
    const find = new Kind();
    const call = new Kind();
    const start = sidecar.memory().rssMb;
    let peak = start;
    const sampler = setInterval(() => (peak = Math.max(peak, sidecar.memory().rssMb)), 100);
    const deadline = Date.now() + options.seconds * 1000;
    const worker = async (i: number, kind: 'find' | 'call') => {
      const client = clients[i % sessions]!;
      for (let n = i; Date.now() < deadline; n++) {
        if (kind === 'find')
          await find.run(
            () =>
              client.callTool({
                name: 'find_tools',
                arguments: { query: QUERIES[n % QUERIES.length]! },
              }) as Promise<CallToolResult>,
          );
        else {
          const c = calls[n % calls.length]!;
          await call.run(
            () =>
              client.callTool({
                name: 'call_tool',
                arguments: { tool_name: c.name, arguments: c.args },
              }) as Promise<CallToolResult>,
          );
        }
      }
    };
    const started = performance.now();
    await Promise.all(
      Array.from({ length: options.concurrency }, (_, i) => [worker(i, 'find'), worker(i, 'call')]).flat(),
    );
    const elapsed = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const end = sidecar.memory();
    return {
      seconds: Math.round(elapsed * 10) / 10,
      concurrency: options.concurrency,
      sessions,
      findTools: find.figures(elapsed),
      callTool: call.figures(elapsed),
      rss: { startMb: start, peakSampledMb: Math.max(peak, end.rssMb), endMb: end.rssMb, vmHwmMb: end.peakMb },
    };
  } finally {
    await sidecar.close();
  }
}

export function formatLoad(r: LoadReport): string {
  const row = (label: string, k: KindFigures) =>
    `  ${label.padEnd(11)} ${String(k.requests).padStart(7)} requests  ${String(k.errors).padStart(4)} errors  p50 ${k.p50Ms} ms  p99 ${k.p99Ms} ms  ${k.perSecond}/s`;
  const lines = [
    `${r.concurrency} concurrent find_tools + ${r.concurrency} concurrent call_tool (everything, memory, files) for ${r.seconds} s over ${r.sessions} HTTP sessions:`,
    row('find_tools', r.findTools),
    row('call_tool', r.callTool),
    `  sidecar RSS: ${r.rss.startMb} MB at start, ${r.rss.peakSampledMb} MB peak (sampled), ${r.rss.endMb} MB at end, VmHWM ${r.rss.vmHwmMb} MB`,
  ];
  for (const s of [...r.findTools.errorSamples, ...r.callTool.errorSamples]) lines.push(`  error: ${s}`);
  return lines.join('\n');
}

if (require.main === module) {
  const argv = process.argv.slice(2);
  const options: LoadOptions = {
    root: resolve(__dirname, '../..'),
    seconds: flagValue(argv, 'seconds', 60),
    concurrency: flagValue(argv, 'concurrency', 200),
  };
  runLoad(options).then(
    (r) => {
      process.stdout.write((argv.includes('--json') ? JSON.stringify(r, null, 2) : formatLoad(r)) + '\n');
      if (r.findTools.errors + r.callTool.errors > 0) process.exitCode = 1;
    },
    (err: unknown) => {
      process.stderr.write(`load bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
