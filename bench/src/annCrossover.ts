/**
 * When does LanceDB's own vector index beat scanning every vector? At each size, the org
 * catalog's tools (orgCatalog.ts) as the Ollama-protocol test server embeds them
 * (test/fixtures/fakeOllama.ts hashedVector: a hashed bag of words, the dimension of
 * nomic-embed-text) in a LanceDB table, and the scale queries (scaleQueries.ts) searched:
 *
 * - scan: the in-memory flat scan the index uses today (index/vectorMatrix.ts);
 * - lance flat: LanceDB's exact search (bypassVectorIndex);
 * - lance ANN: after building LanceDB's index on the column (IVF_HNSW_SQ or IVF_PQ), its
 *   approximate search, with recall@10 against the exact top 10.
 *
 *   node --import tsx bench/src/annCrossover.ts [--sizes 5000,10000,25000,50000,100000] [--index hnsw-sq|ivf-pq] [--dim 768] [--json] [--write bench-results.md]
 *     [--sweep-sizes 50000,100000] [--builds 16:150,32:300] [--ef 2,4,8,16] [--refine none,2,5,10] [--nprobes 4]
 *
 * Each size runs in its own table; latencies are one query at a time, after a warm-up. With
 * --sweep-sizes, HNSW-SQ is also built with each --builds `m:efConstruction` and searched with
 * each combination of nprobes, ef (× the rows asked for) and refine factor, into a second
 * table: how the store's own settings (annIndex.ts) were chosen.
 */
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { embeddingText } from '../../server/src/core/search/documentText';
import { DEFAULT_FUSION } from '../../server/src/core/search/hybridFusion';
import { lanceModules } from '../../server/src/adapters/store/lanceModule';
import { catalogToolsOf } from './dataset';
import { repoRoot } from './benchFiles';
import { writeSection } from './markdownSection';
import { orgCatalog, realTools } from './orgCatalog';
import { latency, type LatencyFigures } from './scaleKeyword';
import { scaleQueries } from './scaleQueries';
import { annIndexConfig, ANN_SEARCH, withAnnSearch, type AnnKind } from '../../server/src/adapters/store/annIndex';
import { exactTop, recallAt, scanOf, timeEachAsync, TOP, WARM_UP, withSampleTable, type AnnSample } from './annSample';
import { formatSweep, runSweep, sweepGrid, type SweepRow } from './annSweep';

const DEFAULT_SIZES = [5_000, 10_000, 25_000, 50_000, 100_000];
const QUERIES = 300;
/** What hybrid search asks the meaning ranking for (DEFAULT_FUSION.depth). */
const K = DEFAULT_FUSION.depth;

export interface AnnRow {
  tools: number;
  scan_ms: LatencyFigures;
  lance_flat_ms: LatencyFigures;
  index_build_ms: number;
  lance_ann_ms: LatencyFigures;
  /** Share of the exact top K (the fusion depth) the ANN search returns. */
  recall_at_depth: number;
  /** Share of the exact top 10 in the ANN search's top 10. */
  recall_at_10: number;
}

type HashedVector = (text: string, dims: number) => number[];

