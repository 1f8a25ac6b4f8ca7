/**
 * Stage 4 of the ranking (rankingPipeline.ts): usage signals, what a session or a workspace has
 * shown it uses. The one that ships is the session boost (core/usage/boost.ts, through
 * UsageTracker.searchSignal): a session's likely next tools move up within what the request
 * found. The caller passes the signals with each search (SearchOptions.usage), since they live
 * in the usage layer, beside the index and not under it.
 */
import type { RankedTool, UsageRequest, UsageSignal } from './types';

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
