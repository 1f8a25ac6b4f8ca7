/**
 * Offline measurement of usage prediction. A dataset's multi-tool queries are replayed as
 * sessions (their gold tools, in order, are the session's calls); a seeded split trains the
 * predictor on some and, for each held-out session, gives its first tool and asks for the
 * rest: hit@K = share of the session's other tools in the top K (the given tool excluded),
 * beside a frequency-only baseline. It also checks that the usage boost does not lower search
 * recall@5 (keyword index) for sessions with no history, and what it does with one.
 */
import { performance } from 'node:perf_hooks';
import type { CatalogTool } from '../../server/src/core/catalog';
import { KeywordIndex } from '../../server/src/core/search/keywordIndex';
import { DEFAULT_BOOST, usageBoost, type BoostOptions } from '../../server/src/core/usage/boost';
import {
  CombinedPredictor,
  DEFAULT_WEIGHTS,
  defaultPredictor,
  type PredictorWeights,
} from '../../server/src/core/usage/combined';
import { FrequencyPredictor } from '../../server/src/core/usage/frequency';
import type { ObservedCall, Predictor } from '../../server/src/core/usage/types';
import { loadDataset, type BenchQuery } from './dataset';
import { percentile, queryMetrics } from './metrics';
import { seededRandom, shuffled } from './seededRandom';

export interface PredictionBenchOptions {
  seed?: number;
  /** Share of the sessions trained on (default 0.7). */
  trainShare?: number;
  weights?: PredictorWeights;
  boost?: BoostOptions;
}

type HitAt = { 'hit@3': number; 'hit@5': number; 'hit@10': number };

export interface PredictionBenchResult extends HitAt {
  baseline: HitAt;
  sessions: number;
  trainSessions: number;
  medianPredictMs: number;
  /** Each strategy alone (weight 1), to show what the combination adds. */
  strategies: Record<Strategy, HitAt>;
  weights: PredictorWeights;
  /** Keyword-search recall@5 of the held-out queries, without and with the usage boost. */
  search: {
    boost: BoostOptions;
    noHistory: { 'recall@5': number; 'recall@5+usage': number; 'recall@5+frequencyBoost': number };
    afterFirstTool: { 'recall@5': number; 'recall@5+usage': number };
    medianBoostMs: number;
  };
}

const KS = [3, 5, 10] as const;
type Strategy = Exclude<keyof PredictorWeights, 'prior'>;
const STRATEGIES: readonly Strategy[] = ['frequency', 'cooccurrence', 'transitions', 'serverAffinity'];
const HOUR = 3600_000;

export async function runPredictionBench(
  datasetDir: string,
  options: PredictionBenchOptions = {},
): Promise<PredictionBenchResult> {
  const dataset = loadDataset(datasetDir);
  const serverOf = new Map(dataset.tools.map((t) => [t.key, t.server]));
  const sessions = shuffle(
    dataset.queries.filter((q) => q.gold.length >= 2),
    options.seed ?? 1,
  );
  const trainCount = Math.round(sessions.length * (options.trainShare ?? 0.7));
  const train = sessions.slice(0, trainCount);
  const test = sessions.slice(trainCount);
  const calls = replay(train, serverOf);
  const now = calls.length ? calls[calls.length - 1]!.at + HOUR : 0;
  const weights = options.weights ?? DEFAULT_WEIGHTS;

  const combined = trained(defaultPredictor(weights), calls);
  const times: number[] = [];
  const main = hitRates(combined, test, now, times);
  const baseline = hitRates(trained(new FrequencyPredictor(), calls), test, now);
  const strategies = {} as Record<Strategy, HitAt>;
  for (const name of STRATEGIES) {
    const only = { frequency: 0, cooccurrence: 0, transitions: 0, serverAffinity: 0, prior: weights.prior, [name]: 1 };
    strategies[name] = hitRates(trained(defaultPredictor(only), calls), test, now);
  }
  const search = searchRecall(dataset.tools, test, combined, now, options.boost ?? DEFAULT_BOOST);
  return {
    ...main,
    baseline,
    sessions: sessions.length,
    trainSessions: train.length,
    medianPredictMs: round(percentile(times, 0.5), 4),
    strategies,
    weights,
    search,
  };
}

