/**
 * Keyword search at organisation scale, in this process: the index find_tools searches
 * (MemoryToolIndex: the ranking pipeline without vectors) built over an org catalog
 * (orgCatalog.ts), then every scale query (scaleQueries.ts) searched through it as find_tools
 * searches it (limit 10), timed one by one.
 */
import { catalogToolsOf } from './dataset';
import { meanMetrics, percentile, queryMetrics } from './metrics';
import type { RawTool } from './orgCatalog';
import type { ScaleQuery } from './scaleQueries';
import { MemoryToolIndex } from '../../server/src/index/memoryIndex';

export interface LatencyFigures {
  p50: number;
  p99: number;
  max: number;
}

export interface KeywordScaleFigures {
  tools: number;
  servers: number;
  /** Building the index over the whole catalog (MemoryToolIndex.sync), ms. */
  build_ms: number;
  /** One search each, ms. */
  search_ms: LatencyFigures;
  /** The datasets' requests: share of their gold tools in the top 10 among this many distractors. */
  recall_at_10: number;
  mrr_at_10: number;
}

/** Searches not timed first, so the figures are of compiled code (as in a gateway that has served a while). */
const WARM_UP = 50;

export async function keywordAtScale(
  catalog: readonly RawTool[],
  queries: readonly ScaleQuery[],
): Promise<KeywordScaleFigures> {
  const tools = catalogToolsOf(catalog);
  const index = new MemoryToolIndex('keyword only');
  const start = performance.now();
  await index.sync(tools);
  const buildMs = performance.now() - start;
  for (const q of queries.slice(0, WARM_UP)) await index.search(q.query, { limit: 10 });
  const times: number[] = [];
  const metrics = [];
  for (const q of queries) {
    const t = performance.now();
    const { hits } = await index.search(q.query, { limit: 10 });
    times.push(performance.now() - t);
    metrics.push(
      queryMetrics(
        q,
        hits.map((h) => h.key),
      ),
    );
  }
  const mean = meanMetrics(metrics);
  return {
    tools: tools.length,
    servers: new Set(catalog.map((t) => t.server)).size,
    build_ms: Math.round(buildMs),
    search_ms: latency(times),
    recall_at_10: r3(mean['recall@10']),
    mrr_at_10: r3(mean['mrr@10']),
  };
}

export function latency(times: readonly number[]): LatencyFigures {
  return { p50: ms3(percentile(times, 0.5)), p99: ms3(percentile(times, 0.99)), max: ms3(Math.max(0, ...times)) };
}

function ms3(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

function r3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
