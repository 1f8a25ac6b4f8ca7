/**
 * The keyword-ranking ablation: the shipped configuration (core/search/keywordWeights.json)
 * with each step switched off in turn — every knob of RANKING_KNOBS that declares an off value
 * and is not off already — beside plain BM25 and the ranking MCP Lens shipped before (0.1.0),
 * on every dataset under bench/datasets: recall@1 / MRR@10 on the dev half (what the tuner
 * saw), the held-out half, and all requests. A new signal's knobs get their rows here without
 * an edit.
 * Run: `node --import tsx bench/src/ablation.ts [--write bench-results.md] [BENCH_DIR]`
 * (--write puts the table in its section of that file; a few minutes on 2 cores).
 */
import { resolve } from 'node:path';
import {
  DEFAULT_KEYWORD_CONFIG as D,
  knobValue,
  withKnob,
  type KeywordConfig,
} from '../../server/src/core/search/keywordConfig';
import { KeywordIndex } from '../../server/src/core/search/keywordIndex';
import { RANKING_KNOBS } from '../../server/src/core/search/rankingPipeline';
import { allDatasetDirs } from './benchFiles';
import { isHeldOut } from './benchSplit';
import { loadDataset, type BenchDataset } from './dataset';
import { writeSection } from './markdownSection';
import { meanMetrics, queryMetrics, type RetrievalMetrics } from './metrics';
import { Bm25Reference } from './reference/bm25Reference';

/**
 * The parameters MCP Lens 0.1.0 shipped: sibling context for every server, no request
 * analysis. On today's tokenizer (camel-case names kept whole too), so not 0.1.0's exact
 * figures; the signals it did not have are left out, so off.
 */
const RANKER_0_1: KeywordConfig = {
  fields: {
    name: { weight: 3, b: 0.5 },
    server: { weight: 2, b: 0.3 },
    description: { weight: 1, b: 0.75 },
    params: { weight: 0.5, b: 0.75 },
    context: { weight: 0.2, b: 1 },
  },
  k1: 1.2,
  stem: 'porter2',
  synonyms: 0.3,
  bigrams: 0.6,
  exact: 0,
  nameBonus: 0.5,
  coverage: 1,
  queryK3: 3,
  literal: 1,
  actionSynonyms: 0,
  contextMaxTools: Number.POSITIVE_INFINITY,
  fillerWords: true,
};

/** The rows: the two references, the shipped configuration, then each step switched off. */
export function ablationRows(): [string, KeywordConfig][] {
  const rows: [string, KeywordConfig][] = [
    ["0.1.0's parameters (today's tokenizer)", RANKER_0_1],
    ['shipped (keywordWeights.json)', D],
  ];
  for (const knob of RANKING_KNOBS) {
    if (knob.off === undefined || knobValue(D, knob) === knob.off.value) continue;
    rows.push([`− ${knob.off.ablation}`, withKnob(D, knob, knob.off.value)]);
  }
  return rows;
}

type Rank = (q: string) => string[];

/** dev · held-out · all cells of one dataset, each recall@1/MRR@10. */
function cells(ds: BenchDataset, rank: Rank): string[] {
  const rows = ds.queries.map((q): [boolean, RetrievalMetrics] => [isHeldOut(q), queryMetrics(q, rank(q.query))]);
  const cell = (keep: (heldOut: boolean) => boolean) => {
    const m = meanMetrics(rows.filter(([h]) => keep(h)).map(([, m]) => m));
    return `${m['recall@1'].toFixed(3)}/${m['mrr@10'].toFixed(3)}`;
  };
  return [cell((h) => !h), cell((h) => h), cell(() => true)];
}

/** The ablation table over `sets`, as Markdown. */
export function ablationTable(sets: readonly BenchDataset[]): string {
  const lines = [
    '## Keyword ranking ablation',
    '',
    'Command: `node --import tsx bench/src/ablation.ts --write bench-results.md`. The shipped configuration (core/search/keywordWeights.json) with each step switched off in turn (every knob the ranking declares with an off value: server/src/core/search/rankingPipeline.ts), beside plain BM25 and the parameters MCP Lens 0.1.0 shipped. recall@1/MRR@10 on the dev half (what the tuner saw), the held-out half and all requests.',
    '',
    `| step | ${sets.map((s) => `${s.name} dev | held-out | all`).join(' | ')} |`,
    `|---|${sets.map(() => '---|---|---').join('|')}|`,
  ];
  const row = (label: string, ranks: Rank[]) =>
    lines.push(`| ${label} | ${sets.flatMap((ds, i) => cells(ds, ranks[i]!)).join(' | ')} |`);
  row(
    'bm25-reference',
    sets.map((ds) => {
      const r = new Bm25Reference(ds.tools);
      return (q: string) => r.searchSync(q, { limit: 10 }).map((h) => h.key);
    }),
  );
  for (const [label, config] of ablationRows()) {
    row(
      label,
      sets.map((ds) => {
        const index = new KeywordIndex(ds.tools, config);
        return (q: string) => index.searchSync(q, { limit: 10 }).map((h) => h.key);
      }),
    );
  }
  return lines.join('\n');
}

function main(): void {
  const argv = process.argv.slice(2);
  const w = argv.indexOf('--write');
  const file = w >= 0 ? resolve(argv[w + 1] ?? 'bench-results.md') : undefined;
  const dir = argv.find((a, i) => !a.startsWith('--') && (w < 0 || i !== w + 1));
  const sets = (dir ? [dir] : allDatasetDirs()).map((d) => loadDataset(d));
  const md = ablationTable(sets);
  process.stdout.write(`${md}\n`);
  if (file) {
    writeSection(file, 'ablation', md);
    process.stderr.write(`ablation: wrote ${file}\n`);
  }
}

if (require.main === module) main();
