/**
 * ToolStore on an embedded LanceDB in a folder the caller owns (`<workspace>/.mcp-lens/` for
 * the CLI, workspace storage for the extension). Layout: `<dir>/lancedb/tools.lance` and
 * `<dir>/toolStore.lock`. A store that cannot be opened or read is dropped and rebuilt (the
 * index re-embeds), never a crash; a store whose lock another live process holds is opened
 * read-only and never written.
 */
import type * as lancedb from '@lancedb/lancedb';
import { Field, FixedSizeList, Float32, Schema, Utf8 } from 'apache-arrow';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../../core/logger';
import { SerialQueue } from './serialQueue';
import { acquireStoreLock, type StoreLock } from './storeLock';
import type { StoredTool, ToolStore } from './toolStore';

const TABLE = 'tools';
const COLUMNS = ['id', 'server', 'tool', 'text', 'input_schema', 'content_hash', 'model', 'vector'] as const;

let lanceModule: typeof lancedb | undefined;

/**
 * Loads LanceDB on first use with its native logger at `error`: at its default `warn` it
 * prints a line to stderr for every table it creates, noise in the CLI and the editor's log.
 * LANCEDB_LOG is read once, when the native module loads; a user's own value wins.
 */
async function lance(): Promise<typeof lancedb> {
  if (lanceModule) return lanceModule;
  const ours = process.env.LANCEDB_LOG === undefined;
  if (ours) process.env.LANCEDB_LOG = 'error';
  try {
    lanceModule = await import('@lancedb/lancedb');
  } finally {
    // Upstream servers inherit our environment; they should not inherit this.
    if (ours) delete process.env.LANCEDB_LOG;
  }
  return lanceModule;
}

export interface LanceToolStoreOptions {
  dir: string;
  log: Logger;
  /** Open without taking the lock (a reader by choice). */
  readOnly?: boolean;
}

type Row = Record<(typeof COLUMNS)[number], unknown>;

export class LanceToolStore implements ToolStore {
  private readonly writes = new SerialQueue();
  private table: lancedb.Table | undefined;
  private dimension: number | undefined;

  private constructor(
    readonly dir: string,
    readonly readOnly: boolean,
    private db: lancedb.Connection,
    private readonly log: Logger,
    private readonly lock: StoreLock | undefined,
  ) {}

  /** Opens (or creates) the store; damage is repaired here, so this only throws when the folder itself is unusable. */
  static async open(options: LanceToolStoreOptions): Promise<LanceToolStore> {
    mkdirSync(options.dir, { recursive: true });
    let lock: StoreLock | undefined;
    if (!options.readOnly) {
      const got = acquireStoreLock(join(options.dir, 'toolStore.lock'));
      if ('lock' in got) lock = got.lock;
      else options.log.info(`tool store ${options.dir} is in use by process ${got.heldBy}; opening it read-only`);
    }
    const readOnly = lock === undefined;
    // A reader checks for the writer's new versions on every read.
    const db = await (await lance()).connect(dbPath(options.dir), readOnly ? { readConsistencyInterval: 0 } : {});
    const store = new LanceToolStore(options.dir, readOnly, db, options.log, lock);
    await store.openTable();
    return store;
  }

  async readAll(): Promise<StoredTool[]> {
    if (!this.table && this.readOnly) await this.openTable();
    if (!this.table) return [];
    try {
      return await readRows(this.table);
    } catch (err) {
      if (this.readOnly) throw contextError(`reading tool store ${this.dir}`, err);
      await this.rebuild(`it could not be read (${message(err)})`);
      return [];
    }
  }

  upsert(rows: readonly StoredTool[]): Promise<void> {
    return this.write(async () => {
      if (rows.length === 0) return;
      const dimension = rows[0].vector.length;
      if (!this.table || this.dimension !== dimension) await this.createTable(dimension);
      const data = rows.map(toRecord);
      await this.table!.mergeInsert('id').whenMatchedUpdateAll().whenNotMatchedInsertAll().execute(data);
    });
  }

