/**
 * The vector and hybrid bench modes: MCP Lens's real HybridToolIndex (LanceDB on a temp dir,
 * Ollama embeddings). Vector mode is the same index with the keyword list weighted 0. Query
 * latency excludes the query's embedding: the embedder is wrapped to time embedQuery, and
 * that time is subtracted from the search call.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Embedder } from '../adapters/embed/embedder';
import type { CatalogTool } from '../core/catalog';
import { silentLogger } from '../core/logger';
import { LanceToolStore } from '../adapters/store/lanceToolStore';
import { HybridToolIndex } from '../index/hybridIndex';
import type { BenchSearcher, SearcherFactory } from './searchers';

/** Builds the index over `tools` and waits until every tool is embedded (or embedding fails). */
async function buildIndex(tools: readonly CatalogTool[], embedder: Embedder, keywordWeight: number): Promise<{ index: HybridToolIndex; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-lens-bench-'));
  const openStore = () => LanceToolStore.open({ dir, log: silentLogger });
  const index = await HybridToolIndex.open({ openStore, embedder, log: silentLogger, fusion: { keyword: keywordWeight, meaning: 1 }, queryTimeoutMs: 30_000 });
  let sub: { dispose(): void } | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      const check = () => {
        const s = index.status();
        if (s.toolsTotal === tools.length && s.toolsEmbedded === s.toolsTotal && s.state === 'ready') resolve();
        else if (s.error && s.mode.kind === 'keyword') reject(new Error(`embedding failed: ${s.error}`));
        // Ready yet keyword-only with the embedder answering: the store cannot work here (the label says why).
        else if (s.state === 'ready' && s.mode.kind === 'keyword' && s.embedder?.reachable && s.toolsTotal === tools.length) reject(new Error(s.mode.label));
      };
      sub = index.onDidChange(check);
      index.sync(tools).then(check, reject);
    });
  } catch (err) {
    await index.close();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  } finally {
    sub?.dispose();
  }
  return { index, dir };
}

export function hybridFactory(mode: 'vector' | 'hybrid', embedder: Embedder): SearcherFactory {
  let embedMs = 0;
  const timed: Embedder = Object.assign(Object.create(embedder) as Embedder, {
    async embedQuery(text: string, signal?: AbortSignal) {
      const start = performance.now();
      try {
        return await embedder.embedQuery(text, signal);
      } finally {
        embedMs += performance.now() - start;
      }
    },
  });
  return {
    searcher: 'mcp-lens',
    mode,
    embedder: embedder.id,
    async create(tools): Promise<BenchSearcher> {
      const { index, dir } = await buildIndex(tools, timed, mode === 'vector' ? 0 : 1);
      return {
        async run(query, limit) {
          embedMs = 0;
          const start = performance.now();
          const list = await index.search(query, { limit });
          return { keys: list.hits.map((h) => h.key), ms: Math.max(0, performance.now() - start - embedMs), scores: list.hits.map((h) => h.score) };
        },
        async close() {
          await index.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  };
}
