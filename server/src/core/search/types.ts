/**
 * Search contracts shared by the pure ranking code (core/search), the index that owns the
 * stores (server/src/index) and the benchmark.
 */
import type { MatchSignal, SearchModeInfo } from '../../../../protocol/model';
import type { UsageSignal } from './usageSignal';

export interface SearchOptions {
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
