/**
 * ToolStore on an embedded LanceDB in a folder the caller owns (`<workspace>/.mcp-lens/` for
 * the CLI, workspace storage for the extension). Layout: `<dir>/lancedb/tools.lance` and
 * `<dir>/toolStore.lock`. A store that cannot be opened or read is dropped and rebuilt (the
 * index re-embeds), never a crash; a store whose lock another live process holds is opened
 * read-only and never written.
 *
 * Memory: LanceDB's native library and its thread pools cost RSS just to load, apache-arrow
 * more (`npm run bench:memory`; bench-results.md, "LanceDB's load cost"). The index opens
 * this store only once its embedder answers (a sidecar without Ollama loads neither), and a
 * start whose store has not changed reads the flat snapshot beside the table instead
 * (vectorSnapshot.ts): LanceDB is then loaded by the first write, if one comes. Reads take
 * only the columns the index needs, straight from Arrow columns; caches and thread pools are
 * capped (lanceModule.ts). From annMinRows rows on the vectors stay on disk: reads leave the
 * vector column out, the writer's mirror drops them, no snapshot is kept (LanceDB is loaded
 * anyway to search its index), and `nearest`/`scan` search them. Where LanceDB cannot load at all, open() and writes throw
 * LanceUnavailableError, never treated as damage: the store on disk is left as it is.
 */
import type * as lancedb from '@lancedb/lancedb';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../../core/logger';
import { SerialQueue } from './serialQueue';
import { WriterLock } from '../writerLock';
import { ensurePrivateDir, ensurePrivateDirIfPresent } from '../privateFiles';
import type { StoredTool, StoredVector, ToolStore } from './toolStore';
import {
  readSnapshot,
  removeSnapshot,
  sameStamp,
  snapshotStamp,
  writeSnapshot,
  type SnapshotStamp,
} from './vectorSnapshot';
import { errorMessage } from '../../core/errorMessage';
import { LanceUnavailableError, lanceModules } from './lanceModule';
import { ANN_MIN_ROWS, annSearch, flatSearch, hasAnnIndex, maintainAnnIndex } from './annIndex';
import { readRows, schemaFor, TABLE, toRecord, vectorDimension } from './lanceRows';

/** Quiet time after the last write before the snapshot is written again (a cold start writes in many chunks). */
const SNAPSHOT_DELAY_MS = 500;

/** Session caches (LanceDB defaults: 6 GB index, 1 GB metadata); this store has no index and one small table. */
const CACHE_BYTES = 8n * 1024n * 1024n;

async function connect(dir: string, readOnly: boolean): Promise<lancedb.Connection> {
  const lib = (await lanceModules()).lancedb;
  // A reader checks for the writer's new versions on every read.
  return lib.connect(
    dbPath(dir),
    readOnly ? { readConsistencyInterval: 0 } : {},
    new lib.Session(CACHE_BYTES, CACHE_BYTES),
  );
}

export interface LanceToolStoreOptions {
  dir: string;
  log: Logger;
  /** Open without taking the lock (a reader by choice). */
  readOnly?: boolean;
  /** From this many rows on, LanceDB's vector index is built and `nearest` reads it (default ANN_MIN_ROWS). */
  annMinRows?: number;
}

export class LanceToolStore implements ToolStore {
  private readonly writes = new SerialQueue();
  private db: lancedb.Connection | undefined;
  private table: lancedb.Table | undefined;
  private dimension: number | undefined;
  /** The table version the last readAll saw (readChanged compares against it). */
  private readVersion: number | undefined;
  /** openTable has run once (a writer opens lazily when a snapshot stood in for the table). */
  private opened = false;
  /** The snapshot file the last readAll read. */
  private snapshotSeen: SnapshotStamp | undefined;
  /** The table holds commits the snapshot does not. */
  private snapshotDirty = false;
  private snapshotTimer: NodeJS.Timeout | undefined;
  /**
   * A writer's view of the table's rows, when known (after a full read, or from an empty
   * table): the snapshot is written from it, and writes of new ids become plain appends. It
   * shares the vectors the index holds, so it costs map entries, not vector copies; from
   * annMinRows rows on it holds no vectors (`releaseVectors`) and no snapshot is kept.
   */
  private mirror: Map<string, StoredVector> | undefined;
  /** The mirror's vectors were dropped (it reached annMinRows rows): the snapshot can no longer be written from it. */
  private mirrorReleased = false;
  /** The table has LanceDB's vector index (annIndex.ts); `annCheck` is finding out or building it. */
  private annReady = false;
  private annCheck: Promise<void> | undefined;

