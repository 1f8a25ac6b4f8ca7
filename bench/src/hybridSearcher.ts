/**
 * The vector and hybrid bench modes: MCP Lens's real HybridToolIndex (LanceDB on a temp dir,
 * an Embedder: Ollama or an OpenAI-compatible endpoint). Vector mode is the same index with the
 * keyword list weighted 0; hybrid mode fuses with the fusion's `yield` as given. Query latency
 * excludes the query's embedding: the embedder is wrapped to time embedQuery, and that time is
 * subtracted from the search call.
 *
 * When both modes run on a set, they share what a real model makes expensive: the second
 * index opens the first one's store (its vectors are current, so it embeds nothing), and a
 * query embedded for the first is not embedded again for the second.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Embedder } from '../../server/src/adapters/embed/embedder';
import type { CatalogTool } from '../../server/src/core/catalog';
import { silentLogger } from '../../server/src/core/logger';
import { LanceToolStore } from '../../server/src/adapters/store/lanceToolStore';
import { HybridToolIndex } from '../../server/src/index/hybridIndex';
import type { BenchSearcher, SearcherFactory } from './searchers';

export type SemanticMode = 'vector' | 'hybrid';

/** Builds the index over `tools` in `dir` and waits until every tool has a vector (or embedding fails). */
async function buildIndex(
  tools: readonly CatalogTool[],
  embedder: Embedder,
  dir: string,
  fusion: { keyword: number; yield: number },
): Promise<HybridToolIndex> {
  const openStore = () => LanceToolStore.open({ dir, log: silentLogger });
  const index = await HybridToolIndex.open({
    openStore,
    embedder,
    log: silentLogger,
    fusion: { ...fusion, meaning: 1 },
    queryTimeoutMs: 30_000,
  });
  let sub: { dispose(): void } | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      const check = () => {
        const s = index.status();
        if (s.toolsTotal === tools.length && s.toolsEmbedded === s.toolsTotal && s.state === 'ready') resolve();
        else if (s.error && s.mode.kind === 'keyword') reject(new Error(`embedding failed: ${s.error}`));
        // Ready yet keyword-only with the embedder answering: the store cannot work here (the label says why).
        else if (
          s.state === 'ready' &&
          s.mode.kind === 'keyword' &&
          s.embedder?.reachable &&
          s.toolsTotal === tools.length
        )
          reject(new Error(s.mode.label));
      };
      sub = index.onDidChange(check);
      // Vectors the store already holds load without a change event: check again once idle.
      index
        .sync(tools)
        .then(check)
        .then(() => index.whenIdle())
        .then(check, reject);
    });
  } catch (err) {
    await index.close();
    throw err;
  } finally {
    sub?.dispose();
  }
  return index;
}

/**
 * The MCP Lens searchers of `modes` over one embedder, in that order. `fusionYield` is the
 * hybrid fusion's yield (core/search/hybridFusion.ts; 0 keeps keyword search's first hit first).
 */
export function semanticFactories(
  embedder: Embedder,
  modes: readonly SemanticMode[],
  fusionYield = 0,
): SearcherFactory[] {
  let embedMs = 0;
  // Only worth keeping when a second mode will ask for the same queries.
  const queryVectors = modes.length > 1 ? new Map<string, Float32Array>() : undefined;
  const timed: Embedder = Object.assign(Object.create(embedder) as Embedder, {
    async embedQuery(text: string, signal?: AbortSignal) {
      const kept = queryVectors?.get(text);
      if (kept) return Array.from(kept);
      const start = performance.now();
      try {
        const vector = await embedder.embedQuery(text, signal);
        queryVectors?.set(text, Float32Array.from(vector));
        return vector;
      } finally {
        embedMs += performance.now() - start;
      }
    },
  });
  // One store per catalog, shared by the modes (they run one after the other), removed once
  // every mode has closed its index on it, or at once when building one failed.
  const stores = new Map<readonly CatalogTool[], { dir: string; closed: number }>();
  const storeFor = (tools: readonly CatalogTool[]) => {
    let s = stores.get(tools);
    if (!s) stores.set(tools, (s = { dir: mkdtempSync(join(tmpdir(), 'mcp-lens-bench-')), closed: 0 }));
    return s;
  };
  const release = (tools: readonly CatalogTool[], failed: boolean) => {
    const s = stores.get(tools);
    if (!s || (++s.closed < modes.length && !failed)) return;
    stores.delete(tools);
    rmSync(s.dir, { recursive: true, force: true });
    if (stores.size === 0) queryVectors?.clear();
  };
  return modes.map((mode) => ({
    searcher: 'mcp-lens',
    mode: mode === 'hybrid' && fusionYield > 0 ? `hybrid, yield ${fusionYield}` : mode,
    embedder: embedder.id,
    rowKey: `mcp-lens/${mode}`,
    async create(tools): Promise<BenchSearcher> {
      const store = storeFor(tools);
      let index: HybridToolIndex;
      try {
        index = await buildIndex(tools, timed, store.dir, { keyword: mode === 'vector' ? 0 : 1, yield: fusionYield });
      } catch (err) {
        release(tools, true);
        throw err;
      }
      return {
        async run(query, limit) {
          embedMs = 0;
          const start = performance.now();
          const list = await index.search(query, { limit });
          return {
            keys: list.hits.map((h) => h.key),
            ms: Math.max(0, performance.now() - start - embedMs),
            scores: list.hits.map((h) => h.score),
          };
        },
        async close() {
          await index.close();
          release(tools, false);
        },
      };
    },
  }));
}
