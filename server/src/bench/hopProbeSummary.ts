/**
 * Reads the gateway's hop probe (adapters/hopProbe.ts) after a gatewayOverhead run and splits a
 * call's wall-clock time, median per part:
 *   request in gateway:  request chunk read → request handed to the upstream write (our work, one way);
 *   upstream round trip: written upstream → the upstream's reply chunk read (the pipe both ways,
 *     the upstream's own work, waking this process);
 *   reply in gateway:    reply chunk read → reply handed to the stdout write (our work, other way);
 *   tail:                reply written → the next check phase (microtasks and deferred work
 *     the call left behind: usage learning, the call's log line); the same after the request;
 *   write calls:         how long each write call took to return (a pipe write may hand the
 *     CPU to the process it wakes);
 *   outside gateway:     the client's timed call minus request read → reply written (the client's
 *     SDK, both client pipes, waking the gateway and the client).
 */
import { existsSync, readFileSync } from 'node:fs';
import { CPU_AT_REQUEST, type HopProbeFile } from '../adapters/hopProbe';

export interface HopSummary {
  calls: number;
  requestInGatewayMs: number;
  upstreamRoundTripMs: number;
  replyInGatewayMs: number;
  tailMs: number;
  /** Upstream write → the next check phase: what the gateway still does while the upstream works. */
  requestTailMs: number;
  /** How long the two write calls took to return (a pipe write may hand the CPU to its reader). */
  upstreamWriteCallMs: number;
  replyWriteCallMs: number;
  outsideGatewayMs: number;
  /** The gateway's CPU time (user + system) from one timed request to the next: all a call costs it, tails included. */
  cpuPerCallMs: number;
  /** GC pauses in the gateway over the whole run: how many, total ms, the longest. */
  gc: { count: number; totalMs: number; maxMs: number };
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return Math.round((s[Math.floor(s.length / 2)] ?? 0) * 1000) / 1000;
}

/** `clientMs`: the timed calls through the gateway, in order; the probe's last complete rows are theirs. */
export function summarizeHops(file: string, clientMs: number[]): HopSummary {
  if (!existsSync(file)) throw new Error(`the gateway wrote no hop probe file (${file}): did it exit cleanly?`);
  const probe = JSON.parse(readFileSync(file, 'utf8')) as HopProbeFile;
  const complete = probe.rows.filter(
    (r) =>
      r[1]! > 0 &&
      r[2]! > r[1]! &&
      r[3]! > r[2]! &&
      r[4]! >= r[3]! &&
      r[5]! >= r[1]! &&
      r[6]! >= r[3]! &&
      r[7]! >= r[1]!,
  );
  const rows = complete.slice(-clientMs.length);
  const cpu = rows.slice(1).map((r, i) => (r[CPU_AT_REQUEST]! - rows[i]![CPU_AT_REQUEST]!) / 1000);
  if (rows.length !== clientMs.length)
    throw new Error(`hop probe: ${rows.length} complete calls for ${clientMs.length} timed ones`);
  const ms = (ns: number) => ns / 1e6;
  const offset = clientMs.length - rows.length;
  return {
    calls: rows.length,
    requestInGatewayMs: median(rows.map((r) => ms(r[1]!))),
    upstreamRoundTripMs: median(rows.map((r) => ms(r[2]! - r[1]!))),
    replyInGatewayMs: median(rows.map((r) => ms(r[3]! - r[2]!))),
    tailMs: median(rows.map((r) => ms(r[4]! - r[3]!))),
    requestTailMs: median(rows.map((r) => ms(r[7]! - r[1]!))),
    upstreamWriteCallMs: median(rows.map((r) => ms(r[5]! - r[1]!))),
    replyWriteCallMs: median(rows.map((r) => ms(r[6]! - r[3]!))),
    outsideGatewayMs: median(rows.map((r, i) => clientMs[offset + i]! - ms(r[3]!))),
    cpuPerCallMs: median(cpu),
    gc: {
      count: probe.gcMs.length,
      totalMs: Math.round(probe.gcMs.reduce((a, b) => a + b, 0) * 1000) / 1000,
      maxMs: Math.round(Math.max(0, ...probe.gcMs) * 1000) / 1000,
    },
  };
}

export function formatHops(h: HopSummary): string {
  return [
    `where a call through MCP Lens goes (medians of ${h.calls} calls, hop probe):`,
    `  request in gateway   ${h.requestInGatewayMs} ms   (request chunk read → written upstream)`,
    `  after the request    ${h.requestTailMs} ms   (written upstream → next check phase, while the upstream works)`,
    `  upstream round trip  ${h.upstreamRoundTripMs} ms   (written upstream → reply chunk read)`,
    `  reply in gateway     ${h.replyInGatewayMs} ms   (reply chunk read → written to the client)`,
    `  tail after the reply ${h.tailMs} ms   (reply written → next check phase)`,
    `  write calls          ${h.upstreamWriteCallMs} ms upstream, ${h.replyWriteCallMs} ms to the client (until the call returned)`,
    `  outside the gateway  ${h.outsideGatewayMs} ms   (client SDK, client pipes, wake-ups)`,
    `  gateway CPU per call ${h.cpuPerCallMs} ms   (user + system, one timed request to the next)`,
    `  gateway GC: ${h.gc.count} pauses, ${h.gc.totalMs} ms in all, longest ${h.gc.maxMs} ms`,
  ].join('\n');
}