  private constructor(
    readonly dir: string,
    readonly readOnly: boolean,
    private readonly log: Logger,
    private readonly lock: WriterLock | undefined,
    readonly annMinRows: number,
  ) {}

  /** Opens (or creates) the store; damage is repaired here, so this only throws when the folder itself is unusable. */
  static async open(options: LanceToolStoreOptions): Promise<LanceToolStore> {
    // Private folders (0700, never a link): in the CLI they sit in `.mcp-lens/`, which a
    // repository can ship. LanceDB writes its table files with its own modes inside them.
    mkdirSync(options.dir, { recursive: true, mode: 0o700 });
    ensurePrivateDir(options.dir);
    ensurePrivateDirIfPresent(dbPath(options.dir));
    let lock: WriterLock | undefined;
    if (!options.readOnly) {
      const candidate = new WriterLock(join(options.dir, 'toolStore.lock'));
      if (candidate.tryAcquire()) lock = candidate;
      else {
        const holder = candidate.holder();
        const why = holder === undefined ? 'its writer lock could not be taken' : `it is in use by process ${holder}`;
        options.log.info(`tool store ${options.dir}: ${why}; opening it read-only`);
      }
    }
    const store = new LanceToolStore(
      options.dir,
      lock === undefined,
      options.log,
      lock,
      options.annMinRows ?? ANN_MIN_ROWS,
    );
    try {
      // A snapshot is a committed state: the table is opened (and LanceDB loaded) only if it is
      // unusable or a write comes. Without one, LanceDB will be needed at once: a platform where
      // it cannot load is found out here (LanceUnavailableError), not at the first write.
      if (!existsSync(store.snapshotPath)) {
        await lanceModules();
        await store.openTableOnce();
      }
    } catch (err) {
      lock?.release();
      throw err;
    }
    return store;
  }

  async readAll(): Promise<StoredVector[]> {
    const snapshot = readSnapshot(this.snapshotPath);
    if (snapshot) {
      this.snapshotSeen = snapshot.stamp;
      const rows = this.withoutVectorsPastAnn(snapshot.rows);
      if (!this.readOnly) this.setMirror(rows);
      return rows;
    }
    this.snapshotSeen = undefined;
    if (!this.table) await this.openTableOnce();
    if (!this.table) return [];
    try {
      const version = await this.table.version();
      // Past the index's size the vectors stay on disk: LanceDB searches them.
      const rows = await readRows(this.table, (await this.table.countRows()) < this.annMinRows);
      this.readVersion = version;
      // A writer that had to read the table leaves a snapshot for the next start (below annMinRows).
      if (!this.readOnly) {
        this.setMirror(rows);
        this.scheduleSnapshot();
      }
      return rows;
    } catch (err) {
      if (err instanceof LanceUnavailableError) throw err;
      if (this.readOnly) throw contextError(`reading tool store ${this.dir}`, err);
      await this.rebuild(`it could not be read (${errorMessage(err)})`);
      return [];
    }
  }

  async readChanged(): Promise<StoredVector[] | undefined> {
    const stamp = snapshotStamp(this.snapshotPath);
    if (stamp) return sameStamp(stamp, this.snapshotSeen) ? undefined : this.readAll();
    // No snapshot: the writer is committing, or never wrote one. The table decides.
    if (!this.table) await this.openTableOnce();
    if (!this.table) return this.readVersion === undefined && this.snapshotSeen === undefined ? undefined : [];
    if (
      this.snapshotSeen === undefined &&
      this.readVersion !== undefined &&
      (await this.table.version()) === this.readVersion
    )
      return undefined;
    return this.readAll();
  }

  upsert(rows: readonly StoredTool[]): Promise<void> {
    return this.commit(async () => {
      if (rows.length === 0) return;
      const dimension = rows[0].vector.length;
      if (!this.table || this.dimension !== dimension) await this.createTable(dimension);
      const data = rows.map(toRecord);
      // Only new ids (a cold start): an append, much lighter than mergeInsert's join.
      const allNew =
        this.mirror !== undefined &&
        rows.every((r) => !this.mirror!.has(r.id)) &&
        new Set(rows.map((r) => r.id)).size === rows.length;
      if (allNew) await this.table!.add(data);
      else await this.table!.mergeInsert('id').whenMatchedUpdateAll().whenNotMatchedInsertAll().execute(data);
      const keep = !this.mirrorReleased;
      for (const r of rows)
        this.mirror?.set(r.id, {
          id: r.id,
          server: r.server,
          contentHash: r.contentHash,
          model: r.model,
          ...(keep && { vector: r.vector }),
        });
      this.releaseMirrorPastAnn();
    });
  }

