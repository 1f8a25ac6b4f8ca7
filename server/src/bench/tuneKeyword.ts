/**
 * Learns the keyword ranking's parameters (core/search/keywordWeights.json) by coordinate
 * ascent on the *dev* halves of the tuning sets (isHeldOut: a hash of the query id), the way
 * RankLib's coordinate ascent learns a linear ranker: one parameter at a time over a grid,
 * keeping a value only when it raises the mean objective by more than MIN_GAIN and lowers no
 * set's by more than TOLERANCE — a change must hold on every set, not win on one. The held-out halves (and any
 * other set) are never looked at here; `mcp-lens bench` reports them.
 *
 * Objective per set: 0.4 recall@1 + 0.4 MRR@10 + 0.2 recall@5 (the first hit matters most:
 * find_tools inlines its schema). Deterministic: same data, same grid, same result.
 *
 * Run: `node --import tsx server/src/bench/tuneKeyword.ts [--sets a,b,c] [--rounds N] [--write]`
 * (about 5 minutes on 2 cores); --write replaces keywordWeights.json.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KeywordIndex } from '../core/search/keywordIndex';
import { DEFAULT_KEYWORD_CONFIG, type KeywordConfig } from '../core/search/keywordConfig';
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

type Path = readonly string[];

/** The grid: each tunable parameter (a path into KeywordConfig) and the values tried. */
const GRID: readonly [Path, readonly number[]][] = [
  [
    ['fields', 'name', 'weight'],
    [2, 3, 4, 5],
  ],
  [
    ['fields', 'server', 'weight'],
    [1, 2, 3],
  ],
  [
    ['fields', 'params', 'weight'],
    [0.25, 0.5, 0.75, 1],
  ],
  [
    ['fields', 'context', 'weight'],
    [0, 0.1, 0.2, 0.3, 0.5],
  ],
  [
    ['fields', 'name', 'b'],
    [0.3, 0.5, 0.75],
  ],
  [
    ['fields', 'description', 'b'],
    [0.5, 0.75, 0.9],
  ],
  [['k1'], [0.9, 1.2, 1.5, 2]],
  [['synonyms'], [0, 0.15, 0.3, 0.45]],
  [['bigrams'], [0, 0.3, 0.6, 0.9]],
  [['nameBonus'], [0, 0.25, 0.5, 0.75, 1]],
  [['coverage'], [0, 0.5, 1, 1.5]],
  [['coverageSynonyms'], [0, 0.45, 0.75, 1]],
  [['nameSynonyms'], [0, 0.45, 1]],
  [['queryK3'], [0, 1.5, 3, 6]],
  [['literal'], [0.2, 0.4, 0.6, 0.8, 1]],
  [['exact'], [0, 0.15, 0.3, 0.5]],
  [['action'], [0, 0.15, 0.3, 0.45, 0.6]],
  [['actionSynonyms'], [0, 0.15, 0.3, 0.45]],
  [['serverMention'], [0, 0.25, 0.5, 1, 2]],
  [['slots'], [0, 0.2, 0.5]],
  [['shapes'], [0, 1, 2, 3, 4, 6]],
  [['soloAction'], [0, 0.5, 1]],
  [['contextMaxTools'], [6, 8, 12, 16, 24, 1e9]],
];

interface SetScore {
  name: string;
  objective: number;
}

function get(config: KeywordConfig, path: Path): number {
  let v: unknown = config;
  for (const k of path) v = (v as Record<string, unknown>)[k];
  return v as number;
}

function set(config: KeywordConfig, path: Path, value: number): KeywordConfig {
  const copy = structuredClone(config);
  let o = copy as unknown as Record<string, unknown>;
  for (const k of path.slice(0, -1)) o = o[k] as Record<string, unknown>;
  o[path[path.length - 1]!] = value;
  return copy;
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
export function tune(sets: readonly BenchDataset[], start: KeywordConfig, rounds: number, log: (line: string) => void): KeywordConfig {
  let best = start;
  let bestScores = score(sets, best);
  log(`start: mean ${mean(bestScores).toFixed(4)} (${show(bestScores)})`);
  for (let round = 1; round <= rounds; round++) {
    let moved = false;
    for (const [path, values] of GRID) {
      for (const value of values) {
        if (value === get(best, path)) continue;
        const candidate = set(best, path, value);
        const scores = score(sets, candidate);
        const holds = scores.every((s, i) => s.objective >= bestScores[i]!.objective - TOLERANCE);
        if (mean(scores) > mean(bestScores) + MIN_GAIN && holds) {
          log(`round ${round}: ${path.join('.')} ${get(best, path)} → ${value}: mean ${mean(scores).toFixed(4)} (${show(scores)})`);
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
