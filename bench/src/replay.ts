/**
 * `mcp-lens bench --history SHARE`: search learning measured by replay. Each set's requests
 * are split (replaySplit.ts) into a history, fed in order to the very class the gateway uses
 * (usage/searchLearning.ts) as find_tools → call pairs, and an evaluated part, ranked with and
 * without what was learned.
 *
 * A history request is one gateway session: find_tools with the request (ranked with what was
 * learned so far, as the gateway ranks it), then the call of its gold tools in order. A share
 * `wrong` of them calls a wrong tool instead: the first hit when it is wrong, else another tool
 * of the answer, else any tool. A wrong call is *silent* (it succeeds and nothing follows:
 * nothing can tell it from a right one) unless it is *noticed* (share `noticed` of the wrong
 * ones): then half the time it fails, and half the time the agent searches again at once with
 * the same words; either way it then calls the right tool. Sessions are a minute apart.
 *
 * Whose lessons count for whom (usage/learnedProvenance.ts): the history's sessions count as one
 * teacher (the user), and the evaluated requests are ranked in a fresh session of that teacher.
 * Two runs beside them (replayPoisoning.ts): at 10% wrong calls with every session its own
 * teacher (what the gateway does: a session reads only what it taught and corroborated teaching),
 * and a poisoning teacher teaching one tool every evaluated request's words.
 */
import { lineLogger } from '../../server/src/core/logger';
import { RankingPipeline } from '../../server/src/core/search/rankingPipeline';
import type { LearnedBounds } from '../../server/src/core/usage/learnedExamples';
import type { LearnedRankingKnobs } from '../../server/src/core/usage/learnedRanking';
import type { StepRules } from '../../server/src/core/usage/searchSteps';
import { SearchLearning } from '../../server/src/usage/searchLearning';
import { isHeldOut } from './benchSplit';
import type { BenchDataset, BenchQuery } from './dataset';
import { bestRecallAt1, meanMetrics, queryMetrics, type RetrievalMetrics } from './metrics';
import { feedHistory, OWN_SESSIONS, WORKSPACE_SESSIONS, type ReplayLearning } from './replayHistory';
import { runPoisoning, sumPoisoning, type PoisoningFigures } from './replayPoisoning';
import { replaySplit } from './replaySplit';

export interface ReplayOptions {
  /** Share of each tool's requests fed as history. */
  history: number;
  /** The runs to measure: a share of wrong calls, and the share of those that are noticed (an error, or a quick re-search). */
  runs: readonly ReplayRun[];
  seed: number;
  /** The learned ranking's knobs (default: the shipped ones). */
  knobs?: LearnedRankingKnobs;
  /** The store's bounds (default: the shipped ones). */
  bounds?: LearnedBounds;
  /** The step rules (default: the shipped ones). */
  rules?: StepRules;
  /** Also the run with every session its own teacher and the poisoning run (replayPoisoning.ts). */
  extra?: boolean;
}

/** R@1, R@5 and MRR@10 of a part of the evaluated requests. */
export interface ReplayFigures {
  queries: number;
  /** The most R@1 any ranking can score on these requests (metrics.ts: bestRecallAt1). */
  'recall@1 max': number;
  'recall@1': number;
  'recall@5': number;
  'mrr@10': number;
}

/** Figures on every evaluated request, and on each half of benchSplit.ts (knobs are chosen on dev). */
export interface ReplayParts {
  all: ReplayFigures;
  dev: ReplayFigures;
  'held-out': ReplayFigures;
}

export interface ReplayRun {
  wrong: number;
  noticed: number;
}

export interface ReplayReport {
  dataset: string;
  history: number;
  /** The seeds the figures are the mean over. */
  seeds: number[];
  /** Requests fed as history, and evaluated (per seed, on average). */
  fed: number;
  evaluated: number;
  /** The evaluated requests ranked without learning (the cold start). */
  without: ReplayParts;
  /** With learning, per run; `learned`: past requests kept at the end. */
  with: (ReplayRun & { learned: number; figures: ReplayParts })[];
  /** At 10% silent wrong calls, every session its own teacher, as the gateway does (replayPoisoning.ts). */
  ownSessions?: ReplayParts;
  /** A poisoning session against the 10% run (replayPoisoning.ts). */
  poisoning?: PoisoningFigures;
}

const LIMIT = 10;
/** The run the two extra runs are measured against: 10% silent wrong calls. */
const BASE_RUN: ReplayRun = { wrong: 0.1, noticed: 0 };

