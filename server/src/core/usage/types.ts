/**
 * Usage-learning contracts: what a recorded tool call looks like once it is in memory, and
 * the one interface every prediction strategy implements. Pure: no I/O here.
 */

/** How a call through the gateway ended. */
export type CallOutcome = 'ok' | 'error' | 'timeout' | 'cancelled' | 'invalid';

export const CALL_OUTCOMES: readonly CallOutcome[] = ['ok', 'error', 'timeout', 'cancelled', 'invalid'];

/** One tool call as stored. Argument values never appear; `argsHash` is a salted HMAC at most. */
export interface UsageEvent {
  sessionId: string;
  /** 1-based position of the call within its session. */
  seq: number;
  /** Catalog key `server/originalName`, compared whole. */
  toolKey: string;
  server: string;
  /** Epoch ms the call started. */
  at: number;
  durationMs: number;
  outcome: CallOutcome;
  /** HMAC-SHA256 of the canonical arguments with the store's salt, hex; for de-duplication only. */
  argsHash?: string;
  /** Whether the tool was in the session's top-K prediction made before the call. */
  predicted?: boolean;
  /**
   * Agent calls only (through the gateway): where the tool stood in the session's most recent
   * find_tools answer (see retrieval.ts). Absent for dashboard and palette calls.
   */
  searchRank?: SearchRank;
}

/**
 * A call against its session's last find_tools answer: the tool's 1-based rank there, `missed`
 * (not in the answer), `unsearched` (no find_tools before it in the session) or `followUp`
 * (the answer was already judged by an earlier call).
 */
export type SearchRank = number | 'missed' | 'unsearched' | 'followUp';

/** The kinds of SearchRank that are not a rank. */
export const SEARCH_RANK_KINDS: readonly Exclude<SearchRank, number>[] = ['missed', 'unsearched', 'followUp'];

/** One ranked guess at a tool the session will call. */
export interface Prediction {
  key: string;
  score: number;
  /** Short human text, e.g. `often used after kubectl_get`. */
  reason: string;
}

/** What a predictor knows about the moment it predicts for. */
export interface PredictContext {
  /** Keys called so far in this session, in order (oldest first). */
  sessionTools: readonly string[];
  /** Epoch ms, for time decay. */
  now: number;
}

/** The minimum a predictor needs of a call. */
export interface ObservedCall {
  sessionId: string;
  toolKey: string;
  at: number;
  /** The tool's server, for strategies that group by server. */
  server?: string | undefined;
}

/**
 * A prediction strategy. `observe` is incremental: calls arrive in time order per session
 * (calls of different sessions may interleave). `predict` returns at most k tools, best first,
 * never with a score of zero.
 */
export interface Predictor {
  observe(calls: Iterable<ObservedCall>): void;
  predict(context: PredictContext, k: number): Prediction[];
  /** Forgets everything (used by `clear()` and after retention pruning). */
  reset(): void;
}
