/**
 * Retrieval metrics as the datasets' papers use them. A gold tool counts as found when it or
 * one of its alternatives is retrieved.
 * - recall@k: share of a query's gold tools in the top k, averaged over queries;
 * - MRR@10: 1 / rank of the first gold tool in the top 10 (0 if none);
 * - complete@10: share of queries with every gold tool in the top 10.
 */
import type { BenchQuery } from './dataset';

export interface RetrievalMetrics {
  'recall@1': number;
  'recall@5': number;
  'recall@10': number;
  'mrr@10': number;
  'complete@10': number;
}

/** Per-query figures; `retrieved` is the ranked key list (at least 10 long when available). */
export function queryMetrics(query: BenchQuery, retrieved: readonly string[]): RetrievalMetrics {
  const foundAt = query.gold.map((g) => {
    const accepted = new Set([g, ...(query.goldAlternatives?.[g] ?? [])]);
    const i = retrieved.findIndex((k) => accepted.has(k));
    return i < 0 ? Infinity : i + 1;
  });
  const n = query.gold.length || 1;
  const recallAt = (k: number) => foundAt.filter((r) => r <= k).length / n;
  const first = Math.min(...foundAt);
  return {
    'recall@1': recallAt(1),
    'recall@5': recallAt(5),
    'recall@10': recallAt(10),
    'mrr@10': first <= 10 ? 1 / first : 0,
    'complete@10': foundAt.every((r) => r <= 10) ? 1 : 0,
  };
}

/**
 * The most recall@1 any ranking can score on a query: one tool is first, so a query with n gold
 * tools scores at most 1/n. Its mean over a set is that set's ceiling for recall@1.
 */
export function bestRecallAt1(query: BenchQuery): number {
  return 1 / Math.max(1, query.gold.length);
}

/** Averages per-query metrics. */
export function meanMetrics(perQuery: readonly RetrievalMetrics[]): RetrievalMetrics {
  const sum: RetrievalMetrics = { 'recall@1': 0, 'recall@5': 0, 'recall@10': 0, 'mrr@10': 0, 'complete@10': 0 };
  for (const m of perQuery) for (const k of Object.keys(sum) as (keyof RetrievalMetrics)[]) sum[k] += m[k];
  const n = perQuery.length || 1;
  for (const k of Object.keys(sum) as (keyof RetrievalMetrics)[]) sum[k] /= n;
  return sum;
}

/** The value at quantile q (0..1) of a sample, nearest-rank. */
export function percentile(values: readonly number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil(q * sorted.length));
  return sorted[rank - 1];
}
