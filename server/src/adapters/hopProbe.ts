/**
 * A bench-only probe of where a call's wall-clock time goes inside `mcp-lens serve`: the
 * moments a client's request chunk is read, the request is handed to the upstream pipe's write
 * and that write returns, the upstream's reply chunk is read, the reply is handed to stdout's
 * write and that write returns, and the first check phase (setImmediate) after each write (what
 * the process still does then: microtasks, deferred work), plus the garbage collector's pauses.
 * Off unless the serve process was started with MCP_LENS_HOP_PROBE=FILE (read once, by the
 * entry point: startHopProbe); off, each stamp is one test of a module variable. The stamps are
 * written to FILE as JSON when the process exits (server/src/bench/gatewayOverhead.ts reads
 * them). Nothing about a call's content is kept: only times.
 */
import { writeFileSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';

export const HOP_PROBE_ENV = 'MCP_LENS_HOP_PROBE';

/** The moments stamped, in the order a call passes them. */
export const Hop = {
  RequestRead: 0,
  UpstreamWritten: 1,
  ReplyRead: 2,
  ReplyWritten: 3,
  /** The first setImmediate after the reply was written. */
  AfterReply: 4,
  /** The write calls returned (a write to a pipe may wake its reader and give it the CPU). */
  UpstreamWriteReturned: 5,
  ReplyWriteReturned: 6,
  /** The first setImmediate after the request was written upstream. */
  AfterRequest: 7,
} as const;

const MOMENTS = 8;
/** Where a row keeps the process's CPU time (user + system, µs) when its request was read. */
export const CPU_AT_REQUEST = MOMENTS;
export type Hop = (typeof Hop)[keyof typeof Hop];

/**
 * What the probe file holds: one row per call, its moments in nanoseconds after its request
 * was read (-1: not seen), and at CPU_AT_REQUEST the process's CPU time then (µs).
 */
export interface HopProbeFile {
  rows: number[][];
  gcMs: number[];
}

interface ProbeState {
  file: string;
  rows: number[][];
  row: bigint[] | undefined;
  gcMs: number[];
}

let probe: ProbeState | undefined;

/** Starts the probe when the environment asks for it (the serve entry point calls this once). */
export function startHopProbe(env: NodeJS.ProcessEnv): void {
  const file = env[HOP_PROBE_ENV];
  if (!file || probe) return;
  const state: ProbeState = { file, rows: [], row: undefined, gcMs: [] };
  probe = state;
  const gc = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) state.gcMs.push(entry.duration);
  });
  gc.observe({ entryTypes: ['gc'] });
  process.on('exit', () => {
    gc.disconnect();
    flushRow(state);
    const out: HopProbeFile = { rows: state.rows, gcMs: state.gcMs };
    writeFileSync(state.file, JSON.stringify(out));
  });
}

/** Stamps a moment of the current call (a request read begins a new one). */
export function hop(at: Hop): void {
  if (!probe) return;
  stamp(probe, at);
}

function stamp(state: ProbeState, at: Hop): void {
  const now = process.hrtime.bigint();
  if (at === Hop.RequestRead) {
    flushRow(state);
    const cpu = process.cpuUsage();
    state.row = Array.from({ length: MOMENTS + 1 }, (_, i) =>
      i === 0 ? now : i === CPU_AT_REQUEST ? BigInt(cpu.user + cpu.system) : -1n,
    );
    return;
  }
  const row = state.row;
  if (!row || row[at] !== -1n) return; // the first of each moment counts
  row[at] = now;
  if (at === Hop.UpstreamWritten) setImmediate(() => stampOnce(row, Hop.AfterRequest));
  if (at === Hop.ReplyWritten) setImmediate(() => stampOnce(row, Hop.AfterReply));
}

function stampOnce(row: bigint[], at: Hop): void {
  if (row[at] === -1n) row[at] = process.hrtime.bigint();
}

function flushRow(state: ProbeState): void {
  const row = state.row;
  state.row = undefined;
  if (!row) return;
  const start = row[0]!;
  state.rows.push(
    row.map((t, i) => (i === 0 ? 0 : i === CPU_AT_REQUEST ? Number(t) : t === -1n ? -1 : Number(t - start))),
  );
}
