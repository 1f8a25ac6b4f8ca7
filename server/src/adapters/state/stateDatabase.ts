/**
 * A team's shared state in PostgreSQL (`serve --http --state postgres://…`, or
 * MCP_LENS_DATABASE_URL): one bounded pool for queries, one connection of its own that LISTENs
 * for what other replicas changed, and the schema brought up to date at open (stateSchema.ts).
 * Every error names the database as `user@host:port/db` (never its password) and says what
 * MCP Lens was doing; a database that goes away fails the query that needed it, and the
 * listener reconnects on its own and tells its subscribers to read everything again (what was
 * notified while it was away is lost, what was committed is not).
 */
import { hostname } from 'node:os';
import pg from 'pg';
import { errorMessage } from '../../core/errorMessage';
import type { Logger } from '../../core/logger';
import { migrateState } from './stateSchema';
import { DEFAULT_POOL_SIZE } from './stateUrl';

/** How long a query waits for a free connection, then fails naming the database. */
const CONNECT_TIMEOUT_MS = 10_000;
/** The one channel every replica listens on; payloads are StateChange JSON. */
export const STATE_CHANNEL = 'mcp_lens_state';
const LISTEN_RETRY_MS = [250, 500, 1000, 2000, 5000];

/** What another replica changed: subscribers re-read their part. `reconnected`: read everything again. */
export interface StateChange {
  kind: 'approvals' | 'lessons' | 'forget' | 'reconnected';
  workspace?: string;
  replica?: string;
}

export interface StateDatabaseOptions {
  url: string;
  log: Logger;
  poolSize?: number;
  /** This replica's name in records (MCP_LENS_REPLICA_ID, else host:pid). */
  replica?: string;
}

/** The database as errors and logs name it: `user@host:port/db`, no password, no query string. */
export function describeDatabase(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'the PostgreSQL database (its URL does not parse)';
  }
  const user = u.username ? `${decodeURIComponent(u.username)}@` : '';
  return `postgres://${user}${u.hostname}${u.port ? `:${u.port}` : ''}${u.pathname}`;
}

export function replicaName(env: NodeJS.ProcessEnv = process.env): string {
  const given = env.MCP_LENS_REPLICA_ID?.trim();
  return given && given.length <= 200 ? given : `${hostname()}:${process.pid}`;
}

export class StateDatabase {
  readonly name: string;
  readonly replica: string;
  private readonly pool: pg.Pool;
  private listener: pg.Client | undefined;
  private readonly subscribers = new Set<(change: StateChange) => void>();
  private closed = false;
  private retry = 0;
  private retryTimer: NodeJS.Timeout | undefined;

  private constructor(private readonly o: StateDatabaseOptions) {
    this.name = describeDatabase(o.url);
    this.replica = o.replica ?? replicaName();
    this.pool = new pg.Pool({
      connectionString: o.url,
      max: o.poolSize ?? DEFAULT_POOL_SIZE,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      idleTimeoutMillis: 30_000,
    });
    // An idle connection the server dropped: the next query gets a fresh one; say it once here.
    this.pool.on('error', (err) => o.log.warn(`state database ${this.name}: ${plain(err)}`));
  }

  /** Connects, migrates the schema (one replica at a time), and starts listening. Throws naming the database. */
  static async open(o: StateDatabaseOptions): Promise<StateDatabase> {
    const db = new StateDatabase(o);
    try {
      await db.withClient('bringing its schema up to date', (c) => migrateState(c));
      await db.listen();
    } catch (err) {
      await db.close();
      throw err;
    }
    return db;
  }

  /** One query; an error says what was being done and names the database. */
  async query<R extends pg.QueryResultRow>(doing: string, text: string, values?: unknown[]): Promise<R[]> {
    try {
      return (await this.pool.query<R>(text, values)).rows;
    } catch (err) {
      throw this.failure(doing, err);
    }
  }

  /** Several statements on one connection inside a transaction. */
  async transaction<T>(doing: string, f: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    return this.withClient(doing, async (c) => {
      await c.query('BEGIN');
      try {
        const out = await f(c);
        await c.query('COMMIT');
        return out;
      } catch (err) {
        await c.query('ROLLBACK').catch(() => undefined);
        throw err;
      }
    });
  }

