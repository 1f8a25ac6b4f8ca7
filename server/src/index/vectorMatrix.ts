/**
 * In-memory flat vector search: unit vectors packed in one Float32Array, scored by dot
 * product (= cosine), top-k kept in a small sorted buffer. Chosen over LanceDB's flat search
 * by measurement (see the index report): equal or faster at 2k–10k rows, no I/O per query,
 * and it works when the store is read-only or being rebuilt. Past ANN_MIN_ROWS rows the vectors
 * are not held in memory at all: LanceDB's own vector index answers (adapters/store/annIndex.ts),
 * its exact flat search the fallback (index/heldVectors.ts).
 */
export interface VectorHit {
  key: string;
  similarity: number;
}

export class VectorMatrix {
  private keys: string[] = [];
  private servers: string[] = [];
  private data = new Float32Array(0);
  private dim = 0;

  /** Replaces the contents. Vectors are normalized here; rows of another dimension are skipped. */
  load(rows: readonly { key: string; server: string; vector: ArrayLike<number> }[]): void {
    const dim = rows[0]?.vector.length ?? 0;
    const kept = rows.filter((r) => r.vector.length === dim);
    this.dim = dim;
    this.keys = kept.map((r) => r.key);
    this.servers = kept.map((r) => r.server);
    this.data = new Float32Array(kept.length * dim);
    // Normalized in place: no temporary vector per row (2,220 of them at each rebuild).
    kept.forEach((r, i) => {
      this.data.set(r.vector, i * dim);
      normalizeInPlace(this.data.subarray(i * dim, (i + 1) * dim));
    });
  }

  get size(): number {
    return this.keys.length;
  }

  /** The `limit` rows most similar to `query`, best first; `server` restricts to one server's tools. */
  search(query: ArrayLike<number>, limit: number, server?: string): VectorHit[] {
    if (query.length !== this.dim || this.size === 0 || limit <= 0) return [];
    const q = normalized(query);
    const dim = this.dim;
    const data = this.data;
    const topScores = new Float32Array(limit).fill(-Infinity);
    const topRows = new Int32Array(limit).fill(-1);
    for (let row = 0; row < this.keys.length; row++) {
      if (server !== undefined && this.servers[row] !== server) continue;
      const s = dot(data, row * dim, q, dim);
      if (s <= topScores[limit - 1]) continue;
      let at = limit - 1;
      while (at > 0 && topScores[at - 1] < s) {
        topScores[at] = topScores[at - 1];
        topRows[at] = topRows[at - 1];
        at--;
      }
      topScores[at] = s;
      topRows[at] = row;
    }
    const hits: VectorHit[] = [];
    for (let i = 0; i < limit && topRows[i] >= 0; i++)
      hits.push({ key: this.keys[topRows[i]], similarity: topScores[i] });
    return hits;
  }
}

/** Four independent accumulators: about a third faster than one in V8 (no SIMD in plain JS). */
function dot(data: Float32Array, base: number, q: Float32Array, dim: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let j = 0;
  for (; j + 3 < dim; j += 4) {
    s0 += data[base + j] * q[j];
    s1 += data[base + j + 1] * q[j + 1];
    s2 += data[base + j + 2] * q[j + 2];
    s3 += data[base + j + 3] * q[j + 3];
  }
  for (; j < dim; j++) s0 += data[base + j] * q[j];
  return s0 + s1 + s2 + s3;
}

function normalized(v: ArrayLike<number>): Float32Array {
  return normalizeInPlace(Float32Array.from(v));
}

function normalizeInPlace(out: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < out.length; i++) sum += out[i] * out[i];
  const norm = Math.sqrt(sum) || 1;
  for (let i = 0; i < out.length; i++) out[i] /= norm;
  return out;
}
