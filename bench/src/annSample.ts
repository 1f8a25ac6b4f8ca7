/**
 * What the vector-index benches (annCrossover.ts, annSweep.ts) measure against: a slice of the
 * org catalog with its vectors and the queries', the exact top n of each query by the in-memory
 * scan (index/vectorMatrix.ts), and a LanceDB table of the same vectors in a temp folder. Also
 * how they time a search and score its recall.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as LanceDb from '@lancedb/lancedb';
import type { lanceModules } from '../../server/src/adapters/store/lanceModule';
import { VectorMatrix } from '../../server/src/index/vectorMatrix';

/** Queries run before the timed pass. */
export const WARM_UP = 20;
/** The second recall figure: the exact top 10 in the search's top 10. */
export const TOP = 10;

export interface AnnSample {
  lancedb: typeof LanceDb;
  arrow: Awaited<ReturnType<typeof lanceModules>>['arrow'];
  tools: readonly { key: string; server: string }[];
  vectors: readonly Float32Array[];
  queryVectors: readonly Float32Array[];
  dims: number;
}

/** The in-memory scan over the sample's vectors. */
export function scanOf(s: AnnSample): VectorMatrix {
  const matrix = new VectorMatrix();
  matrix.load(s.tools.map((t, i) => ({ key: t.key, server: t.server, vector: s.vectors[i]! })));
  return matrix;
}

/** Each query's exact top `n` keys, by the scan. */
export function exactTop(matrix: VectorMatrix, s: AnnSample, n: number): string[][] {
  return s.queryVectors.map((q) => matrix.search(q, n).map((h) => h.key));
}

/** `fn` over a LanceDB table holding the sample's vectors (key, vector), in a temp folder removed afterwards. */
export async function withSampleTable<T>(s: AnnSample, fn: (table: LanceDb.Table) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-lens-ann-'));
  const db = await s.lancedb.connect(join(dir, 'lancedb'));
  try {
    const schema = new s.arrow.Schema([
      new s.arrow.Field('key', new s.arrow.Utf8(), false),
      new s.arrow.Field(
        'vector',
        new s.arrow.FixedSizeList(s.dims, new s.arrow.Field('item', new s.arrow.Float32(), true)),
        false,
      ),
    ]);
    const table = await db.createEmptyTable('tools', schema);
    const BATCH = 10_000;
    for (let i = 0; i < s.tools.length; i += BATCH) {
      await table.add(
        s.tools.slice(i, i + BATCH).map((t, j) => ({ key: t.key, vector: Array.from(s.vectors[i + j]!) })),
      );
    }
    try {
      return await fn(table);
    } finally {
      table.close();
    }
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Latency of each query, one at a time, after a warm-up on the first few. */
export async function timeEachAsync(
  queries: readonly Float32Array[],
  run: (q: Float32Array) => Promise<unknown>,
): Promise<number[]> {
  for (const q of queries.slice(0, WARM_UP)) await run(q);
  const out: number[] = [];
  for (const q of queries) {
    const t = performance.now();
    await run(q);
    out.push(performance.now() - t);
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
