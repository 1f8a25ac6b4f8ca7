/**
 * The learned ranking's lift bound (core/usage/learnedLimits.ts, knob `lift`: the most one past
 * request may move a tool, in the first hit's score) measured by replay (replay.ts): R@1 on the
 * dev halves and on all evaluated requests at 0%, 10% and 30% silent wrong calls, half the
 * history, seed 1, for each value tried and with no bound.
 *
 *   node --import tsx bench/src/liftSweep.ts [--write bench-results.md]
 */
import { basename } from 'node:path';
import { LEARNED_RANKING_KNOBS } from '../../server/src/core/usage/learnedRanking';
import { allDatasetDirs, benchResultsFile } from './benchFiles';
import { loadDataset } from './dataset';
import { writeSection } from './markdownSection';
import { runReplay } from './replay';

const LIFTS = [0.5, 0.75, 1, Infinity];
const RUNS = [0, 0.1, 0.3].map((wrong) => ({ wrong, noticed: 0 }));

async function main(argv: string[]): Promise<void> {
  const rows: string[] = [];
  for (const dir of allDatasetDirs()) {
    const set = basename(dir);
    const dataset = loadDataset(dir);
    for (const lift of LIFTS) {
      const r = await runReplay(dataset, {
        history: 0.5,
        runs: RUNS,
        seed: 1,
        knobs: { ...LEARNED_RANKING_KNOBS, lift },
      });
      const cells = r.with.map(
        (w) => `${w.figures.dev['recall@1'].toFixed(3)} / ${w.figures.all['recall@1'].toFixed(3)}`,
      );
      const name =
        lift === Infinity ? 'no bound' : String(lift) + (lift === LEARNED_RANKING_KNOBS.lift ? ' (shipped)' : '');
      const row = `| ${set} | ${name} | ${cells.join(' | ')} |`;
      rows.push(row);
      process.stdout.write(`${row}\n`);
    }
  }
  const md = [
    '# Search learning: the lift bound',
    '',
    'Command: `node --import tsx bench/src/liftSweep.ts --write bench-results.md`',
    '',
    "R@1 dev half / all evaluated requests, by replay (bench/src/replay.ts: half the history, the history as one principal, seed 1), for each bound on how far one past request may move a tool (core/usage/learnedLimits.ts `lift`, in the first hit's score) and with none.",
    '',
    '| set | lift | 0% wrong | 10% wrong | 30% wrong |',
    '|---|---|---:|---:|---:|',
    ...rows,
  ].join('\n');
  const w = argv.indexOf('--write');
  if (w >= 0) writeSection(benchResultsFile(argv[w + 1]), 'learning-lift', md);
}

void main(process.argv.slice(2));
