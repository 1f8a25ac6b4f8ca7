/**
 * The one ranking pipeline: every search of every index runs these four stages, in this order.
 *
 * 1. Candidates (candidates.ts): BM25F over the tools' fields finds and scores the candidates
 *    for the request's weighted terms.
 * 2. Re-rank signals (rerankSignals.ts, one file each under signals/): the best candidates'
 *    scores are multiplied by what the request says beyond its words (its action, the product
 *    it names, its literal values, how much of it and of a tool's name is covered). Stages 1
 *    and 2 are the keyword ranking, KeywordIndex.
 * 3. Hybrid fusion (hybridFusion.ts): when the index has vectors, the keyword ranking and the
 *    meaning ranking are fused; keyword search's first hit keeps first place, unless it covers
 *    less of the request than the fusion's `yield` (off by default).
 * 4. Usage signals (usageSignal.ts): what a session or a workspace has shown it uses re-ranks
 *    the answer and may add to it.
 *
 * Every parameter of stages 1 and 2 is a knob (RANKING_KNOBS) declared by the step that reads
 * it, with the values the tuner tries (bench/src/tuneKeyword.ts) and the value that switches it off
 * (bench/src/ablation.ts, whose table is in bench-results.md).
 */
import type { CatalogTool } from '../catalog';
import { CANDIDATE_KNOBS } from './candidates';
import type { CatalogTokensCache } from './catalogTokensCodec';
import { DEFAULT_FUSION, fuseKeywordFirst, type FusionWeights } from './hybridFusion';
import { DEFAULT_KEYWORD_CONFIG, type KeywordConfig } from './keywordConfig';
import type { Knob } from './knob';
import { KeywordIndex, RERANK_SIGNALS } from './keywordIndex';
import { requestText, type RankedTool, type SearchOptions } from './types';
import { applyUsageSignals } from './usageSignal';

/** Every knob of the keyword ranking: the candidate stage's, then each re-rank signal's. */
export const RANKING_KNOBS: readonly Knob[] = [...CANDIDATE_KNOBS, ...RERANK_SIGNALS.flatMap((s) => s.knobs)];

/**
 * Stage 3's other ranking, which only the index can produce (it embeds the request): the tools
 * nearest the request's meaning, `depth` deep, of `server` when given; undefined when there is
 * none for this search (no vectors, the embedder down or too slow).
 */
export type MeaningRanking = (
  text: string,
  depth: number,
  server: string | undefined,
) => Promise<RankedTool[] | undefined>;

export interface PipelineOptions {
  keyword?: KeywordConfig;
  fusion?: Partial<FusionWeights>;
  /** Where the catalog's reading is kept between runs (catalogTokensCodec.ts). */
  tokens?: CatalogTokensCache;
}

/** A ranked answer, and whether stage 3 had a meaning ranking to fuse. */
export interface PipelineAnswer {
  hits: RankedTool[];
  fused: boolean;
}

export class RankingPipeline {
  private readonly keyword: KeywordIndex;
  private readonly fusion: FusionWeights;

  constructor(options: PipelineOptions = {}) {
    this.keyword = new KeywordIndex([], options.keyword ?? DEFAULT_KEYWORD_CONFIG, RERANK_SIGNALS, options.tokens);
    this.fusion = { ...DEFAULT_FUSION, ...options.fusion };
  }

  get size(): number {
    return this.keyword.size;
  }

  /** Brings stages 1 and 2 to exactly these tools (the BM25F index and every signal's profile). */
  setTools(tools: readonly CatalogTool[]): void {
    this.keyword.setTools(tools);
  }

  /** All four stages; `meaning` is stage 3's other ranking, absent for a keyword-only index. */
  async rank(query: string, options: SearchOptions, meaning?: MeaningRanking): Promise<PipelineAnswer> {
    const text = requestText(query, options.keywords);
    const depth = meaning ? Math.max(options.limit, this.fusion.depth) : options.limit;
    const keyword = this.keyword.rank(text, { ...options, limit: depth });
    const seen = options.visible;
    const meant = meaning ? await meaning(text, depth, options.server) : undefined;
    const vector = meant && seen ? meant.filter((h) => seen(h.key)) : meant;
    const hits = vector
      ? fuseKeywordFirst(keyword.hits, vector, options.limit, this.fusion, keyword.firstCoverage)
      : keyword.hits.slice(0, options.limit);
    if (!options.usage?.length) return { hits, fused: vector !== undefined };
    const request = {
      text,
      limit: options.limit,
      documentFrequency: (term: string) => this.keyword.documentFrequency(term),
      keywordTop: keyword.hits[0]?.score ?? 0,
      ...(options.sessionId !== undefined && { sessionId: options.sessionId }),
      ...(options.server !== undefined && { server: options.server }),
    };
    // Usage signals may add tools: what the asker may not see is left out after them too.
    const used = applyUsageSignals(hits, options.usage, request, (key) => this.keyword.serverOf(key));
    return { hits: seen ? used.filter((h) => seen(h.key)) : used, fused: vector !== undefined };
  }
}
