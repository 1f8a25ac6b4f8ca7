/**
 * The keyword-ranking ablation: each step of core/search/keywordConfig.ts switched on in turn,
 * measured on both datasets: the half of the queries the parameters were tuned on ("dev"), the
 * held-out half, and all queries. Run: `node --import tsx server/src/bench/ablation.ts [BENCH_DIR]`.
 */
import { join } from 'node:path';
import { DEFAULT_KEYWORD_CONFIG as D, type KeywordConfig } from '../core/search/keywordConfig';
import { KeywordIndex } from '../core/search/keywordIndex';
import { datasetsDir } from './benchFiles';
import { loadDataset, type BenchDataset, type BenchQuery } from './dataset';
import { meanMetrics, queryMetrics } from './metrics';
import { Bm25Reference } from './reference/bm25Reference';

/** Parameters were tuned on the queries whose id hashes even ("dev"); odd ones are held out. */
export function isHeldOut(q: BenchQuery): boolean {
  let h = 2166136261;
  for (let i = 0; i < q.id.length; i++) h = Math.imul(h ^ q.id.charCodeAt(i), 16777619);
  return ((h >>> 0) & 1) === 1;
}

const FLAT = { weight: 1, b: 0.75 };
const STEPS: [string, KeywordConfig][] = [];
{
  let c: KeywordConfig = {
    fields: { name: FLAT, server: FLAT, description: FLAT, params: FLAT, context: { weight: 0, b: 1 } },
    k1: D.k1, stem: 'none', synonyms: 0, bigrams: 0, exact: 0, nameBonus: 0, coverage: 0, queryK3: 0, fillerWords: false,
  };
  STEPS.push(['BM25F, all fields weight 1 (identifier split)', c]);
  c = { ...c, fields: { ...D.fields, context: { weight: 0, b: 1 } } };
  STEPS.push(['+ field weights (name 3, server 2, desc 1, params .5)', c]);
  STEPS.push(['+ Porter2 stemming', (c = { ...c, stem: 'porter2' })]);
  STEPS.push(['+ synonyms at 0.3', (c = { ...c, synonyms: D.synonyms })]);
  STEPS.push(['+ name-coverage boost 0.5', (c = { ...c, nameBonus: D.nameBonus })]);
  STEPS.push(['+ sibling-tools context field 0.2', (c = { ...c, fields: D.fields })]);
  STEPS.push(['+ bigrams at 0.6', (c = { ...c, bigrams: D.bigrams })]);
  STEPS.push(['+ query filler words dropped', (c = { ...c, fillerWords: D.fillerWords })]);
  STEPS.push(['+ query-coverage boost 1', (c = { ...c, coverage: D.coverage })]);
  STEPS.push(['+ query-term frequency, k3 3 (= default)', { ...c, queryK3: D.queryK3 }]);
  STEPS.push(['default without stemming', { ...D, stem: 'none' }]);
  STEPS.push(['default, light stemmer instead of Porter2', { ...D, stem: 'light' }]);
  STEPS.push(['default without synonyms', { ...D, synonyms: 0 }]);
  STEPS.push(['default without query-coverage boost', { ...D, coverage: 0 }]);
}

type Rank = (q: string) => string[];

function measure(ds: BenchDataset, rank: Rank, filter: (q: BenchQuery) => boolean): string {
  const m = meanMetrics(ds.queries.filter(filter).map((q) => queryMetrics(q, rank(q.query))));
  return `${m['recall@5'].toFixed(3)}/${m['mrr@10'].toFixed(3)}`;
}

const isDev = (q: BenchQuery) => !isHeldOut(q);

function main(): void {
  const dir = process.argv[2] ?? datasetsDir();
  const sets = ['toolbench', 'metatool'].map((n) => loadDataset(join(dir, n)));
  const all = () => true;
  process.stdout.write('recall@5/MRR@10\n| step | toolbench dev | held-out | all | metatool dev | held-out | all |\n|---|---|---|---|---|---|---|\n');
  const row = (label: string, ranks: Rank[]) => {
    const cells = sets.flatMap((ds, i) => [measure(ds, ranks[i], isDev), measure(ds, ranks[i], isHeldOut), measure(ds, ranks[i], all)]);
    process.stdout.write(`| ${label} | ${cells.join(' | ')} |\n`);
  };
  row('bm25-reference', sets.map((ds) => {
    const r = new Bm25Reference(ds.tools);
    return (q: string) => r.searchSync(q, { limit: 10 }).map((h) => h.key);
  }));
  for (const [label, config] of STEPS) {
    row(label, sets.map((ds) => {
      const index = new KeywordIndex(ds.tools, config);
      return (q: string) => index.searchSync(q, { limit: 10 }).map((h) => h.key);
    }));
  }
}

if (require.main === module) main();
