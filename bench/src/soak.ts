/**
 * A long run of steady, moderate load on a real sidecar (`node dist/cli.js serve --http` over
 * server-everything, server-memory and server-filesystem), reporting its RSS over time, so a
 * leak shows as a rising line. Each sample period also opens and closes a few MCP sessions, as
 * editors and agents do. Prints one line per sample and a summary with the RSS trend.
 *
 *   node esbuild.mjs server && node --import tsx bench/src/soak.ts [--minutes 60] [--sample-seconds 30] [--workers 10]
 */
import { resolve } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { benchCalls, flagValue, startSidecar } from './sidecarProcess';

export interface SoakSample {
  minute: number;
  rssMb: number;
  requests: number;
  errors: number;
}

export interface SoakReport {
  minutes: number;
  samples: SoakSample[];
  requests: number;
  errors: number;
  rss: { firstMb: number; lastMb: number; maxMb: number; vmHwmMb: number };
  /** Least-squares slope of RSS over the second half of the run, MB per hour. */
  secondHalfSlopeMbPerHour: number;
}

export interface SoakOptions {
  root: string;
  minutes: number;
  sampleSeconds: number;
  /** Workers per kind (find_tools, call_tool). */
  workers: number;
  onSample?: (s: SoakSample) => void;
}

export async function runSoak(o: SoakOptions): Promise<SoakReport> {
  const sidecar = await startSidecar(o.root);
  try {
    const clients: Client[] = await Promise.all(Array.from({ length: 4 }, () => sidecar.connect()));
    const calls = await benchCalls(clients[0]!, sidecar.filesDir);
    const counts = { requests: 0, errors: 0 };
    const started = Date.now();
    const deadline = started + o.minutes * 60_000;
    const once = async (op: () => Promise<unknown>) => {
      try {
        const r = (await op()) as CallToolResult;
        if (r.isError) counts.errors++;
      } catch {
        counts.errors++;
      }
      counts.requests++;
    };
    const worker = async (i: number) => {
      const client = clients[i % clients.length]!;
      for (let n = i; Date.now() < deadline; n++) {
        const c = calls[n % calls.length]!;
        await once(() =>
          client.callTool({ name: 'find_tools', arguments: { query: `tool number ${n % 50} add read store` } }),
        );
        await once(() => client.callTool({ name: 'call_tool', arguments: { tool_name: c.name, arguments: c.args } }));
      }
    };
    const samples: SoakSample[] = [];
    const sample = async () => {
      // Session churn: a client connects, searches once and leaves, every period.
      for (let k = 0; k < 3; k++) {
        const c = await sidecar.connect();
        await once(() => c.callTool({ name: 'find_tools', arguments: { query: 'echo' } }));
        await c.close();
      }
      const s = {
        minute: Math.round(((Date.now() - started) / 60_000) * 100) / 100,
        rssMb: sidecar.memory().rssMb,
        requests: counts.requests,
        errors: counts.errors,
      };
      samples.push(s);
      o.onSample?.(s);
    };
    const sampler = (async () => {
      await sample();
      while (Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, Math.min(o.sampleSeconds * 1000, Math.max(0, deadline - Date.now()))));
        await sample();
      }
    })();
    await Promise.all([...Array.from({ length: o.workers }, (_, i) => worker(i)), sampler]);
    const rss = samples.map((s) => s.rssMb);
    return {
      minutes: o.minutes,
      samples,
      requests: counts.requests,
      errors: counts.errors,
      rss: {
        firstMb: rss[0]!,
        lastMb: rss[rss.length - 1]!,
        maxMb: Math.max(...rss),
        vmHwmMb: sidecar.memory().peakMb,
      },
      secondHalfSlopeMbPerHour: slopePerHour(samples.slice(Math.floor(samples.length / 2))),
    };
  } finally {
    await sidecar.close();
  }
}

function slopePerHour(samples: SoakSample[]): number {
  if (samples.length < 2) return 0;
  const xs = samples.map((s) => s.minute / 60);
  const ys = samples.map((s) => s.rssMb);
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let num = 0;
  let den = 0;
  for (let i = 0; i < xs.length; i++) {
    num += (xs[i]! - mx) * (ys[i]! - my);
    den += (xs[i]! - mx) ** 2;
  }
  return den === 0 ? 0 : Math.round((num / den) * 10) / 10;
}

if (require.main === module) {
  const argv = process.argv.slice(2);
  const options: SoakOptions = {
    root: resolve(__dirname, '../..'),
    minutes: flagValue(argv, 'minutes', 60),
    sampleSeconds: flagValue(argv, 'sample-seconds', 30),
    workers: flagValue(argv, 'workers', 10),
    onSample: (s) =>
      process.stdout.write(
        `${s.minute.toFixed(2).padStart(7)} min  RSS ${String(s.rssMb).padStart(4)} MB  ${s.requests} requests  ${s.errors} errors\n`,
      ),
  };
  runSoak(options).then(
    (r) => {
      process.stdout.write(
        `soak: ${r.minutes} min, ${r.requests} requests, ${r.errors} errors; sidecar RSS first ${r.rss.firstMb} MB, last ${r.rss.lastMb} MB, max ${r.rss.maxMb} MB, VmHWM ${r.rss.vmHwmMb} MB; ` +
          `second-half trend ${r.secondHalfSlopeMbPerHour} MB/hour\n`,
      );
      if (r.errors > 0) process.exitCode = 1;
    },
    (err: unknown) => {
      process.stderr.write(`soak failed: ${err instanceof Error ? err.stack : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
