/**
 * The keyword-ranking ablation: the shipped configuration (core/search/keywordWeights.json)
 * with each step switched off in turn, beside plain BM25 and the ranking MCP Lens shipped
 * before (0.1.0), on every dataset under bench/datasets: recall@1 / MRR@10 on the dev half
 * (what the tuner saw), the held-out half, and all requests. The table in
 * core/search/keywordConfig.ts is this script's output.
 * Run: `node --import tsx server/src/bench/ablation.ts [BENCH_DIR]`.
 */
import { DEFAULT_KEYWORD_CONFIG as D, type KeywordConfig } from '../core/search/keywordConfig';
import { KeywordIndex } from '../core/search/keywordIndex';
import { allDatasetDirs } from './benchFiles';
import { isHeldOut } from './benchSplit';
import { loadDataset, type BenchDataset, type BenchQuery } from './dataset';
import { meanMetrics, queryMetrics } from './metrics';
import { Bm25Reference } from './reference/bm25Reference';

/**
 * The parameters MCP Lens 0.1.0 shipped: sibling context for every server, no request
 * analysis. On today's tokenizer (camel-case names kept whole too), so not 0.1.0's exact figures.
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
  action: 0,
  actionSynonyms: 0,
  serverMention: 0,
  slots: 0,
  contextMaxTools: Number.POSITIVE_INFINITY,
  fillerWords: true,
};

const ROWS: [string, KeywordConfig][] = [
  ["0.1.0's parameters (today's tokenizer)", RANKER_0_1],
  ['shipped (keywordWeights.json)', D],
  ['− literal values as intent words (literal 1)', { ...D, literal: 1 }],
  ['− action agreement', { ...D, action: 0 }],
  ['− action synonyms', { ...D, actionSynonyms: 0 }],
  ['− product mentions', { ...D, serverMention: 0 }],
  ['− literal kind ↔ parameter', { ...D, slots: 0 }],
  ['− platform rule (context for every server)', { ...D, contextMaxTools: Number.POSITIVE_INFINITY }],
  ['− sibling context', { ...D, fields: { ...D.fields, context: { weight: 0, b: 1 } } }],
  ['− synonyms', { ...D, synonyms: 0 }],
  ['− bigrams', { ...D, bigrams: 0 }],
  ['− name coverage', { ...D, nameBonus: 0 }],
  ['− query coverage', { ...D, coverage: 0 }],
  ['− Porter2 stemming', { ...D, stem: 'none' }],
];

type Rank = (q: string) => string[];

function cell(ds: BenchDataset, rank: Rank, filter: (q: BenchQuery) => boolean): string {
  const m = meanMetrics(ds.queries.filter(filter).map((q) => queryMetrics(q, rank(q.query))));
  return `${m['recall@1'].toFixed(3)}/${m['mrr@10'].toFixed(3)}`;
}

function main(): void {
  const dirs = process.argv[2] ? [process.argv[2]] : allDatasetDirs();
  const sets = dirs.map((d) => loadDataset(d));
  const out = (line: string) => process.stdout.write(`${line}\n`);
  out('recall@1/MRR@10 — dev (tuned on) · held-out · all');
  out(`| step | ${sets.map((s) => `${s.name} dev | held-out | all`).join(' | ')} |`);
  out(`|---|${sets.map(() => '---|---|---').join('|')}|`);
  const row = (label: string, ranks: Rank[]) => {
    const cells = sets.flatMap((ds, i) => [cell(ds, ranks[i]!, (q) => !isHeldOut(q)), cell(ds, ranks[i]!, isHeldOut), cell(ds, ranks[i]!, () => true)]);
    out(`| ${label} | ${cells.join(' | ')} |`);
  };
  row(
    'bm25-reference',
    sets.map((ds) => {
      const r = new Bm25Reference(ds.tools);
      return (q: string) => r.searchSync(q, { limit: 10 }).map((h) => h.key);
    }),
  );
  for (const [label, config] of ROWS) {
    row(
      label,
      sets.map((ds) => {
        const index = new KeywordIndex(ds.tools, config);
        return (q: string) => index.searchSync(q, { limit: 10 }).map((h) => h.key);
      }),
    );
  }
}

if (require.main === module) main();
