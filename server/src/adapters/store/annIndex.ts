/**
 * LanceDB's own vector index over the tool table's `vector` column, and how a search reads it.
 * Below a catalog size the in-memory scan (index/vectorMatrix.ts) is quicker; past it, an
 * approximate index searched by LanceDB is. Both the size and the index's parameters were
 * chosen by measurement (`node --import tsx server/src/bench/annCrossover.ts`: the test
 * server's vectors at nomic-embed-text's 768 dimensions, 300 queries, top 50 as hybrid fusion
 * asks; 2 loaded cores). p50 of the scan against IVF_HNSW_SQ: 1,000 rows 0.9 vs 3.2 ms, 2,500
 * 2.3 vs 3.2, 5,000 4.6 vs 3.0 (7.1 in a noisier run), 7,500 6.9 vs 3.1, 10,000 9–17 vs
 * 2.9–4.1, 50,000 48 vs 5.3 ms; recall@50 against the exact scan 0.98 at 5,000, 0.92 at
 * 50,000. LanceDB's query has a fixed cost of about 3 ms; the scan grows with rows × dimension.
 */
import type * as LanceDb from '@lancedb/lancedb';

export type AnnKind = 'hnsw-sq' | 'ivf-pq';

/** The index LanceDB builds for `rows` vectors. */
export function annIndexConfig(lancedb: typeof LanceDb, kind: AnnKind, rows: number): LanceDb.Index {
  if (kind === 'hnsw-sq') {
    // Few, large partitions: HNSW does the narrowing inside each, and every partition a query
    // probes costs a graph walk.
    return lancedb.Index.hnswSq({ distanceType: 'cosine', numPartitions: Math.max(1, Math.round(rows / HNSW_ROWS_PER_PARTITION)), m: 16, efConstruction: 150 });
  }
  return lancedb.Index.ivfPq({ distanceType: 'cosine', numPartitions: Math.max(1, Math.round(Math.sqrt(rows))), numSubVectors: 48 });
}

const HNSW_ROWS_PER_PARTITION = 50_000;

/** How a search for `limit` rows reads each kind of index: enough of it probed that recall stays high. */
export const ANN_QUERY: Record<AnnKind, (q: LanceDb.VectorQuery, limit: number) => LanceDb.VectorQuery> = {
  'hnsw-sq': (q, limit) =>
    q
      .nprobes(4)
      .ef(Math.max(2 * limit, 64))
      .refineFactor(2),
  'ivf-pq': (q) => q.nprobes(24).refineFactor(10),
};

/** The kind of index the store builds (annCrossover.ts measured both). */
export const STORE_ANN_KIND: AnnKind = 'hnsw-sq';

/**
 * From this many vectors on, the store builds LanceDB's index and search reads it instead of
 * scanning in memory: where the index's p99 beat the in-memory scan's in the measurement.
 */
export const ANN_MIN_ROWS = 5_000;

/** Rows written since the index was built, as a share of those it holds, before it is rebuilt (a search scans unindexed rows flat). */
const STALE_SHARE = 0.1;

/** Whether the table has a vector index on `vector`. */
export async function hasAnnIndex(table: LanceDb.Table): Promise<boolean> {
  return (await table.listIndices()).some((i) => i.columns.includes('vector'));
}

/**
 * Builds (or rebuilds, once a tenth of the rows are newer than it) the table's vector index,
 * when it holds at least `minRows`; drops it when it holds fewer. True when an index is there
 * afterwards.
 */
export async function maintainAnnIndex(lancedb: typeof LanceDb, table: LanceDb.Table, minRows: number): Promise<boolean> {
  const rows = await table.countRows();
  const index = (await table.listIndices()).find((i) => i.columns.includes('vector'));
  if (rows < minRows) {
    if (index) await table.dropIndex(index.name);
    return false;
  }
  if (index) {
    const stats = await table.indexStats(index.name);
    if (stats && stats.numUnindexedRows <= STALE_SHARE * stats.numIndexedRows) return true;
  }
  await table.createIndex('vector', { config: annIndexConfig(lancedb, STORE_ANN_KIND, rows), replace: true });
  return true;
}

/** The `limit` rows nearest `vector` by LanceDB's index (cosine), best first; `server` restricts to one server's rows. */
export async function annSearch(table: LanceDb.Table, vector: Float32Array, limit: number, server?: string): Promise<{ id: string; similarity: number }[]> {
  let query = ANN_QUERY[STORE_ANN_KIND](table.vectorSearch(vector).distanceType('cosine'), limit).limit(limit).select(['id']);
  if (server !== undefined) query = query.where(`server = '${server.replace(/'/g, "''")}'`);
  const rows = (await query.toArray()) as { id: string; _distance: number }[];
  return rows.map((r) => ({ id: r.id, similarity: 1 - r._distance }));
}
