/**
 * The persistent side of the tool index: one row per embedded tool. Below the store's size
 * for a vector index (`annMinRows`) the index keeps the vectors in memory and scans them, and
 * the store only makes them survive a restart; from that size on the vectors stay in the store
 * alone, which searches them itself (`nearest`, `scan`).
 */

/** What the index reads back and keeps in memory for one embedded tool. */
export interface StoredVector {
  /** Catalog key `server/originalName`. */
  id: string;
  server: string;
  /** sha256 of the embedded text and the input schema: equal hash and model → no re-embedding. */
  contentHash: string;
  /** Embedder id, e.g. `ollama:nomic-embed-text`. */
  model: string;
  /** Left out when the store holds `annMinRows` rows or more: it searches them itself then. */
  vector?: Float32Array;
}

/**
 * One embedded tool as written. Text and schema are stored so a person can see what was
 * embedded; the index never reads them back (it hashes the live catalog instead).
 */
export interface StoredTool extends StoredVector {
  vector: Float32Array;
  tool: string;
  /** Exactly the text that was embedded (without a model's task prefix). */
  text: string;
  inputSchemaJson: string;
}

export interface ToolStore {
  /** True when another process (or index instance) owns the folder: writes are refused. */
  readonly readOnly: boolean;
  readonly dir: string;
  /**
   * Every row's hash, and its vector below `annMinRows` rows. A read-only store reads the
   * latest version the writer committed.
   */
  readAll(): Promise<StoredVector[]>;
  /** Like readAll, but undefined when nothing was committed since the last read (a reader polls with this). */
  readChanged(): Promise<StoredVector[] | undefined>;
  /** Inserts or replaces rows by id. A vector dimension change recreates the table. */
  upsert(rows: readonly StoredTool[]): Promise<void>;
  delete(ids: readonly string[]): Promise<void>;
  /**
   * From this many rows on the store keeps a vector index of its own and `nearest` searches it
   * (annIndex.ts), and it no longer hands out vectors (the index would hold a copy of every
   * one); a store without one leaves all three out and the index scans in memory.
   */
  readonly annMinRows?: number;
  /** The rows nearest `vector` (cosine), best first; undefined while the store has no vector index yet. */
  nearest?(
    vector: Float32Array,
    limit: number,
    server?: string,
  ): Promise<{ id: string; similarity: number }[] | undefined>;
  /**
   * The `model`'s rows nearest `vector` by exact cosine over every stored vector, best first,
   * with no index: what answers while the index is built or rebuilt, or when it failed.
   */
  scan?(
    vector: Float32Array,
    limit: number,
    filter: { model: string; server?: string },
  ): Promise<{ id: string; similarity: number }[]>;
  /** Drops everything on disk and starts empty (used after a write found the store damaged). */
  rebuild(reason: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * This kind of store cannot work in this process at all (LanceDB's native module did not
 * load: none for this platform, wrong libc or architecture). Not damage: nothing on disk is
 * touched, and the index searches keyword-only with `reason` as its mode label.
 */
export class StoreUnavailableError extends Error {
  constructor(
    /** Completes "keyword only: …", e.g. `no LanceDB native module for darwin-x64`. */
    readonly reason: string,
    /** The loader's own words, for the log. */
    readonly detail: string,
  ) {
    super(`${reason}: ${detail}`);
    this.name = 'StoreUnavailableError';
  }
}
