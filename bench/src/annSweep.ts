/**
 * The search-width sweep behind the store's HNSW-SQ settings (adapters/store/annIndex.ts): at
 * one catalog size, the index built with each `m:efConstruction`, then searched with each
 * combination of nprobes, ef and refine factor; latency one query at a time after a warm-up,
 * recall against the exact in-memory scan (index/vectorMatrix.ts), whose latency is the bar
 * (ANN must stay below it to be worth asking). Run from annCrossover.ts (--sweep-sizes).
 */
import {
  annIndexConfig,
  HNSW_BUILD,
  withAnnSearch,
  type AnnSearchParams,
  type HnswBuild,
} from '../../server/src/adapters/store/annIndex';
import { exactTop, recallAt, scanOf, timeEachAsync, TOP, withSampleTable, type AnnSample } from './annSample';
import { latency, type LatencyFigures } from './scaleKeyword';

export interface SweepGrid {
  builds: HnswBuild[];
  searches: AnnSearchParams[];
}

export interface SweepRow {
  tools: number;
  m: number;
  ef_construction: number;
  partitions: number;
  index_build_ms: number;
  nprobes: number;
  /** ef as a multiple of the rows asked for. */
  ef_per_row: number;
  refine_factor: number | undefined;
  scan_ms: LatencyFigures;
  ann_ms: LatencyFigures;
  recall_at_depth: number;
  recall_at_10: number;
}

/** The grid from the command line: `--builds 16:150,32:300 --ef 2,4,8 --refine none,2,5 --nprobes 4`. */
export function sweepGrid(args: { builds?: string; ef?: string; refine?: string; nprobes?: string }): SweepGrid {
  const list = (s: string | undefined) => (s ?? '').split(',').filter((x) => x !== '');
  const builds = list(args.builds).map((b): HnswBuild => {
    const [m, efc] = b.split(':').map(Number);
    if (!Number.isInteger(m) || !Number.isInteger(efc))
      throw new Error(`--builds wants m:efConstruction pairs, got "${b}"`);
    return { ...HNSW_BUILD, m: m!, efConstruction: efc! };
  });
  const searches: AnnSearchParams[] = [];
  for (const nprobes of list(args.nprobes).map(Number))
    for (const efPerRow of list(args.ef).map(Number))
      for (const refine of list(args.refine))
        searches.push({ nprobes, efPerRow, ...(refine !== 'none' && { refineFactor: Number(refine) }) });
  return { builds, searches };
}

export async function runSweep(s: AnnSample, grid: SweepGrid, depth: number): Promise<SweepRow[]> {
  const matrix = scanOf(s);
  const scanMs = latency(await timeEachAsync(s.queryVectors, async (q) => matrix.search(q, depth)));
  const exact = exactTop(matrix, s, depth);
  return withSampleTable(s, async (table) => {
    const out: SweepRow[] = [];
    for (const build of grid.builds) {
      const start = performance.now();
      await table.createIndex('vector', {
        config: annIndexConfig(s.lancedb, 'hnsw-sq', s.tools.length, build),
        replace: true,
      });
      const buildMs = Math.round(performance.now() - start);
      for (const search of grid.searches) {
        const found: string[][] = [];
        const times = await timeEachAsync(s.queryVectors, async (q) => {
          const query = withAnnSearch(table.vectorSearch(q).distanceType('cosine'), search, depth);
          found.push(((await query.limit(depth).select(['key']).toArray()) as { key: string }[]).map((h) => h.key));
        });
        const timed = found.slice(-s.queryVectors.length);
        const row: SweepRow = {
          tools: s.tools.length,
          m: build.m,
          ef_construction: build.efConstruction,
          partitions: Math.max(1, Math.round(s.tools.length / build.rowsPerPartition)),
          index_build_ms: buildMs,
          nprobes: search.nprobes,
          ef_per_row: search.efPerRow ?? 0,
          refine_factor: search.refineFactor,
          scan_ms: scanMs,
          ann_ms: latency(times),
          recall_at_depth: recallAt(timed, exact, depth),
          recall_at_10: recallAt(timed, exact, TOP),
        };
        process.stderr.write(`${JSON.stringify(row)}\n`);
        out.push(row);
      }
    }
    return out;
  });
}

export function formatSweep(rows: readonly SweepRow[], depth: number): string {
  return [
    `HNSW-SQ search width (ef = ef/row × ${depth}, at least 64; refine = rows re-scored on full vectors per hit), against the in-memory scan at the same size:`,
    '',
    `| tools | m / efConstruction / partitions | build ms | nprobes | ef/row | refine | ANN p50 / p99 ms | scan p50 / p99 ms | recall@${depth} | recall@${TOP} |`,
    '|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.tools} | ${r.m} / ${r.ef_construction} / ${r.partitions} | ${r.index_build_ms} | ${r.nprobes} | ${r.ef_per_row} | ${r.refine_factor ?? '–'} | ${r.ann_ms.p50} / ${r.ann_ms.p99} | ${r.scan_ms.p50} / ${r.scan_ms.p99} | ${r.recall_at_depth} | ${r.recall_at_10} |`,
    ),
  ].join('\n');
}
