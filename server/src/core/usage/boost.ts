/**
 * Fuses a usage prediction into a query's ranked candidates. The boost only re-ranks
 * candidates already in the query's top N, so a tool the session uses a lot can never jump
 * ahead of the results for a query that has nothing to do with it; with no prediction the
 * candidates come back unchanged (cold start = search alone).
 */
import type { RankedTool } from '../search/types';
import type { Prediction } from './types';

export interface BoostOptions {
  /** Weight of the usage score against the query score, both normalized to 0..1. */
  weight: number;
  /** Only candidates at positions < topN are eligible for a boost. */
  topN: number;
}

/**
 * Chosen with bench/src/predict.ts (`mcp-lens bench --all --predict`; figures in
 * bench-results.md): a larger topN or weight gains a little more on the datasets but lets a tool
 * at half the top score overtake it, which is what an unrelated query must not see.
 */
export const DEFAULT_BOOST: BoostOptions = { weight: 0.3, topN: 10 };

/**
 * Re-ranks the first `topN` candidates by `score/maxScore + weight * prediction/maxPrediction`,
 * marks boosted ones with the 'usage' signal and the prediction's reason, and keeps scores on
 * the candidates' own scale. Candidates past `topN` keep their place after the re-ranked head.
 */
export function usageBoost(
  candidates: RankedTool[],
  prediction: readonly Prediction[],
  options: BoostOptions = DEFAULT_BOOST,
): RankedTool[] {
  if (prediction.length === 0 || candidates.length === 0 || options.weight <= 0) return candidates;
  const predicted = new Map(prediction.map((p) => [p.key, p]));
  const maxPred = Math.max(...prediction.map((p) => p.score));
  const head = candidates.slice(0, Math.max(0, options.topN));
  const maxScore = Math.max(...head.map((c) => c.score));
  if (!(maxPred > 0) || !(maxScore > 0) || !head.some((c) => predicted.has(c.key))) return candidates;
  const rescored = head.map((c, position) => {
    const p = predicted.get(c.key);
    const usage = p ? (options.weight * p.score) / maxPred : 0;
    const score = (c.score / maxScore + usage) * maxScore;
    const tool: RankedTool = p
      ? {
          ...c,
          score,
          signals: c.signals.includes('usage') ? c.signals : [...c.signals, 'usage'],
          why: c.why ? `${c.why}; ${p.reason}` : p.reason,
        }
      : c;
    return { tool, score, position };
  });
  // Stable: equal scores keep the query's order.
  rescored.sort((a, b) => b.score - a.score || a.position - b.position);
  return [...rescored.map((r) => r.tool), ...candidates.slice(head.length)];
}
