/**
 * Runs searchers over one dataset and measures what `mcp-lens bench` reports: retrieval
 * metrics, query latency, the tokens a client would pay (whole catalog vs the top 5 results),
 * index build time and peak memory. Everything is measured in this process, on this data.
 */
import { toolListTokens, toolTokens, useTokenCounter } from '../../server/src/core/tokens';
import { o200kTokenizer } from '../../server/src/adapters/tokens/o200kCounter';
import type { CatalogTool } from '../../server/src/core/catalog';
import { isConfident } from '../../server/src/core/rankConfidence';
import { isHeldOut } from './benchSplit';
import { scaleTools, type BenchDataset, type BenchQuery } from './dataset';
import { meanMetrics, percentile, queryMetrics, type RetrievalMetrics } from './metrics';
import type { SearcherFactory } from './searchers';
import type { Top1Changes } from './topChanges';

/** Metrics over a subset of a set's queries, with how many there were. */
export type SubsetMetrics = RetrievalMetrics & { queries: number };

export interface SearcherResult extends RetrievalMetrics {
  searcher: string;
  mode: string;
  embedder: string;
  latency_ms: { p50: number; p99: number };
  /** catalog: the whole tools/list as JSON; top5_avg: the top 5 results' definitions, summed, averaged over queries. */
  tokens: { catalog: number; top5_avg: number };
  /** Per request kind, where the set labels kinds (mcp-servers). */
  by_kind?: Record<string, SubsetMetrics>;
  /**
   * The keyword config's split (benchSplit.ts isHeldOut: by a hash of the query id): "dev" is the
   * half parameters are tuned on, "held-out" the half only measured.
   */
  split: { dev: SubsetMetrics; 'held-out': SubsetMetrics };
  /**
   * How well find_tools's confidence rule (core/rankConfidence.ts, on this searcher's scores)
   * tells right first hits from wrong ones: the share of requests it is confident on, and how
   * often the first hit is a gold tool (or alternative) then and otherwise.
   */
  confidence?: { confident_share: number; first_right_when_confident: number; first_right_otherwise: number };
}

/** One request's top 10 from every searcher, for failure analysis (`mcp-lens bench --per-query FILE`). */
export interface PerQueryRow {
  dataset: string;
  id: string;
  query: string;
  kind?: string;
  half: 'dev' | 'held-out';
  gold: string[];
  gold_alternatives?: Record<string, string[]>;
  /** searcher (its rowKey: `mcp-lens/hybrid` beside `mcp-lens` when several modes run) → its ranked keys, best first (up to 10). */
  top10: Record<string, string[]>;
  /** searcher → 1-based rank of the first gold tool (or alternative) in its top 10; null when none is there. */
  first_gold_rank: Record<string, number | null>;
}

export interface RunBenchOptions {
  /** Also time MCP Lens on the catalog replicated to this many tools. */
  scale?: number;
  /** Receives every request's row once all searchers ran (the top 10 lists are kept only when given). */
  perQuery?: (rows: PerQueryRow[]) => void;
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
  /** `mcp-lens bench --show-changes`: the requests whose first hit hybrid mode changes (topChanges.ts). */
  top1_changes?: Top1Changes;
}

/** Queries timed at scale: enough for a stable p99 without minutes of runtime. */
const SCALE_QUERY_CAP = 2000;

export async function runBench(
  dataset: BenchDataset,
  factories: readonly SearcherFactory[],
  options: RunBenchOptions = {},
): Promise<BenchReport> {
  const { scale, perQuery } = options;
  // Counted as the gateway counts; set here because dist/bench.js is a bundle of its own, with its own core/tokens.
  useTokenCounter(o200kTokenizer);
  const rows: PerQueryRow[] | undefined = perQuery
    ? dataset.queries.map((q) => perQueryRow(dataset.name, q))
    : undefined;
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
    const judged = { confident: 0, confidentRight: 0, other: 0, otherRight: 0, scored: 0 };
    for (const [i, q] of dataset.queries.entries()) {
      const { keys, ms, scores } = await searcher.run(q.query, 10);
      latencies.push(ms);
      const metrics = queryMetrics(q, keys);
      per.push(metrics);
      for (const k of keys.slice(0, 5)) top5 += perTool.get(k) ?? 0;
      if (scores) {
        const right = metrics['mrr@10'] === 1 ? 1 : 0;
        judged.scored++;
        if (isConfident(scores)) {
          judged.confident++;
          judged.confidentRight += right;
        } else {
          judged.other++;
          judged.otherRight += right;
        }
      }
      const row = rows?.[i];
      if (row) {
        const key = factory.rowKey ?? factory.searcher;
        row.top10[key] = keys.slice(0, 10);
        row.first_gold_rank[key] = metrics['mrr@10'] > 0 ? Math.round(1 / metrics['mrr@10']) : null;
      }
    }
    await searcher.close?.();
    results.push({
      searcher: factory.searcher,
      mode: factory.mode,
      embedder: factory.embedder,
      ...round(meanMetrics(per)),
      latency_ms: { p50: ms3(percentile(latencies, 0.5)), p99: ms3(percentile(latencies, 0.99)) },
      tokens: { catalog, top5_avg: Math.round(top5 / (dataset.queries.length || 1)) },
      ...byKind(dataset.queries, per),
      ...(judged.scored > 0
        ? {
            confidence: {
              confident_share: r3(judged.confident / judged.scored),
              first_right_when_confident: r3(judged.confident ? judged.confidentRight / judged.confident : 0),
              first_right_otherwise: r3(judged.other ? judged.otherRight / judged.other : 0),
            },
          }
        : {}),
      split: {
        dev: subset(dataset.queries, per, (q) => !isHeldOut(q)),
        'held-out': subset(dataset.queries, per, isHeldOut),
      },
    });
  }
  if (rows && perQuery) perQuery(rows);
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

function perQueryRow(dataset: string, q: BenchQuery): PerQueryRow {
  return {
    dataset,
    id: q.id,
    query: q.query,
    ...(q.kind !== undefined ? { kind: q.kind } : {}),
    half: isHeldOut(q) ? 'held-out' : 'dev',
    gold: q.gold,
    ...(q.goldAlternatives ? { gold_alternatives: q.goldAlternatives } : {}),
    top10: {},
    first_gold_rank: {},
  };
}

/** Mean metrics of the queries `keep` selects; `per` is aligned with `queries`. */
function subset(
  queries: readonly BenchQuery[],
  per: readonly RetrievalMetrics[],
  keep: (q: BenchQuery) => boolean,
): SubsetMetrics {
  const chosen = per.filter((_, i) => keep(queries[i]));
  return { ...round(meanMetrics(chosen)), queries: chosen.length };
}

/** `{ by_kind }` when any query has a kind (kinds in order of first appearance), else nothing. */
function byKind(
  queries: readonly BenchQuery[],
  per: readonly RetrievalMetrics[],
): { by_kind?: Record<string, SubsetMetrics> } {
  const kinds = [...new Set(queries.flatMap((q) => (q.kind === undefined ? [] : [q.kind])))];
  if (kinds.length === 0) return {};
  return { by_kind: Object.fromEntries(kinds.map((k) => [k, subset(queries, per, (q) => q.kind === k)])) };
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

function r3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

function ms3(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

function round(m: RetrievalMetrics): RetrievalMetrics {
  const out = { ...m };
  for (const k of Object.keys(out) as (keyof RetrievalMetrics)[]) out[k] = Math.round(out[k] * 1000) / 1000;
  return out;
}