  /** Tells every replica (this one too) that something changed. */
  async notify(change: StateChange): Promise<void> {
    const payload = JSON.stringify({ ...change, replica: this.replica });
    await this.query('telling the other replicas', 'SELECT pg_notify($1, $2)', [STATE_CHANNEL, payload]);
  }

  onChange(subscriber: (change: StateChange) => void): { dispose(): void } {
    this.subscribers.add(subscriber);
    return { dispose: () => this.subscribers.delete(subscriber) };
  }

  /** Connections this replica holds: the pool's and the listener. */
  connectionCount(): number {
    return this.pool.totalCount + (this.listener ? 1 : 0);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    this.subscribers.clear();
    const listener = this.listener;
    this.listener = undefined;
    await listener?.end().catch(() => undefined);
    await this.pool.end().catch(() => undefined);
  }

  /** An Error that names the database and what was being done, with the driver's reason (never the URL). */
  failure(doing: string, err: unknown): Error {
    if (err instanceof StateDatabaseError) return err;
    const reaching = REACHING.test((err as { code?: string }).code ?? '') || REACHING_TEXT.test(errorMessage(err));
    return new StateDatabaseError(`state database ${this.name}: ${doing} failed: ${plain(err)}`, reaching);
  }

  private async withClient<T>(doing: string, f: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (err) {
      throw this.failure(doing, err);
    }
    try {
      return await f(client);
    } catch (err) {
      throw this.failure(doing, err);
    } finally {
      client.release();
    }
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.o.url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    client.on('notification', (n) => {
      if (n.channel !== STATE_CHANNEL || !n.payload) return;
      let change: StateChange;
      try {
        change = JSON.parse(n.payload) as StateChange;
      } catch {
        return;
      }
      this.tell(change);
    });
    client.on('error', (err) => this.lostListener(client, err));
    client.on('end', () => this.lostListener(client, new Error('the connection ended')));
    try {
      await client.connect();
      await client.query(`LISTEN ${STATE_CHANNEL}`);
    } catch (err) {
      await client.end().catch(() => undefined);
      throw this.failure('listening for other replicas', err);
    }
    this.listener = client;
  }

  private lostListener(client: pg.Client, err: unknown): void {
    if (this.closed || this.listener !== client) return;
    this.listener = undefined;
    this.o.log.warn(
      `state database ${this.name}: lost the connection that hears other replicas (${plain(err)}); reconnecting`,
    );
    this.reconnect();
  }

  private reconnect(): void {
    const wait = LISTEN_RETRY_MS[Math.min(this.retry++, LISTEN_RETRY_MS.length - 1)]!;
    this.retryTimer = setTimeout(() => {
      if (this.closed) return;
      this.listen().then(
        () => {
          this.retry = 0;
          this.o.log.info(`state database ${this.name}: listening again`);
          this.tell({ kind: 'reconnected' });
        },
        () => this.reconnect(),
      );
    }, wait);
    this.retryTimer.unref();
  }

  private tell(change: StateChange): void {
    for (const s of this.subscribers) {
      try {
        s(change);
      } catch (err) {
        this.o.log.warn(`state database ${this.name}: a change listener failed: ${errorMessage(err)}`);
      }
    }
  }
}

/** A failure of the state database, already in plain words. */
export class StateDatabaseError extends Error {
  /** Whether it was one of reaching the database (worth another try), not of the statement. */
  constructor(
    message: string,
    readonly reaching: boolean,
  ) {
    super(message);
  }
}

/**
 * Failures of reaching the database: socket errors, SQLSTATE class 08 (connection exception),
 * 57P0x (shutting down, crashed), 53300 (too many connections), 55000 (the database refuses connections).
 */
const REACHING = /^(E(CONN(REFUSED|RESET|ABORTED)|PIPE|TIMEDOUT|HOSTUNREACH|AI_AGAIN)|08\w{3}|57P0\d|53300|55000)$/;
const REACHING_TEXT =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i;

/** The driver's reason without anything a URL could have put in it. */
function plain(err: unknown): string {
  const e = err as { code?: string; message?: string };
  const message = errorMessage(err).replace(/postgres(ql)?:\/\/\S+/gi, '<database URL>');
  if (e.code === 'ECONNREFUSED') return 'the connection was refused (is PostgreSQL running there?)';
  if (e.code === '57P01') return 'the server is shutting down';
  if (e.code === '3D000') return `${message} (create it first)`;
  return message;
}
