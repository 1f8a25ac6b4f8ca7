/**
 * Stage 3 of the ranking (rankingPipeline.ts): how hybrid search merges the keyword and meaning
 * rankings (pure). The keyword ranking is the measured one: it is tuned and checked against
 * plain BM25 on every retrieval set (bench-results.md). No real embedding model has been
 * measured (README, "Hybrid search"), and with the Ollama-protocol test server's vectors (a hashed
 * bag of words) every rule that let them move the first hit — even only to break a near-tie
 * between keyword search's first two — lowered recall@1 on mcp-servers and metatool. So by
 * default keyword search's first hit stays first, and below it the two rankings are merged by
 * weighted reciprocal-rank fusion (fusion.ts), where meaning adds the tools whose descriptions
 * use other words than the request.
 *
 * That rule also means embeddings can never fix a wrong first hit, which is where they help
 * most: a vocabulary gap ("literature" for a tool that says "papers", a request in German for
 * a tool described in English). The `yield` knob lets them: when the keyword first hit holds
 * less than `yield` of the request's own words (KeywordRanking.firstCoverage), the keyword
 * match is weak and the meaning ranking's first hit takes first place. Coverage, not the score
 * margin between keyword's first two (core/rankConfidence.ts), is what says a match is weak
 * here: a request that keyword search matches by one word of five has a lone hit, and a lone
 * hit's margin is the largest there is. `yield` is 0 (off) until someone measures a real
 * model: `mcp-lens bench --embedder … --fusion-yield X --show-changes` lists every request
 * whose first hit it changes.
 *
 * With no keyword hit at all (a request in words no tool uses), the meaning ranking alone answers.
 */
import { DEFAULT_RRF_K, fuseRankings } from './fusion';
import type { RankedTool } from './types';

/**
 * Weighted reciprocal-rank fusion of the keyword and meaning lists below first place. Equal
 * weights are a default, not a finding: no real embedding model has been measured, so the
 * weights stay configurable until `mcp-lens bench` runs against a real one.
 */
export interface HybridFusion {
  keyword: number;
  meaning: number;
  /** RRF's k. */
  k: number;
  /**
   * The keyword first hit yields first place to the meaning ranking's first hit when it holds
   * less than this share (0–1) of the request's own words. 0: never (the default).
   */
  yield: number;
}

/** The fusion's weights, and how many candidates each list contributes (at least the requested limit). */
export interface FusionWeights extends HybridFusion {
  depth: number;
}

export const DEFAULT_FUSION: FusionWeights = { keyword: 1, meaning: 1, k: DEFAULT_RRF_K, depth: 50, yield: 0 };

/**
 * The fused ranking, first place decided by the rule above. `keywordCoverage` is the share of
 * the request's own words keyword search's first hit holds (KeywordRanking.firstCoverage); left
 * out, the keyword first hit counts as covering the whole request.
 */
export function fuseKeywordFirst(
  keyword: readonly RankedTool[],
  meaning: readonly RankedTool[],
  limit: number,
  w: Omit<HybridFusion, 'yield'> & Partial<Pick<HybridFusion, 'yield'>>,
  keywordCoverage = 1,
): RankedTool[] {
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
  const both = w.keyword > 0 && w.meaning > 0;
  const weak = keywordCoverage < (w.yield ?? 0);
  const first = !both ? undefined : weak && meaning.length > 0 ? meaning[0]!.key : keyword[0]?.key;
  if (first === undefined || fused[0]?.key === first) return fused.slice(0, Math.max(0, limit));
  const i = fused.findIndex((h) => h.key === first);
  const head = fused[i]!;
  // Scores stay in order: first place scores as high as the fused best (a tie, honestly: not a clear winner).
  const rest = fused.filter((_, j) => j !== i);
  return [{ ...head, score: Math.max(head.score, rest[0]?.score ?? head.score) }, ...rest].slice(0, Math.max(0, limit));
}
