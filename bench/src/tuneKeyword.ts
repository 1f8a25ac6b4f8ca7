/**
 * Learns the keyword ranking's parameters (core/search/keywordWeights.json) by coordinate
 * ascent on the *dev* halves of the tuning sets (isHeldOut: a hash of the query id), the way
 * RankLib's coordinate ascent learns a linear ranker: one parameter at a time over its grid,
 * keeping a value only when it raises the mean objective by more than MIN_GAIN and lowers no
 * set's by more than TOLERANCE — a change must hold on every set, not win on one. The
 * parameters are every knob with a grid (RANKING_KNOBS: the candidate stage's and each re-rank
 * signal's, declared where they are read). The held-out halves (and any other set) are never
 * looked at here; `mcp-lens bench` reports them.
 *
 * Objective per set: 0.4 recall@1 + 0.4 MRR@10 + 0.2 recall@5 (the first hit matters most:
 * find_tools inlines its schema). Deterministic: same data, same grid, same result.
 *
 * Run: `node --import tsx bench/src/tuneKeyword.ts [--sets a,b,c] [--rounds N] [--write]`
 * (about 5 minutes on 2 cores); --write replaces keywordWeights.json.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KeywordIndex } from '../../server/src/core/search/keywordIndex';
import {
  DEFAULT_KEYWORD_CONFIG,
  knobValue,
  withKnob,
  type KeywordConfig,
} from '../../server/src/core/search/keywordConfig';
import { RANKING_KNOBS } from '../../server/src/core/search/rankingPipeline';
import { isHeldOut } from './benchSplit';
import { datasetDir, repoRoot } from './benchFiles';
import { loadDataset, type BenchDataset } from './dataset';
import { meanMetrics, queryMetrics } from './metrics';

/** The sets tuned on together; each counts the same whatever its size. */
const TUNING_SETS = ['mcp-servers', 'workspace-19', 'toolbench', 'metatool'];
/** A move may cost one set at most this much of its objective when the mean gains. */
const TOLERANCE = 0.002;
/** …and must gain the mean at least this much: smaller moves are one or two requests of noise. */
const MIN_GAIN = 0.001;
/** Metatool's dev half has 10,514 requests over 199 tools; every 4th keeps the run short. */
const MAX_QUERIES_PER_SET = 3000;

interface SetScore {
  name: string;
  objective: number;
}

function devQueries(ds: BenchDataset): BenchDataset {
  const dev = ds.queries.filter((q) => !isHeldOut(q));
  const step = Math.max(1, Math.ceil(dev.length / MAX_QUERIES_PER_SET));
  return { ...ds, queries: dev.filter((_, i) => i % step === 0) };
}

function score(sets: readonly BenchDataset[], config: KeywordConfig): SetScore[] {
  return sets.map((ds) => {
    const index = new KeywordIndex(ds.tools, config);
    const m = meanMetrics(
      ds.queries.map((q) =>
        queryMetrics(
          q,
          index.searchSync(q.query, { limit: 10 }).map((h) => h.key),
        ),
      ),
    );
    return { name: ds.name, objective: 0.4 * m['recall@1'] + 0.4 * m['mrr@10'] + 0.2 * m['recall@5'] };
  });
}

const mean = (s: readonly SetScore[]) => s.reduce((a, b) => a + b.objective, 0) / s.length;
const show = (s: readonly SetScore[]) => s.map((x) => `${x.name} ${x.objective.toFixed(4)}`).join(', ');

/** Coordinate ascent from `start`; returns the best configuration found. */
export function tune(
  sets: readonly BenchDataset[],
  start: KeywordConfig,
  rounds: number,
  log: (line: string) => void,
): KeywordConfig {
  let best = start;
  let bestScores = score(sets, best);
  log(`start: mean ${mean(bestScores).toFixed(4)} (${show(bestScores)})`);
  for (let round = 1; round <= rounds; round++) {
    let moved = false;
    for (const knob of RANKING_KNOBS) {
      for (const value of knob.grid ?? []) {
        if (value === knobValue(best, knob)) continue;
        const candidate = withKnob(best, knob, value);
        const scores = score(sets, candidate);
        const holds = scores.every((s, i) => s.objective >= bestScores[i]!.objective - TOLERANCE);
        if (mean(scores) > mean(bestScores) + MIN_GAIN && holds) {
          log(
            `round ${round}: ${knob.name} ${String(knobValue(best, knob))} → ${value}: mean ${mean(scores).toFixed(4)} (${show(scores)})`,
          );
          best = candidate;
          bestScores = scores;
          moved = true;
        }
      }
    }
    if (!moved) break;
  }
  return best;
}

function main(): void {
  const argv = process.argv.slice(2);
  const flag = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const names = (flag('--sets') ?? TUNING_SETS.join(',')).split(',');
  const rounds = Number(flag('--rounds') ?? 3);
  const sets = names.map((n) => devQueries(loadDataset(datasetDir(n))));
  const log = (line: string) => process.stderr.write(`${line}\n`);
  log(`tuning on the dev halves of ${sets.map((s) => `${s.name} (${s.queries.length})`).join(', ')}`);
  const tuned = tune(sets, DEFAULT_KEYWORD_CONFIG, rounds, log);
  const json = `${JSON.stringify(tuned, null, 2)}\n`;
  if (argv.includes('--write')) {
    const file = join(repoRoot(), 'server', 'src', 'core', 'search', 'keywordWeights.json');
    writeFileSync(file, json);
    log(`wrote ${file}`);
  } else {
    process.stdout.write(json);
  }
}

if (require.main === module) main();
