/**
 * The searchers `mcp-lens bench` compares, as factories over a tool list, so the vector and
 * hybrid modes plug in beside keyword search and the peers' reference searchers.
 */
import type { CatalogTool } from '../../server/src/core/catalog';
import { KeywordIndex } from '../../server/src/core/search/keywordIndex';
import type { ToolSearcher } from '../../server/src/core/search/types';
import { Bm25Reference } from './reference/bm25Reference';
import { TfidfReference } from './reference/tfidfReference';

/** One built searcher: ranked keys for a query and the time the ranking took. */
export interface BenchSearcher {
  /** `ms` excludes query-embedding time for vector modes (the embedder's latency is not the index's). */
  run(query: string, limit: number): Promise<{ keys: string[]; ms: number; scores?: number[] }>;
  close?(): Promise<void>;
}

export interface SearcherFactory {
  searcher: 'mcp-lens' | 'bm25-reference' | 'tfidf-reference';
  mode: string;
  embedder: string;
  /** Its name in per-query rows when several MCP Lens modes run at once (`mcp-lens/hybrid`); default `searcher`. */
  rowKey?: string;
  create(tools: readonly CatalogTool[]): Promise<BenchSearcher>;
}

/** Wraps a synchronous ranker, timing only the ranking. */
function syncSearcher(rank: (query: string, limit: number) => { key: string; score: number }[]): BenchSearcher {
  return {
    async run(query, limit) {
      const start = performance.now();
      const hits = rank(query, limit);
      const ms = performance.now() - start;
      return { keys: hits.map((h) => h.key), ms, scores: hits.map((h) => h.score) };
    },
  };
}

/** Wraps any ToolSearcher (e.g. the hybrid index), timing the whole search call. */
export function toolSearcher(searcher: ToolSearcher, close?: () => Promise<void>): BenchSearcher {
  return {
    async run(query, limit) {
      const start = performance.now();
      const list = await searcher.search(query, { limit });
      const ms = performance.now() - start;
      return { keys: list.hits.map((h) => h.key), ms, scores: list.hits.map((h) => h.score) };
    },
    ...(close ? { close } : {}),
  };
}

export const keywordFactory: SearcherFactory = {
  searcher: 'mcp-lens',
  mode: 'keyword',
  embedder: 'none',
  async create(tools) {
    const index = new KeywordIndex(tools);
    return syncSearcher((q, limit) => index.searchSync(q, { limit }));
  },
};

export const referenceFactories: SearcherFactory[] = [
  {
    searcher: 'bm25-reference',
    mode: 'keyword',
    embedder: 'none',
    async create(tools) {
      const index = new Bm25Reference(tools);
      return syncSearcher((q, limit) => index.searchSync(q, { limit }));
    },
  },
  {
    searcher: 'tfidf-reference',
    mode: 'keyword',
    embedder: 'none',
    async create(tools) {
      const index = new TfidfReference(tools);
      return syncSearcher((q, limit) => index.searchSync(q, { limit }));
    },
  },
];