export async function runReplay(dataset: BenchDataset, options: ReplayOptions): Promise<ReplayReport> {
  const split = replaySplit(dataset.queries, options.history, options.seed);
  const pipeline = new RankingPipeline();
  pipeline.setTools(dataset.tools);
  const rank = async (q: string, usage?: SearchLearning, sessionId?: string) =>
    (
      await pipeline.rank(q, {
        limit: LIMIT,
        ...(usage ? { usage: [usage.signal] } : {}),
        ...(sessionId !== undefined && { sessionId }),
      })
    ).hits.map((h) => h.key);
  const learning = (provenance: (sessionId: string) => string): ReplayLearning => {
    let clock = 0;
    const l = new SearchLearning({
      enabled: true,
      log: lineLogger(() => undefined),
      now: () => clock,
      provenance,
      ...(options.knobs ? { knobs: options.knobs } : {}),
      ...(options.bounds ? { bounds: options.bounds } : {}),
      ...(options.rules ? { rules: options.rules } : {}),
    });
    l.syncCatalog(dataset.tools);
    return { learning: l, tick: (ms) => (clock += ms), rank: (q, session) => rank(q, l, session) };
  };
  const without = await evaluate(split.evaluated, (q) => rank(q));
  const runs: ReplayReport['with'] = [];
  for (const run of options.runs) {
    const world = learning(WORKSPACE_SESSIONS);
    await feedHistory(world, split.history, dataset.tools, run, options.seed);
    runs.push({
      ...run,
      learned: world.learning.size,
      figures: await evaluate(split.evaluated, (q) => world.rank(q, 'eval')),
    });
    world.learning.close();
  }
  const report: ReplayReport = {
    dataset: dataset.name,
    history: options.history,
    seeds: [options.seed],
    fed: split.history.length,
    evaluated: split.evaluated.length,
    without,
    with: runs,
  };
  if (!options.extra) return report;
  const own = learning(OWN_SESSIONS);
  await feedHistory(own, split.history, dataset.tools, BASE_RUN, options.seed);
  report.ownSessions = await evaluate(split.evaluated, (q) => own.rank(q, 'eval'));
  own.learning.close();
  const poisoned = learning(WORKSPACE_SESSIONS);
  const taught = await feedHistory(poisoned, split.history, dataset.tools, BASE_RUN, options.seed);
  const poisoning = await runPoisoning(poisoned, split.evaluated, taught, options.seed);
  if (poisoning) report.poisoning = poisoning;
  poisoned.learning.close();
  return report;
}

/** The replay at each of `seeds` seeds from `options.seed` on, its figures the mean over them. */
export async function runReplaySeeds(
  dataset: BenchDataset,
  options: ReplayOptions,
  seeds: number,
): Promise<ReplayReport> {
  const reports: ReplayReport[] = [];
  for (let i = 0; i < Math.max(1, seeds); i++)
    reports.push(await runReplay(dataset, { ...options, seed: options.seed + i }));
  const first = reports[0]!;
  const mean = (pick: (r: ReplayReport) => number) => reports.reduce((s, r) => s + pick(r), 0) / reports.length;
  const parts = (pick: (r: ReplayReport) => ReplayParts): ReplayParts => {
    const figures = (part: keyof ReplayParts): ReplayFigures => ({
      queries: r1(mean((r) => pick(r)[part].queries)),
      'recall@1 max': r3(mean((r) => pick(r)[part]['recall@1 max'])),
      'recall@1': r3(mean((r) => pick(r)[part]['recall@1'])),
      'recall@5': r3(mean((r) => pick(r)[part]['recall@5'])),
      'mrr@10': r3(mean((r) => pick(r)[part]['mrr@10'])),
    });
    return { all: figures('all'), dev: figures('dev'), 'held-out': figures('held-out') };
  };
  return {
    dataset: first.dataset,
    history: first.history,
    seeds: reports.flatMap((r) => r.seeds),
    fed: r1(mean((r) => r.fed)),
    evaluated: r1(mean((r) => r.evaluated)),
    without: parts((r) => r.without),
    with: first.with.map((run, i) => ({
      wrong: run.wrong,
      noticed: run.noticed,
      learned: r1(mean((r) => r.with[i]!.learned)),
      figures: parts((r) => r.with[i]!.figures),
    })),
    ...(first.ownSessions && { ownSessions: parts((r) => r.ownSessions!) }),
    ...(reports.every((r) => r.poisoning) && { poisoning: sumPoisoning(reports.map((r) => r.poisoning!)) }),
  };
}

async function evaluate(queries: readonly BenchQuery[], rank: (q: string) => Promise<string[]>): Promise<ReplayParts> {
  const per: { q: BenchQuery; m: RetrievalMetrics }[] = [];
  for (const q of queries) per.push({ q, m: queryMetrics(q, await rank(q.query)) });
  const figures = (keep: (q: BenchQuery) => boolean): ReplayFigures => {
    const kept = per.filter((p) => keep(p.q));
    const chosen = kept.map((p) => p.m);
    const m = meanMetrics(chosen);
    const max = kept.reduce((sum, p) => sum + bestRecallAt1(p.q), 0) / (kept.length || 1);
    return {
      queries: chosen.length,
      'recall@1 max': r3(max),
      'recall@1': r3(m['recall@1']),
      'recall@5': r3(m['recall@5']),
      'mrr@10': r3(m['mrr@10']),
    };
  };
  return { all: figures(() => true), dev: figures((q) => !isHeldOut(q)), 'held-out': figures(isHeldOut) };
}

function r1(x: number): number {
  return Math.round(x * 10) / 10;
}

function r3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
