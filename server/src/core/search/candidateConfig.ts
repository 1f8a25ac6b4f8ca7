/**
 * The candidate stage's parameters (candidates.ts, its knobs: CANDIDATE_KNOBS): BM25F and how
 * the request's words become terms. keywordConfig.ts adds every re-rank signal's knobs to them;
 * the stages import this file alone, since the signals, whose knobs that config names, import
 * the stages (one file for both would be an import circle).
 */
import type { FieldConfig } from './bm25f';

export type Stemmer = 'porter2' | 'light' | 'none';

/** The candidate stage's parameters (candidates.ts; its knobs: CANDIDATE_KNOBS). */
export interface CandidateConfig {
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
  /** Weight of the words of literal values (URLs, paths, selectors, ids, quoted text) in a request; 1 = as any word. */
  literal: number;
  /** Servers with more tools than this lend their tools no sibling context (the context field). */
  contextMaxTools: number;
  /** Weight of the other words of the action the request leads with (actions.ts); 0 = off. */
  actionSynonyms: number;
  /** Weight of a request's generated id (tt1234567) as its shape (tt#), matched to id examples a tool documents; 0 = off (the default when absent). */
  shapes?: number;
  /** Query-term frequency saturation (BM25's k3): a word the query repeats weighs more; 0 = each word once. */
  queryK3: number;
  /**
   * How many words after a negation in a description ("without reading the content", "use X
   * instead") are left out of the tool's words (negationScope.ts); 0 = off (the default when absent).
   */
  negation?: number;
}
