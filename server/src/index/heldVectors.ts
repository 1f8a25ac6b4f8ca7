/**
 * The embedding backfill's rows as held in memory (id, server, hash, model, and the vector
 * while it is kept here), and the in-memory scan built from them. Below the store's size for
 * LanceDB's vector index every row keeps its vector and `matrix` scans them; past it
 * `releaseVectors` drops them all — about 300 MB at 100,000 tools × 768 dimensions — and the
 * store, which holds the same vectors, searches instead (embeddingBackfill.ts `search`).
 */
import type { StoredVector } from '../adapters/store/toolStore';
import { VectorMatrix } from './vectorMatrix';

export class HeldVectors {
  private readonly rows = new Map<string, StoredVector>();
  private readonly scan = new VectorMatrix();
  private scanDirty = true;
  /** Rows of the current model in the catalog, and how many of them hold their vector; undefined when stale. */
  private counts: { current: number; inMemory: number } | undefined;
  /** Some row still holds its vector (what `releaseVectors` drops). */
  private holding = false;

  constructor(
    /** The embedder's model id: only its vectors are searched. */
    private readonly model: string,
    /** Whether the catalog has this tool now (rows of removed tools are never answers). */
    private readonly inCatalog: (id: string) => boolean,
  ) {}

  get(id: string): StoredVector | undefined {
    return this.rows.get(id);
  }

  values(): IterableIterator<StoredVector> {
    return this.rows.values();
  }

  ids(): string[] {
    return [...this.rows.keys()];
  }

  /** Inserts or replaces rows (from the store, or just embedded). */
  put(rows: Iterable<StoredVector>): void {
    for (const r of rows) {
      this.rows.set(r.id, r);
      if (r.vector) this.holding = true;
    }
    this.changed();
  }

  delete(ids: Iterable<string>): void {
    for (const id of ids) this.rows.delete(id);
    this.changed();
  }

  clear(): void {
    this.rows.clear();
    this.changed();
  }

  /** The catalog or the rows changed: counts and the scan are built again when next asked for. */
  changed(): void {
    this.scanDirty = true;
    this.counts = undefined;
  }

  /** Cheaper than counting: status runs on every progress event. */
  hasCurrent(): boolean {
    for (const r of this.rows.values()) if (this.current(r)) return true;
    return false;
  }

  currentCounts(): { current: number; inMemory: number } {
    if (!this.counts) {
      let current = 0;
      let inMemory = 0;
      for (const r of this.rows.values()) {
        if (!this.current(r)) continue;
        current++;
        if (r.vector) inMemory++;
      }
      this.counts = { current, inMemory };
    }
    return this.counts;
  }

  /** The in-memory scan over the current rows that hold their vector. */
  matrix(): VectorMatrix {
    if (this.scanDirty) {
      const rows = [...this.rows.values()].filter((r) => this.current(r) && r.vector);
      this.scan.load(rows.map((r) => ({ key: r.id, server: r.server, vector: r.vector! })));
      this.scanDirty = false;
    }
    return this.scan;
  }

  /** Drops every vector held here and the scan built from them; rows are copied, never changed (the store may share them). */
  releaseVectors(): void {
    if (!this.holding) return;
    for (const [id, r] of this.rows)
      if (r.vector) this.rows.set(id, { id: r.id, server: r.server, contentHash: r.contentHash, model: r.model });
    this.holding = false;
    this.scan.load([]);
    this.changed();
  }

  get holdsVectors(): boolean {
    return this.holding;
  }

  /** The tool is in the catalog and its row holds this model's vector (here or only in the store). */
  isCurrent(id: string): boolean {
    const r = this.rows.get(id);
    return r !== undefined && this.current(r);
  }

  private current(r: StoredVector): boolean {
    return r.model === this.model && this.inCatalog(r.id);
  }
}