  delete(ids: readonly string[]): Promise<void> {
    return this.commit(async () => {
      if (!this.table || ids.length === 0) return;
      for (let i = 0; i < ids.length; i += 500) {
        await this.table.delete(
          `id IN (${ids
            .slice(i, i + 500)
            .map(sqlString)
            .join(', ')})`,
        );
      }
      for (const id of ids) this.mirror?.delete(id);
    });
  }

  /**
   * Search by LanceDB's vector index. Undefined while the table has none (the caller scans in
   * memory): the first such call looks for it, or has the writer build it, in the background.
   */
  async nearest(
    vector: Float32Array,
    limit: number,
    server?: string,
  ): Promise<{ id: string; similarity: number }[] | undefined> {
    if (this.annReady && this.table) return annSearch(this.table, vector, limit, server);
    this.annCheck ??= (this.readOnly ? this.findAnnIndex() : this.writes.run(() => this.maintainAnn())).finally(
      () => (this.annCheck = undefined),
    );
    return undefined;
  }

  /** LanceDB's exact search over the stored vectors (annIndex.ts flatSearch); nothing stored, nothing found. */
  async scan(
    vector: Float32Array,
    limit: number,
    filter: { model: string; server?: string },
  ): Promise<{ id: string; similarity: number }[]> {
    if (!this.table) await this.openTableOnce();
    if (!this.table || vector.length !== this.dimension) return [];
    return flatSearch(this.table, vector, limit, filter);
  }

  rebuild(reason: string): Promise<void> {
    return this.write(async () => this.rebuildNow(reason));
  }

  async close(): Promise<void> {
    clearTimeout(this.snapshotTimer);
    if (this.snapshotDirty && !this.readOnly) await this.writes.run(() => this.flushSnapshot());
    await this.writes.idle();
    this.table?.close();
    this.table = undefined;
    this.db?.close();
    this.db = undefined;
    this.lock?.release();
  }

  private get snapshotPath(): string {
    return join(dbPath(this.dir), `${TABLE}.vectors`);
  }

  private write(job: () => Promise<void>): Promise<void> {
    if (this.readOnly)
      return Promise.reject(new Error(`tool store ${this.dir} is read-only (another process writes it)`));
    return this.writes.run(job);
  }

  /** A write that changes rows: the snapshot goes first (so it never disagrees with the table) and comes back once writes go quiet. */
  private commit(job: () => Promise<void>): Promise<void> {
    return this.write(async () => {
      if (!this.opened) await this.openTable();
      removeSnapshot(this.snapshotPath);
      this.snapshotSeen = undefined;
      try {
        await job();
      } catch (err) {
        // What the table holds after a failed write is unknown: the snapshot will be read from it.
        this.mirror = undefined;
        throw err;
      } finally {
        this.scheduleSnapshot();
      }
    });
  }

  private scheduleSnapshot(): void {
    this.snapshotDirty = true;
    clearTimeout(this.snapshotTimer);
    this.snapshotTimer = setTimeout(() => {
      this.writes.run(() => this.flushSnapshot()).catch(() => undefined);
    }, SNAPSHOT_DELAY_MS);
    this.snapshotTimer.unref();
  }

  /** In the write queue: the table's rows as the snapshot. A failure leaves no snapshot, only a slower next start. */
  private async flushSnapshot(): Promise<void> {
    if (!this.snapshotDirty) return;
    this.snapshotDirty = false;
    try {
      // Past annMinRows a snapshot would only be read to be dropped: the vectors stay in the table.
      if (!this.table || this.mirrorReleased || (!this.mirror && (await this.table.countRows()) >= this.annMinRows))
        return removeSnapshot(this.snapshotPath);
      writeSnapshot(this.snapshotPath, this.mirror ? [...this.mirror.values()] : await readRows(this.table));
    } catch (err) {
      removeSnapshot(this.snapshotPath);
      this.log.debug(`tool store ${this.dir}: vector snapshot not written (${errorMessage(err)})`);
    }
    // Writes have gone quiet: the vector index follows the rows (built, refreshed or dropped).
    await this.maintainAnn();
  }

