/**
 * Stage 3 of the ranking (rankingPipeline.ts): how hybrid search merges the keyword and meaning
 * rankings (pure). The keyword ranking is the measured one: it is tuned and checked against
 * plain BM25 on every retrieval set (bench-results.md). Embeddings could not be measured with a
 * real model where this was built, and with the Ollama-protocol test server's vectors (a hashed
 * bag of words) every rule that let them move the first hit — even only to break a near-tie
 * between keyword search's first two — lowered recall@1 on mcp-servers and metatool. So
 * keyword search's first hit stays first, and below it the two rankings are merged by weighted
 * reciprocal-rank fusion (fusion.ts), where meaning adds the tools whose descriptions use other
 * words than the request. When a real model is measured to pick better firsts, this is the one
 * place to change.
 *
 * With no keyword hit at all (a request in words no tool uses), the meaning ranking alone answers.
 */
import { DEFAULT_RRF_K, fuseRankings } from './fusion';
import type { RankedTool } from './types';

/**
 * Weighted reciprocal-rank fusion of the keyword and meaning lists below first place. Equal
 * weights are a default, not a finding: no real embedding model could be measured where this
 * was built, so the weights stay configurable until `mcp-lens bench` runs against a real Ollama.
 */
export interface HybridFusion {
  keyword: number;
  meaning: number;
  /** RRF's k. */
  k: number;
}

/** The fusion's weights, and how many candidates each list contributes (at least the requested limit). */
export interface FusionWeights extends HybridFusion {
  depth: number;
}

export const DEFAULT_FUSION: FusionWeights = { keyword: 1, meaning: 1, k: DEFAULT_RRF_K, depth: 50 };

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
  const first = w.keyword > 0 && w.meaning > 0 ? keyword[0]?.key : undefined;
  if (first === undefined || fused[0]?.key === first) return fused.slice(0, Math.max(0, limit));
  const i = fused.findIndex((h) => h.key === first);
  const head = fused[i]!;
  // Scores stay in order: first place scores as high as the fused best (a tie, honestly: not a clear winner).
  const rest = fused.filter((_, j) => j !== i);
  return [{ ...head, score: Math.max(head.score, rest[0]?.score ?? head.score) }, ...rest].slice(0, Math.max(0, limit));
}
