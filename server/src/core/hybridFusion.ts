/**
 * How hybrid search merges the keyword and meaning rankings (pure). Keyword ranking is the
 * measured one (it beats plain BM25 on every shared set); embeddings could not be measured with
 * a real model where this was built. So fusion must never make the first answer worse than
 * keyword search alone would: the keyword ranking's first hit keeps first place unless the
 * meaning ranking strongly disagrees with it AND agrees with keyword search on another tool —
 * that tool is the meaning ranking's first, the keyword ranking has it near its own top, and the
 * keyword's first is nowhere near the meaning ranking's top. Below first place, the two
 * rankings are merged by weighted reciprocal-rank fusion (core/search/fusion.ts), where meaning
 * adds the tools whose descriptions use other words than the request.
 *
 * With no keyword hit at all (a request in words no tool uses), the meaning ranking alone answers.
 */
import { fuseRankings } from './search/fusion';
import type { RankedTool } from './search/types';

export interface HybridFusion {
  keyword: number;
  meaning: number;
  /** RRF's k. */
  k: number;
}

/** The meaning ranking's first can take first place only if keyword search has it this high (rank from 1). */
export const CHALLENGER_KEYWORD_RANK = 2;
/** …and only if the keyword's first is below this rank in the meaning ranking (or absent). */
export const INCUMBENT_MEANING_RANK = 10;

export function fuseKeywordFirst(keyword: readonly RankedTool[], meaning: readonly RankedTool[], limit: number, w: HybridFusion): RankedTool[] {
  const all = keyword.length + meaning.length;
  const fused = fuseRankings(
    [
      { signal: 'keyword', weight: w.keyword, hits: [...keyword] },
      { signal: 'meaning', weight: w.meaning, hits: [...meaning] },
    ],
    all,
    w.k,
  );
  // Vector-only mode (keyword weight 0) is plain meaning ranking; nothing to protect.
  const first = w.keyword > 0 && w.meaning > 0 ? firstPlace(keyword, meaning) : undefined;
  if (first === undefined || fused[0]?.key === first) return fused.slice(0, Math.max(0, limit));
  const i = fused.findIndex((h) => h.key === first);
  const head = fused[i]!;
  // Scores stay in order: first place scores as high as the fused best (a tie, honestly: not a clear winner).
  const rest = fused.filter((_, j) => j !== i);
  return [{ ...head, score: Math.max(head.score, rest[0]?.score ?? head.score) }, ...rest].slice(0, Math.max(0, limit));
}

/** The key that must rank first: the keyword's first, unless both rankings point elsewhere; undefined with no keyword hit. */
export function firstPlace(keyword: readonly RankedTool[], meaning: readonly RankedTool[]): string | undefined {
  const incumbent = keyword[0]?.key;
  const challenger = meaning[0]?.key;
  if (incumbent === undefined || challenger === undefined || challenger === incumbent) return incumbent;
  const challengerKeywordRank = keyword.findIndex((h) => h.key === challenger) + 1;
  const incumbentMeaningRank = meaning.findIndex((h) => h.key === incumbent) + 1;
  const keywordAgrees = challengerKeywordRank > 0 && challengerKeywordRank <= CHALLENGER_KEYWORD_RANK;
  const meaningRejects = incumbentMeaningRank === 0 || incumbentMeaningRank > INCUMBENT_MEANING_RANK;
  return keywordAgrees && meaningRejects ? challenger : incumbent;
}
