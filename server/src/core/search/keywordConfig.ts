/**
 * The keyword ranking's parameters, and the measurements that chose them. Each step switched
 * on in turn (`node --import tsx server/src/bench/ablation.ts`), recall@5 / MRR@10 on all
 * queries; parameters were tuned on the half of the queries whose id hashes even, the
 * "held-out" columns are the other half.
 *
 * | step                                                 | toolbench   | held-out    | metatool    | held-out    |
 * |------------------------------------------------------|-------------|-------------|-------------|-------------|
 * | bm25-reference                                       | 0.742/0.788 | 0.752/0.808 | 0.562/0.468 | 0.563/0.466 |
 * | BM25F, all fields weight 1 (identifier split)        | 0.743/0.780 | 0.753/0.803 | 0.561/0.467 | 0.563/0.466 |
 * | + field weights (name 3, server 2, desc 1, params .5)| 0.754/0.790 | 0.773/0.815 | 0.564/0.467 | 0.566/0.466 |
 * | + Porter2 stemming                                   | 0.744/0.788 | 0.757/0.809 | 0.636/0.520 | 0.640/0.521 |
 * | + synonyms at 0.3                                    | 0.746/0.791 | 0.758/0.816 | 0.647/0.529 | 0.649/0.530 |
 * | + name-coverage boost 0.5                            | 0.753/0.795 | 0.756/0.816 | 0.650/0.530 | 0.653/0.532 |
 * | + sibling-tools context field 0.2                    | 0.814/0.814 | 0.823/0.849 | 0.650/0.530 | 0.653/0.532 |
 * | + bigrams at 0.6                                     | 0.843/0.838 | 0.859/0.874 | 0.649/0.529 | 0.652/0.531 |
 * | + query filler words dropped (= this default)        | 0.846/0.839 | 0.860/0.873 | 0.650/0.531 | 0.653/0.533 |
 * | default without stemming                             | 0.851/0.850 | 0.873/0.886 | 0.581/0.476 | 0.582/0.474 |
 * | default, light stemmer instead of Porter2            | 0.849/0.839 | 0.870/0.874 | 0.643/0.527 | 0.647/0.528 |
 * | default without synonyms                             | 0.845/0.841 | 0.860/0.877 | 0.636/0.521 | 0.640/0.523 |
 *
 * Tried and not kept (dev half): the unstemmed word as an extra term (`exact` 0.3: toolbench
 * +0.008 R@5, metatool −0.001; 0.6+: metatool −0.007); description b 0.5 (metatool +0.006,
 * toolbench −0.003); k1 0.9 / 1.6, name weight 2 / 5, server 1 / 3, params 0.25 / 1,
 * synonyms 0.5, name boost 0.3 / 0.8 / 1.0, bigrams 0.45 / 0.8 / 1.0, context 0.5 — all equal
 * or worse. Porter2 costs toolbench ~0.005 but is worth +0.07 on metatool's short
 * conversational queries, so it stays.
 */
import type { FieldConfig } from './bm25f';

export type Stemmer = 'porter2' | 'light' | 'none';

export interface KeywordConfig {
  fields: FieldConfig;
  k1: number;
  /** Stemming of document and query words: Porter2, a light plural/-ing/-ed stemmer, or none. */
  stem: Stemmer;
  /** Weight of synonym expansions relative to a typed query word; 0 = off. */
  synonyms: number;
  /** Weight of adjacent-word pairs (phrase evidence); 0 = off. */
  bigrams: number;
  /** Weight of the unstemmed word as its own term (exact wording beats a shared stem); 0 = off. */
  exact: number;
  /** Drop request-phrasing words (want, need, help, provide…) from queries. */
  fillerWords: boolean;
  /** Score multiplier 1 + nameBonus × (idf-weighted share of the tool's name words in the query); 0 = off. */
  nameBonus: number;
  /** Score multiplier 1 + coverage × (idf-weighted share of the query's words the tool holds); 0 = off. */
  coverage: number;
  /** Query-term frequency saturation (BM25's k3): a word the query repeats weighs more; 0 = each word once. */
  queryK3: number;
  /** Adds serverBoost × the best sibling tool's score (queries often need several tools of one service); 0 = off. */
  serverBoost: number;
  /** Pseudo-relevance feedback: expansion terms from the top `docs` results, `terms` of them at `weight`; weight 0 = off. */
  prf: { docs: number; terms: number; weight: number };
}

export const DEFAULT_KEYWORD_CONFIG: KeywordConfig = {
  fields: {
    name: { weight: 3, b: 0.5 },
    server: { weight: 2, b: 0.3 },
    description: { weight: 1, b: 0.75 },
    params: { weight: 0.5, b: 0.75 },
    context: { weight: 0.2, b: 1 },
  },
  k1: 1.2,
  stem: 'porter2',
  synonyms: 0.3,
  bigrams: 0.6,
  exact: 0,
  nameBonus: 0.5,
  coverage: 0,
  queryK3: 0,
  serverBoost: 0,
  prf: { docs: 3, terms: 10, weight: 0 },
  fillerWords: true,
};
