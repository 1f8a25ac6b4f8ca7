/**
 * The on-disk shape of one call (short keys: the log holds up to hundreds of thousands) and
 * its validation when read back. No field can hold an argument value.
 */
import { CALL_OUTCOMES, type CallOutcome, type UsageEvent } from '../../core/usage/types';

interface StoredCall {
  v: 1;
  s: string;
  q: number;
  k: string;
  sv: string;
  at: number;
  d: number;
  o: CallOutcome;
  h?: string;
  p?: 0 | 1;
  f?: 0 | 1;
}

export function toStored(e: UsageEvent): StoredCall {
  const r: StoredCall = { v: 1, s: e.sessionId, q: e.seq, k: e.toolKey, sv: e.server, at: e.at, d: e.durationMs, o: e.outcome };
  if (e.argsHash !== undefined) r.h = e.argsHash;
  if (e.predicted !== undefined) r.p = e.predicted ? 1 : 0;
  if (e.firstRank !== undefined) r.f = e.firstRank ? 1 : 0;
  return r;
}

/** Validates a parsed line; undefined drops it. */
export function fromStored(value: unknown): UsageEvent | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const r = value as Partial<StoredCall>;
  if (r.v !== 1 || typeof r.s !== 'string' || typeof r.k !== 'string' || typeof r.sv !== 'string') return undefined;
  if (!Number.isFinite(r.q) || !Number.isFinite(r.at) || !Number.isFinite(r.d)) return undefined;
  if (!CALL_OUTCOMES.includes(r.o as CallOutcome)) return undefined;
  const e: UsageEvent = { sessionId: r.s, seq: r.q!, toolKey: r.k, server: r.sv, at: r.at!, durationMs: r.d!, outcome: r.o! };
  if (typeof r.h === 'string') e.argsHash = r.h;
  if (r.p === 0 || r.p === 1) e.predicted = r.p === 1;
  if (r.f === 0 || r.f === 1) e.firstRank = r.f === 1;
  return e;
}
