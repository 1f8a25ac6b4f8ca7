/**
 * Merging ranked lists from different signals (keyword, meaning, usage) into one ranking by
 * weighted reciprocal-rank fusion: score(tool) = Σ_lists weight / (k + rank), rank from 1.
 * RRF uses ranks, not raw scores, because BM25 scores and cosine similarities live on
 * different scales; k = 60 is the value from Cormack et al. (2009) that damps the head of
 * each list without flattening it.
 */
import type { MatchSignal } from '../../../../protocol/model';
import type { RankedTool } from './types';

/** One signal's ranked hits and how much that signal counts. */
export interface SignalList {
  signal: MatchSignal;
  weight: number;
  hits: RankedTool[];
}

export const DEFAULT_RRF_K = 60;

/**
 * Fuses ranked lists into the `limit` best tools. A tool's signals are the union of the
 * signals of the lists that ranked it (in list order) and its `why` joins their `why` texts.
 * Ties break by the best single rank, then by key, so the result is deterministic.
 */
export function fuseRankings(lists: SignalList[], limit: number, k: number = DEFAULT_RRF_K): RankedTool[] {
  const fused = new Map<string, { score: number; signals: MatchSignal[]; whys: string[]; bestRank: number }>();
  for (const list of lists) {
    if (list.weight <= 0) continue;
    list.hits.forEach((hit, i) => {
      const rank = i + 1;
      let entry = fused.get(hit.key);
      if (!entry) {
        entry = { score: 0, signals: [], whys: [], bestRank: rank };
        fused.set(hit.key, entry);
      }
      entry.score += list.weight / (k + rank);
      entry.bestRank = Math.min(entry.bestRank, rank);
      for (const s of hit.signals.length > 0 ? hit.signals : [list.signal])
        if (!entry.signals.includes(s)) entry.signals.push(s);
      if (hit.why && !entry.whys.includes(hit.why)) entry.whys.push(hit.why);
    });
  }
  return [...fused]
    .sort(([ka, a], [kb, b]) => b.score - a.score || a.bestRank - b.bestRank || (ka < kb ? -1 : ka > kb ? 1 : 0))
    .slice(0, Math.max(0, limit))
    .map(([key, e]) => ({ key, score: e.score, signals: e.signals, why: e.whys.join('; ') }));
}
