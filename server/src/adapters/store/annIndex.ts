/**
 * LanceDB's own vector index over the tool table's `vector` column, and how a search reads it.
 * Below a catalog size the in-memory scan (index/vectorMatrix.ts) is quicker; past it, an
 * approximate index searched by LanceDB is. Both the size and the index's parameters were
 * chosen by measurement (`npm run bench:vector-index`, bench/src/annCrossover.ts; the runs are
 * in bench-results.md): LanceDB's query has a fixed cost, while the scan grows with rows ×
 * dimension, so the scan wins on small catalogs and the index on large ones. The search width
 * (ANN_SEARCH) keeps recall@50 against the exact scan near 0.99 up to 100,000 rows.
 */
import type * as LanceDb from '@lancedb/lancedb';

export type AnnKind = 'hnsw-sq' | 'ivf-pq';

/** How an HNSW-SQ index is built: graph degree, build-time search width, rows per IVF partition. */
export interface HnswBuild {
  m: number;
  efConstruction: number;
  rowsPerPartition: number;
}

/** Few, large partitions: HNSW does the narrowing inside each, and every partition a query probes costs a graph walk. */
export const HNSW_BUILD: HnswBuild = { m: 16, efConstruction: 150, rowsPerPartition: 50_000 };

/** The index LanceDB builds for `rows` vectors (`build`: the bench's sweep; the store uses the default). */
export function annIndexConfig(
  lancedb: typeof LanceDb,
  kind: AnnKind,
  rows: number,
  build: HnswBuild = HNSW_BUILD,
): LanceDb.Index {
  if (kind === 'hnsw-sq') {
    const numPartitions = Math.max(1, Math.round(rows / build.rowsPerPartition));
    return lancedb.Index.hnswSq({
      distanceType: 'cosine',
      numPartitions,
      m: build.m,
      efConstruction: build.efConstruction,
    });
  }
  return lancedb.Index.ivfPq({
    distanceType: 'cosine',
    numPartitions: Math.max(1, Math.round(Math.sqrt(rows))),
    numSubVectors: 48,
  });
}

/** How far a search reads the index: partitions probed, HNSW candidate list, and how many rows per hit are re-scored on the full vectors. */
export interface AnnSearchParams {
  nprobes: number;
  /** HNSW's candidate list, as a multiple of the rows asked for (never under 64, nor under limit × refineFactor). */
  efPerRow?: number;
  refineFactor?: number;
}

/**
 * How a search for `limit` rows reads each kind of index: enough of it probed that recall stays
 * high. HNSW-SQ, by the sweep (annCrossover.ts --sweep-sizes 50000,100000; bench-results.md,
 * "HNSW-SQ search width"): the scalar quantizer's error is what costs recall, and re-scoring
 * twice the rows on the full vectors (refine 2) recovers it once HNSW's candidate list is wide
 * enough; a larger refine gained nothing more, and a denser graph little for twice the build time.
 */
export const ANN_SEARCH: Record<AnnKind, AnnSearchParams> = {
  'hnsw-sq': { nprobes: 4, efPerRow: 16, refineFactor: 2 },
  'ivf-pq': { nprobes: 24, refineFactor: 10 },
};

/** `q` reading the index as `params` say, for `limit` rows. */
export function withAnnSearch(q: LanceDb.VectorQuery, params: AnnSearchParams, limit: number): LanceDb.VectorQuery {
  let out = q.nprobes(params.nprobes);
  // LanceDB refuses an ef below the candidates it is asked for (limit × refine factor).
  if (params.efPerRow !== undefined)
    out = out.ef(Math.max(Math.round(params.efPerRow * limit), limit * (params.refineFactor ?? 1), 64));
  if (params.refineFactor !== undefined) out = out.refineFactor(params.refineFactor);
  return out;
}

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
export async function maintainAnnIndex(
  lancedb: typeof LanceDb,
  table: LanceDb.Table,
  minRows: number,
): Promise<boolean> {
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
  // A cold start appends a chunk at a time: thousands of small files, each opened by every
  // search (refine reads full vectors, the flat search all of them). Compacted before the index
  // is built over them; versions older than a minute pruned (files still in use are kept).
  await table.optimize({ cleanupOlderThan: new Date(Date.now() - PRUNE_AFTER_MS) });
  await table.createIndex('vector', { config: annIndexConfig(lancedb, STORE_ANN_KIND, rows), replace: true });
  return true;
}

const PRUNE_AFTER_MS = 60_000;

/** The `limit` rows nearest `vector` by LanceDB's index (cosine), best first; `server` restricts to one server's rows. */
export async function annSearch(
  table: LanceDb.Table,
  vector: Float32Array,
  limit: number,
  server?: string,
): Promise<{ id: string; similarity: number }[]> {
  const query = withAnnSearch(table.vectorSearch(vector).distanceType('cosine'), ANN_SEARCH[STORE_ANN_KIND], limit);
  return hitsOf(query, limit, server === undefined ? [] : [`server = ${sqlString(server)}`]);
}

/**
 * The `limit` rows of `model` nearest `vector` by exact cosine, reading every vector from disk
 * (LanceDB's flat search, index or not): at 100,000 rows about as quick as the in-memory scan
 * (annCrossover.ts), without holding the vectors in memory.
 */
export async function flatSearch(
  table: LanceDb.Table,
  vector: Float32Array,
  limit: number,
  filter: { model: string; server?: string },
): Promise<{ id: string; similarity: number }[]> {
  const where = [
    `model = ${sqlString(filter.model)}`,
    ...(filter.server === undefined ? [] : [`server = ${sqlString(filter.server)}`]),
  ];
  return hitsOf(table.vectorSearch(vector).distanceType('cosine').bypassVectorIndex(), limit, where);
}

async function hitsOf(
  query: LanceDb.VectorQuery,
  limit: number,
  where: string[],
): Promise<{ id: string; similarity: number }[]> {
  let q = query.limit(limit).select(['id']);
  if (where.length > 0) q = q.where(where.join(' AND '));
  const rows = (await q.toArray()) as { id: string; _distance: number }[];
  return rows.map((r) => ({ id: r.id, similarity: 1 - r._distance }));
}

function sqlString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}
