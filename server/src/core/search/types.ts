/**
 * Search contracts shared by the pure ranking code (core/search), the index that owns the
 * stores (server/src/index) and the benchmark.
 */
import type { MatchSignal, SearchModeInfo } from '../../../../protocol/model';

export interface SearchOptions {
  /** Words to weigh as the query's own (requestText joins them to it). */
  keywords?: string[];
  /** Only tools of this server. */
  server?: string;
  /** Only tools this says the asker may see (a signed-in person's policy), by catalog key; absent: all. */
  visible?: (key: string) => boolean;
  limit: number;
  /** The gateway session asking, for usage signals that learn per session. */
  sessionId?: string;
  /** The ranking's last stage for this search: usage signals, applied in order (usageSignal.ts). */
  usage?: readonly UsageSignal[];
}

/**
 * A search's words as one text, the query then the keywords: what every stage reads (the
 * candidates, the meaning ranking, the usage signals, search learning). Joined once per search.
 */
export function requestText(query: string, keywords?: readonly string[]): string {
  return keywords?.length ? [query, ...keywords].join(' ') : query;
}

/** One ranked tool, by catalog key (`server/originalName`). */
export interface RankedTool {
  key: string;
  score: number;
  signals: MatchSignal[];
  /** Short human text saying why it matched (matched words, similarity, usage). */
  why: string;
}

export interface RankedList {
  hits: RankedTool[];
  mode: SearchModeInfo;
}

/** Anything that can rank the catalog for a query: the keyword index, the hybrid index, a reference searcher. */
export interface ToolSearcher {
  search(query: string, options: SearchOptions): Promise<RankedList>;
}

/**
 * The tool index the app keeps in sync with the catalog: keyword search always, vector
 * search when an embedder is available. Implemented in server/src/index/.
 */
export interface ToolIndex extends ToolSearcher {
  /** Brings the index to exactly this set of tools, re-embedding only what changed. */
  sync(tools: readonly import('../catalog').CatalogTool[]): Promise<void>;
  status(): import('../../../../protocol/model').IndexStatus;
  onDidChange(listener: () => void): { dispose(): void };
  close(): Promise<void>;
}

/**
 * Stage 4 of the ranking (rankingPipeline.ts, usageSignal.ts): a usage signal, what a session or
 * a workspace has shown it uses.
 */
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