/** Training sessions as calls: one session an hour, its calls a minute apart. */
function replay(sessions: readonly BenchQuery[], serverOf: Map<string, string>): ObservedCall[] {
  return sessions.flatMap((q, i) =>
    q.gold.map((key, j) => ({ sessionId: q.id, toolKey: key, at: i * HOUR + j * 60_000, server: serverOf.get(key) })),
  );
}

function trained<P extends Predictor>(p: P, calls: readonly ObservedCall[]): P {
  p.observe(calls);
  return p;
}

/** Given each held-out session's first tool, the share of its other tools in the top K. */
function hitRates(p: Predictor, test: readonly BenchQuery[], now: number, times?: number[]): HitAt {
  const sums = [0, 0, 0];
  for (const q of test) {
    const [first, ...rest] = q.gold as [string, ...string[]];
    const t0 = performance.now();
    const predicted = p.predict({ sessionTools: [first], now }, KS[KS.length - 1] + 1);
    times?.push(performance.now() - t0);
    const keys = predicted.map((x) => x.key).filter((k) => k !== first);
    KS.forEach((k, i) => {
      const top = new Set(keys.slice(0, k));
      sums[i]! += rest.filter((g) => found(q, g, top)).length / rest.length;
    });
  }
  const n = test.length || 1;
  return { 'hit@3': round(sums[0]! / n), 'hit@5': round(sums[1]! / n), 'hit@10': round(sums[2]! / n) };
}

function found(q: BenchQuery, gold: string, top: Set<string>): boolean {
  return top.has(gold) || (q.goldAlternatives?.[gold] ?? []).some((k) => top.has(k));
}

function searchRecall(
  tools: CatalogTool[],
  test: readonly BenchQuery[],
  p: CombinedPredictor,
  now: number,
  boost: BoostOptions,
): PredictionBenchResult['search'] {
  const index = new KeywordIndex(tools);
  const r = {
    plain: [] as number[],
    cold: [] as number[],
    freq: [] as number[],
    after: [] as number[],
    afterBoost: [] as number[],
  };
  const times: number[] = [];
  for (const q of test) {
    const hits = index.searchSync(q.query, { limit: 20 });
    const keys = (list: { key: string }[]) => list.map((h) => h.key);
    r.plain.push(queryMetrics(q, keys(hits))['recall@5']);
    // A session with no calls: the tracker returns the candidates as they are (cold start).
    r.cold.push(queryMetrics(q, keys(usageBoost(hits, [], boost)))['recall@5']);
    // The rejected alternative: boosting a cold session by global frequency.
    r.freq.push(queryMetrics(q, keys(usageBoost(hits, p.predict({ sessionTools: [], now }, 50), boost)))['recall@5']);
    // After the session called its first tool: recall of the others, with and without the boost.
    const first = q.gold[0]!;
    const rest: BenchQuery = { ...q, gold: q.gold.slice(1) };
    const others = hits.filter((h) => h.key !== first);
    r.after.push(queryMetrics(rest, keys(others))['recall@5']);
    const t0 = performance.now();
    const boosted = usageBoost(others, p.predict({ sessionTools: [first], now }, 50), boost);
    times.push(performance.now() - t0);
    r.afterBoost.push(queryMetrics(rest, keys(boosted))['recall@5']);
  }
  const mean = (xs: number[]) => round(xs.reduce((a, b) => a + b, 0) / (xs.length || 1));
  return {
    boost,
    noHistory: { 'recall@5': mean(r.plain), 'recall@5+usage': mean(r.cold), 'recall@5+frequencyBoost': mean(r.freq) },
    afterFirstTool: { 'recall@5': mean(r.after), 'recall@5+usage': mean(r.afterBoost) },
    medianBoostMs: round(percentile(times, 0.5), 4),
  };
}

/** Deterministic Fisher-Yates with mulberry32, so a seed always gives the same split. */
function shuffle<T>(items: readonly T[], seed: number): T[] {
  return shuffled(items, seededRandom(seed));
}

function round(x: number, digits = 3): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
