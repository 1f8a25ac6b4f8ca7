/**
 * Runs searchers over one dataset and measures what `mcp-lens bench` reports: retrieval
 * metrics, query latency, the tokens a client would pay (whole catalog vs the top 5 results),
 * index build time and peak memory. Everything is measured in this process, on this data.
 */
import { toolListTokens, toolTokens } from '../core/tokens';
import type { CatalogTool } from '../core/catalog';
import { scaleTools, type BenchDataset } from './dataset';
import { meanMetrics, percentile, queryMetrics, type RetrievalMetrics } from './metrics';
import type { SearcherFactory } from './searchers';

export interface SearcherResult extends RetrievalMetrics {
  searcher: string;
  mode: string;
  embedder: string;
  latency_ms: { p50: number; p99: number };
  /** catalog: the whole tools/list as JSON; top5_avg: the top 5 results' definitions, summed, averaged over queries. */
  tokens: { catalog: number; top5_avg: number };
}

export interface ScaleResult {
  tools: number;
  queries: number;
  build_ms: number;
  latency_ms: { p50: number; p99: number };
  peak_rss_mb: number;
}

export interface BenchReport {
  dataset: string;
  tools: number;
  queries: number;
  results: SearcherResult[];
  /** build_ms: the first searcher's (MCP Lens's) index build; peak_rss_mb: the whole process so far. */
  index: { build_ms: number; peak_rss_mb: number };
  scale?: ScaleResult;
  prediction?: unknown;
}

/** Queries timed at scale: enough for a stable p99 without minutes of runtime. */
const SCALE_QUERY_CAP = 2000;

export async function runBench(dataset: BenchDataset, factories: readonly SearcherFactory[], scale?: number): Promise<BenchReport> {
  const catalog = toolListTokens(dataset.tools.map(definition));
  const perTool = new Map(dataset.tools.map((t) => [t.key, toolTokens(definition(t))]));
  const results: SearcherResult[] = [];
  let buildMs = 0;
  for (const factory of factories) {
    const start = performance.now();
    const searcher = await factory.create(dataset.tools);
    if (results.length === 0) buildMs = performance.now() - start;
    const per: RetrievalMetrics[] = [];
    const latencies: number[] = [];
    let top5 = 0;
    for (const q of dataset.queries) {
      const { keys, ms } = await searcher.run(q.query, 10);
      latencies.push(ms);
      per.push(queryMetrics(q, keys));
      for (const k of keys.slice(0, 5)) top5 += perTool.get(k) ?? 0;
    }
    await searcher.close?.();
    results.push({
      searcher: factory.searcher,
      mode: factory.mode,
      embedder: factory.embedder,
      ...round(meanMetrics(per)),
      latency_ms: { p50: ms3(percentile(latencies, 0.5)), p99: ms3(percentile(latencies, 0.99)) },
      tokens: { catalog, top5_avg: Math.round(top5 / (dataset.queries.length || 1)) },
    });
  }
  const report: BenchReport = {
    dataset: dataset.name,
    tools: dataset.tools.length,
    queries: dataset.queries.length,
    results,
    index: { build_ms: ms3(buildMs), peak_rss_mb: peakRssMb() },
  };
  if (scale !== undefined && factories.length > 0) report.scale = await runAtScale(dataset, factories[0], scale);
  return report;
}

/** Latency and memory of one searcher on the catalog replicated to `size` tools. */
async function runAtScale(dataset: BenchDataset, factory: SearcherFactory, size: number): Promise<ScaleResult> {
  const tools = scaleTools(dataset.tools, size);
  const start = performance.now();
  const searcher = await factory.create(tools);
  const buildMs = performance.now() - start;
  const queries = dataset.queries.slice(0, SCALE_QUERY_CAP);
  const latencies: number[] = [];
  for (const q of queries) latencies.push((await searcher.run(q.query, 10)).ms);
  await searcher.close?.();
  return {
    tools: tools.length,
    queries: queries.length,
    build_ms: ms3(buildMs),
    latency_ms: { p50: ms3(percentile(latencies, 0.5)), p99: ms3(percentile(latencies, 0.99)) },
    peak_rss_mb: peakRssMb(),
  };
}

/** What a client receives for a tool in tools/list. */
function definition(t: CatalogTool) {
  return { name: t.name, description: t.description, inputSchema: t.inputSchema };
}

function peakRssMb(): number {
  return Math.round(process.resourceUsage().maxRSS / 1024);
}

function ms3(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

function round(m: RetrievalMetrics): RetrievalMetrics {
  const out = { ...m };
  for (const k of Object.keys(out) as (keyof RetrievalMetrics)[]) out[k] = Math.round(out[k] * 1000) / 1000;
  return out;
}