  delete(ids: readonly string[]): Promise<void> {
    return this.write(async () => {
      if (!this.table || ids.length === 0) return;
      for (let i = 0; i < ids.length; i += 500) {
        await this.table.delete(`id IN (${ids.slice(i, i + 500).map(sqlString).join(', ')})`);
      }
    });
  }

  rebuild(reason: string): Promise<void> {
    return this.write(async () => {
      this.log.warn(`rebuilding tool store ${this.dir}: ${reason}`);
      this.table?.close();
      this.table = undefined;
      this.dimension = undefined;
      this.db.close();
      rmSync(dbPath(this.dir), { recursive: true, force: true });
      this.db = await (await lance()).connect(dbPath(this.dir));
    });
  }

  async close(): Promise<void> {
    await this.writes.idle();
    this.table?.close();
    this.table = undefined;
    this.db.close();
    this.lock?.release();
  }

  private write(job: () => Promise<void>): Promise<void> {
    if (this.readOnly) return Promise.reject(new Error(`tool store ${this.dir} is read-only (another process writes it)`));
    return this.writes.run(job);
  }

  /** Opens the table and checks it is one we wrote and can read; anything else is rebuilt. */
  private async openTable(): Promise<void> {
    try {
      if (!(await this.db.tableNames()).includes(TABLE)) return;
      const table = await this.db.openTable(TABLE);
      const dimension = vectorDimension(await table.schema());
      // Reading one row touches the manifest and a data file: a damaged store fails here, not mid-search.
      await table.query().limit(1).toArray();
      this.table = table;
      this.dimension = dimension;
    } catch (err) {
      if (this.readOnly) {
        this.log.warn(`tool store ${this.dir} is unreadable (${message(err)}); the writer will rebuild it`);
        return;
      }
      await this.rebuild(`it could not be opened (${message(err)})`);
    }
  }

  private async createTable(dimension: number): Promise<void> {
    if (this.table) {
      this.log.info(`tool store ${this.dir}: vector dimension ${this.dimension} → ${dimension}; recreating the table`);
      this.table.close();
    }
    this.table = await this.db.createEmptyTable(TABLE, schemaFor(dimension), { mode: 'overwrite' });
    this.dimension = dimension;
  }
}

function dbPath(dir: string): string {
  return join(dir, 'lancedb');
}

function schemaFor(dimension: number): Schema {
  const text = (name: string) => new Field(name, new Utf8(), false);
  return new Schema([
    ...COLUMNS.slice(0, -1).map(text),
    new Field('vector', new FixedSizeList(dimension, new Field('item', new Float32(), true)), false),
  ]);
}

function vectorDimension(schema: Schema): number {
  const names = new Set(schema.fields.map((f) => f.name));
  const missing = COLUMNS.filter((c) => !names.has(c));
  if (missing.length) throw new Error(`table "${TABLE}" lacks column(s) ${missing.join(', ')}`);
  const type = schema.fields.find((f) => f.name === 'vector')!.type;
  if (!(type instanceof FixedSizeList)) throw new Error(`column "vector" is ${String(type)}, not a fixed-size list`);
  return type.listSize;
}

async function readRows(table: lancedb.Table): Promise<StoredTool[]> {
  const rows = (await table.query().select([...COLUMNS]).toArray()) as Row[];
  return rows.map((r) => ({
    id: String(r.id),
    server: String(r.server),
    tool: String(r.tool),
    text: String(r.text),
    inputSchemaJson: String(r.input_schema),
    contentHash: String(r.content_hash),
    model: String(r.model),
    vector: Float32Array.from((r.vector as { toArray(): ArrayLike<number> }).toArray()),
  }));
}

function toRecord(row: StoredTool): Record<string, unknown> {
  return {
    id: row.id,
    server: row.server,
    tool: row.tool,
    text: row.text,
    input_schema: row.inputSchemaJson,
    content_hash: row.contentHash,
    model: row.model,
    vector: Array.from(row.vector),
  };
}

function sqlString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function contextError(what: string, err: unknown): Error {
  return new Error(`${what}: ${message(err)}`);
}