  /** In the write queue. A failure leaves search on the in-memory scan. */
  private async maintainAnn(): Promise<void> {
    if (!this.opened) await this.openTable();
    try {
      this.annReady =
        this.table !== undefined &&
        (await maintainAnnIndex((await lanceModules()).lancedb, this.table, this.annMinRows));
    } catch (err) {
      this.annReady = false;
      this.log.debug(`tool store ${this.dir}: vector index not built (${errorMessage(err)})`);
    }
  }

  /** A reader: whether the writer has built the index. */
  private async findAnnIndex(): Promise<void> {
    await this.openTableOnce().catch(() => undefined);
    this.annReady = this.table !== undefined && (await hasAnnIndex(this.table).catch(() => false));
  }

  private async rebuildNow(reason: string): Promise<void> {
    this.log.warn(`rebuilding tool store ${this.dir}: ${reason}`);
    this.table?.close();
    this.table = undefined;
    this.annReady = false;
    this.dimension = undefined;
    this.readVersion = undefined;
    this.snapshotSeen = undefined;
    this.setMirror([]);
    this.db?.close();
    this.db = undefined;
    // The snapshot lives in this folder too.
    rmSync(dbPath(this.dir), { recursive: true, force: true });
  }

  /** A reader looks again every time (the writer may have created the table since); a writer once, in its queue. */
  private async openTableOnce(): Promise<void> {
    if (this.readOnly) return this.openTable();
    if (!this.opened) await this.writes.run(() => (this.opened ? Promise.resolve() : this.openTable()));
  }

  private async connection(): Promise<lancedb.Connection> {
    if (!this.db) {
      // Created here (0700) before LanceDB would create it with the default mode; after a rebuild too.
      ensurePrivateDir(dbPath(this.dir));
      this.db = await connect(this.dir, this.readOnly);
    }
    return this.db;
  }

  /** Opens the table and checks it is one we wrote and can read; anything else is rebuilt. No table folder: LanceDB is not even loaded. */
  private async openTable(): Promise<void> {
    this.opened = true;
    if (!existsSync(join(dbPath(this.dir), `${TABLE}.lance`))) return;
    try {
      const db = await this.connection();
      if (!(await db.tableNames()).includes(TABLE)) return;
      const table = await db.openTable(TABLE);
      const dimension = vectorDimension((await lanceModules()).arrow, await table.schema());
      // Reading one row touches the manifest and a data file: a damaged store fails here, not mid-search.
      await table.query().limit(1).toArray();
      this.table = table;
      this.dimension = dimension;
    } catch (err) {
      if (err instanceof LanceUnavailableError) throw err;
      if (this.readOnly) {
        this.log.warn(`tool store ${this.dir} is unreadable (${errorMessage(err)}); the writer will rebuild it`);
        return;
      }
      await this.rebuildNow(`it could not be opened (${errorMessage(err)})`);
    }
  }

  private async createTable(dimension: number): Promise<void> {
    if (this.table) {
      this.log.info(`tool store ${this.dir}: vector dimension ${this.dimension} → ${dimension}; recreating the table`);
      this.table.close();
    }
    this.annReady = false;
    this.table = await (
      await this.connection()
    ).createEmptyTable(TABLE, schemaFor((await lanceModules()).arrow, dimension), { mode: 'overwrite' });
    this.dimension = dimension;
    if (!this.readOnly) this.setMirror([]);
  }

  private setMirror(rows: readonly StoredVector[]): void {
    this.mirror = new Map(rows.map((r) => [r.id, r]));
    this.mirrorReleased = false;
    this.releaseMirrorPastAnn();
  }

  /** From annMinRows rows on the mirror keeps no vectors: the index no longer holds them either, and LanceDB searches them. */
  private releaseMirrorPastAnn(): void {
    if (!this.mirror || this.mirrorReleased || this.mirror.size < this.annMinRows) return;
    for (const [id, r] of this.mirror) if (r.vector) this.mirror.set(id, withoutVector(r));
    this.mirrorReleased = true;
  }

  private withoutVectorsPastAnn(rows: StoredVector[]): StoredVector[] {
    return rows.length < this.annMinRows ? rows : rows.map(withoutVector);
  }
}

function withoutVector(r: StoredVector): StoredVector {
  return { id: r.id, server: r.server, contentHash: r.contentHash, model: r.model };
}

function dbPath(dir: string): string {
  return join(dir, 'lancedb');
}

function sqlString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

function contextError(what: string, err: unknown): Error {
  return new Error(`${what}: ${errorMessage(err)}`);
}
