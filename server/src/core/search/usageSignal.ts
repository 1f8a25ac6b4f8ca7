/**
 * Stage 4 of the ranking (rankingPipeline.ts): usage signals, what a session or a workspace has
 * shown it uses. The one that ships is the session boost (core/usage/boost.ts, through
 * UsageTracker.searchSignal): a session's likely next tools move up within what the request
 * found. The caller passes the signals with each search (SearchOptions.usage), since they live
 * in the usage layer, beside the index and not under it.
 */
import type { RankedTool } from './types';

/** What a usage signal sees of a search. */
export interface UsageRequest {
  /** The request's text: its query and keywords. */
  readonly text: string;
  readonly sessionId?: string;
  /** Only tools of this server may be answered. */
  readonly server?: string;
  /** How many tools the answer holds. */
  readonly limit: number;
  /** How many of the catalog's tools hold an index term (0 for a term none holds): a learned field's idf. */
  readonly documentFrequency: (term: string) => number;
  /**
   * The keyword ranking's first score (0 with no keyword hit): a signal that scores on the
   * keyword ranking's scale (a learned field) converts by it to the hits' (fused, in hybrid).
   */
  readonly keywordTop: number;
}

export interface UsageSignal {
  /**
   * The ranking after this signal: `hits` (best first, at most `limit`) re-ordered and
   * re-scored, and it may add tools the earlier stages did not find (e.g. ones a session's
   * words are learned to lead to). The pipeline keeps only keys of the catalog's tools, of
   * `server` when given, each once, and cuts to `limit`. Returns `hits` as they are when it has
   * nothing to say.
   */
  rerank(hits: readonly RankedTool[], request: UsageRequest): RankedTool[];
}

/**
 * Applies `signals` in order; what one adds that the catalog does not hold (`serverOf` answers
 * undefined) or that is outside `request.server` is dropped, as is a second hit for one key.
 */
export function applyUsageSignals(
  hits: readonly RankedTool[],
  signals: readonly UsageSignal[],
  request: UsageRequest,
  serverOf: (key: string) => string | undefined,
): RankedTool[] {
  let out = [...hits];
  for (const signal of signals) {
    const seen = new Set<string>();
    out = signal.rerank(out, request).filter((h) => {
      const server = serverOf(h.key);
      if (server === undefined || (request.server !== undefined && server !== request.server) || seen.has(h.key))
        return false;
      seen.add(h.key);
      return true;
    });
  }
  return out.slice(0, Math.max(0, request.limit));
}