async function main(): Promise<void> {
  const args = parseArgs({
    options: {
      sizes: { type: 'string' },
      index: { type: 'string', default: 'hnsw-sq' },
      dim: { type: 'string', default: '768' },
      json: { type: 'boolean', default: false },
      write: { type: 'string' },
      'sweep-sizes': { type: 'string' },
      builds: { type: 'string', default: '16:150,32:300' },
      ef: { type: 'string', default: '2,4,8,16' },
      refine: { type: 'string', default: 'none,2,5,10' },
      nprobes: { type: 'string', default: '4' },
    },
  }).values;
  const sizes = args.sizes ? args.sizes.split(',').map(Number) : DEFAULT_SIZES;
  const sweepSizes = args['sweep-sizes'] ? args['sweep-sizes'].split(',').map(Number) : [];
  const grid = sweepGrid(args);
  const kind = args.index as AnnKind;
  if (kind !== 'hnsw-sq' && kind !== 'ivf-pq') throw new Error(`--index wants hnsw-sq or ivf-pq, got "${args.index}"`);
  const dims = Number(args.dim);
  // The test server's own vector function, so the bench's vectors are the ones hybrid tests see.
  const fixture = (await import(pathToFileURL(join(repoRoot(), 'test', 'fixtures', 'fakeOllama.ts')).href)) as {
    hashedVector: HashedVector;
  };
  const catalog = catalogToolsOf(orgCatalog(realTools(), Math.max(...sizes, ...sweepSizes)));
  const all = scaleQueries();
  const queries = Array.from({ length: QUERIES }, (_, i) => all[Math.floor((i * all.length) / QUERIES)]!);
  const queryVectors = queries.map((q) => Float32Array.from(fixture.hashedVector(`search_query: ${q.query}`, dims)));
  process.stderr.write(`ann: embedding ${catalog.length} tools at ${dims} dimensions…\n`);
  const vectors = catalog.map((t) =>
    Float32Array.from(fixture.hashedVector(`search_document: ${embeddingText(t)}`, dims)),
  );
  const { lancedb, arrow } = await lanceModules();
  const sample = (size: number): AnnSample => ({
    lancedb,
    arrow,
    tools: catalog.slice(0, size),
    vectors: vectors.slice(0, size),
    queryVectors,
    dims,
  });
  const rows: AnnRow[] = [];
  for (const size of sizes) {
    process.stderr.write(`ann: ${size} tools (${kind})…\n`);
    rows.push(await measure(sample(size), kind));
    process.stderr.write(`${JSON.stringify(rows[rows.length - 1])}\n`);
  }
  const sweep: SweepRow[] = [];
  for (const size of sweepSizes) {
    process.stderr.write(`ann: sweep at ${size} tools…\n`);
    sweep.push(...(await runSweep(sample(size), grid, K)));
  }
  const command = `node --import tsx bench/src/annCrossover.ts ${process.argv.slice(2).join(' ')}`.trim();
  const sweepText = sweep.length > 0 ? `\n\n${formatSweep(sweep, K)}` : '';
  const markdown = `## LanceDB's vector index against the in-memory scan\n\n\`${command}\`\n\n${formatTable(rows, kind, dims)}${sweepText}`;
  if (args.json) process.stdout.write(`${JSON.stringify({ rows, sweep }, null, 2)}\n`);
  else process.stdout.write(`${markdown}\n`);
  if (args.write) writeSection(resolve(args.write), 'vector-index', markdown);
}

async function measure(s: AnnSample, kind: AnnKind): Promise<AnnRow> {
  const matrix = scanOf(s);
  const scanTimes = timeEach(s.queryVectors, (q) => matrix.search(q, K));
  const exact = exactTop(matrix, s, K);
  return withSampleTable(s, async (table) => {
    const flatTimes = await timeEachAsync(s.queryVectors, (q) =>
      table.vectorSearch(q).distanceType('cosine').bypassVectorIndex().limit(K).select(['key']).toArray(),
    );
    const start = performance.now();
    await table.createIndex('vector', { config: annIndexConfig(s.lancedb, kind, s.tools.length) });
    const buildMs = performance.now() - start;
    const found: string[][] = [];
    const annTimes = await timeEachAsync(s.queryVectors, async (q) => {
      const query = withAnnSearch(table.vectorSearch(q).distanceType('cosine'), ANN_SEARCH[kind], K);
      const hits = (await query.limit(K).select(['key']).toArray()) as { key: string }[];
      found.push(hits.map((h) => h.key));
    });
    // The timed pass pushed one set per query after the warm-up's.
    const timed = found.slice(-s.queryVectors.length);
    const recall = (n: number) => recallAt(timed, exact, n);
    return {
      tools: s.tools.length,
      scan_ms: latency(scanTimes),
      lance_flat_ms: latency(flatTimes),
      index_build_ms: Math.round(buildMs),
      lance_ann_ms: latency(annTimes),
      recall_at_depth: recall(K),
      recall_at_10: recall(TOP),
    };
  });
}

function timeEach(queries: readonly Float32Array[], run: (q: Float32Array) => unknown): number[] {
  for (const q of queries.slice(0, WARM_UP)) run(q);
  return queries.map((q) => {
    const t = performance.now();
    run(q);
    return performance.now() - t;
  });
}

function formatTable(rows: readonly AnnRow[], kind: AnnKind, dims: number): string {
  return [
    `Vector search, ${dims} dimensions (the test server's hashed-bag vectors), ${QUERIES} queries, top ${K} (hybrid fusion's depth); LanceDB index ${kind}:`,
    '',
    `| tools | in-memory scan p50 / p99 ms | LanceDB flat p50 / p99 ms | index build ms | LanceDB ANN p50 / p99 ms | ANN recall@${K} | recall@${TOP} |`,
    '|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.tools} | ${r.scan_ms.p50} / ${r.scan_ms.p99} | ${r.lance_flat_ms.p50} / ${r.lance_flat_ms.p99} | ${r.index_build_ms} | ${r.lance_ann_ms.p50} / ${r.lance_ann_ms.p99} | ${r.recall_at_depth} | ${r.recall_at_10} |`,
    ),
  ].join('\n');
}

main().catch((err: unknown) => {
  process.stderr.write(`annCrossover: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
