/**
 * The search-width sweep behind the store's HNSW-SQ settings (adapters/store/annIndex.ts): at
 * one catalog size, the index built with each `m:efConstruction`, then searched with each
 * combination of nprobes, ef and refine factor; latency one query at a time after a warm-up,
 * recall against the exact in-memory scan (index/vectorMatrix.ts), whose latency is the bar
 * (ANN must stay below it to be worth asking). Run from annCrossover.ts (--sweep-sizes).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as LanceDb from '@lancedb/lancedb';
import type { lanceModules } from '../adapters/store/lanceModule';
import { annIndexConfig, HNSW_BUILD, withAnnSearch, type AnnSearchParams, type HnswBuild } from '../adapters/store/annIndex';
import { VectorMatrix } from '../index/vectorMatrix';
import { latency, type LatencyFigures } from './scaleKeyword';

const WARM_UP = 20;
const TOP = 10;

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
    if (!Number.isInteger(m) || !Number.isInteger(efc)) throw new Error(`--builds wants m:efConstruction pairs, got "${b}"`);
    return { ...HNSW_BUILD, m: m!, efConstruction: efc! };
  });
  const searches: AnnSearchParams[] = [];
  for (const nprobes of list(args.nprobes).map(Number))
    for (const efPerRow of list(args.ef).map(Number))
      for (const refine of list(args.refine)) searches.push({ nprobes, efPerRow, ...(refine !== 'none' && { refineFactor: Number(refine) }) });
  return { builds, searches };
}

export async function runSweep(
  lancedb: typeof LanceDb,
  arrow: Awaited<ReturnType<typeof lanceModules>>['arrow'],
  tools: readonly { key: string; server: string }[],
  vectors: readonly Float32Array[],
  queryVectors: readonly Float32Array[],
  dims: number,
  grid: SweepGrid,
  depth: number,
): Promise<SweepRow[]> {
  const matrix = new VectorMatrix();
  matrix.load(tools.map((t, i) => ({ key: t.key, server: t.server, vector: vectors[i]! })));
  const scanMs = latency(await timeEachAsync(queryVectors, async (q) => matrix.search(q, depth)));
  const exact = queryVectors.map((q) => matrix.search(q, depth).map((h) => h.key));
  const dir = mkdtempSync(join(tmpdir(), 'mcp-lens-ann-sweep-'));
  const db = await lancedb.connect(join(dir, 'lancedb'));
  const out: SweepRow[] = [];
  try {
    const schema = new arrow.Schema([
      new arrow.Field('key', new arrow.Utf8(), false),
      new arrow.Field('vector', new arrow.FixedSizeList(dims, new arrow.Field('item', new arrow.Float32(), true)), false),
    ]);
    const table = await db.createEmptyTable('tools', schema);
    for (let i = 0; i < tools.length; i += 10_000) {
      await table.add(tools.slice(i, i + 10_000).map((t, j) => ({ key: t.key, vector: Array.from(vectors[i + j]!) })));
    }
    for (const build of grid.builds) {
      const start = performance.now();
      await table.createIndex('vector', { config: annIndexConfig(lancedb, 'hnsw-sq', tools.length, build), replace: true });
      const buildMs = Math.round(performance.now() - start);
      for (const search of grid.searches) {
        const found: string[][] = [];
        const times = await timeEachAsync(queryVectors, async (q) => {
          const query = withAnnSearch(table.vectorSearch(q).distanceType('cosine'), search, depth);
          found.push(((await query.limit(depth).select(['key']).toArray()) as { key: string }[]).map((h) => h.key));
        });
        const timed = found.slice(-queryVectors.length);
        const row: SweepRow = {
          tools: tools.length,
          m: build.m,
          ef_construction: build.efConstruction,
          partitions: Math.max(1, Math.round(tools.length / build.rowsPerPartition)),
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
    table.close();
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

/** Share of each exact top `n` found in the same query's top `n`. */
export function recallAt(found: readonly string[][], exact: readonly string[][], n: number): number {
  let hit = 0;
  let total = 0;
  found.forEach((keys, i) => {
    const got = new Set(keys.slice(0, n));
    for (const key of exact[i]!.slice(0, n)) if (got.has(key)) hit++;
    total += Math.min(n, exact[i]!.length);
  });
  return Math.round((hit / Math.max(1, total)) * 1000) / 1000;
}

/** Latency of each query, one at a time, after a warm-up on the first few. */
export async function timeEachAsync(queries: readonly Float32Array[], run: (q: Float32Array) => Promise<unknown>): Promise<number[]> {
  for (const q of queries.slice(0, WARM_UP)) await run(q);
  const out: number[] = [];
  for (const q of queries) {
    const t = performance.now();
    await run(q);
    out.push(performance.now() - t);
  }
  return out;
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
