/**
 * The on-disk shape of one call (short keys: the log holds up to hundreds of thousands) and
 * its validation when read back. No field can hold an argument value.
 */
import {
  CALL_OUTCOMES,
  SEARCH_RANK_KINDS,
  type CallOutcome,
  type SearchRank,
  type UsageEvent,
} from '../../core/usage/types';

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
  /** The call's SearchRank (a number or one of SEARCH_RANK_KINDS). Older logs may hold `f` (first rank yes/no): ignored, its rank is unknown. */
  r?: SearchRank;
}

/** Ranks beyond this are not real (find_tools answers at most 50). */
const MAX_RANK = 1000;

function isSearchRank(v: unknown): v is SearchRank {
  return (
    (typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= MAX_RANK) || SEARCH_RANK_KINDS.includes(v as never)
  );
}

export function toStored(e: UsageEvent): StoredCall {
  const r: StoredCall = {
    v: 1,
    s: e.sessionId,
    q: e.seq,
    k: e.toolKey,
    sv: e.server,
    at: e.at,
    d: e.durationMs,
    o: e.outcome,
  };
  if (e.argsHash !== undefined) r.h = e.argsHash;
  if (e.predicted !== undefined) r.p = e.predicted ? 1 : 0;
  if (e.searchRank !== undefined) r.r = e.searchRank;
  return r;
}

/** Validates a parsed line; undefined drops it. */
export function fromStored(value: unknown): UsageEvent | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const r = value as Partial<StoredCall>;
  if (r.v !== 1 || typeof r.s !== 'string' || typeof r.k !== 'string' || typeof r.sv !== 'string') return undefined;
  if (!Number.isFinite(r.q) || !Number.isFinite(r.at) || !Number.isFinite(r.d)) return undefined;
  if (!CALL_OUTCOMES.includes(r.o as CallOutcome)) return undefined;
  const e: UsageEvent = {
    sessionId: r.s,
    seq: r.q!,
    toolKey: r.k,
    server: r.sv,
    at: r.at!,
    durationMs: r.d!,
    outcome: r.o!,
  };
  if (typeof r.h === 'string') e.argsHash = r.h;
  if (r.p === 0 || r.p === 1) e.predicted = r.p === 1;
  if (isSearchRank(r.r)) e.searchRank = r.r;
  return e;
}
