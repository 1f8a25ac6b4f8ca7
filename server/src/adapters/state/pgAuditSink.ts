/**
 * The audit trail in PostgreSQL (the AuditSink contract, adapters/audit/auditSink.ts): one row
 * per record, committed before `append` resolves. An append the database cannot take is retried
 * while the failure is one of reaching it (refused, reset, shutting down), a bounded number of
 * times; then `append` rejects with an error naming the database, so the recorder fails loudly
 * and no record is dropped without a word.
 */
import type { AuditQuery, AuditRecord, AuditSink } from '../audit/auditSink';
import { StateDatabaseError, type StateDatabase } from './stateDatabase';

/** Waits between attempts of one append: about 3.5 s in all, then the error. */
const RETRY_MS = [250, 1000, 2250];
const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 10_000;

interface AuditRow {
  at: Date;
  principal: string;
  person: string | null;
  via: string;
  server: string;
  tool: string;
  args_fingerprint: string;
  args: unknown;
  outcome: AuditRecord['outcome'];
  error: string | null;
  duration_ms: number;
  result_tokens: number;
  replica: string;
}

export class PgAuditSink implements AuditSink {
  constructor(
    private readonly db: StateDatabase,
    private readonly wait: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  ) {}

  async append(r: AuditRecord): Promise<void> {
    const values = [
      r.at,
      r.principal,
      r.person ?? null,
      r.via,
      r.server,
      r.tool,
      r.argsFingerprint,
      r.args === undefined ? null : JSON.stringify(r.args),
      r.outcome,
      r.error ?? null,
      r.durationMs,
      Math.round(r.resultTokens),
      r.replica,
    ];
    for (let attempt = 0; ; attempt++) {
      try {
        await this.db.query(
          `recording the audit of ${r.server}/${r.tool}`,
          `INSERT INTO mcp_lens_audit (at, principal, person, via, server, tool, args_fingerprint, args, outcome, error,
             duration_ms, result_tokens, replica) VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10, $11, $12, $13)`,
          values,
        );
        return;
      } catch (err) {
        if (attempt >= RETRY_MS.length || !(err instanceof StateDatabaseError && err.reaching)) throw err;
        await this.wait(RETRY_MS[attempt]!);
      }
    }
  }

  async query(q: AuditQuery): Promise<AuditRecord[]> {
    const where: string[] = [];
    const values: unknown[] = [];
    const add = (sql: string, v: unknown) => {
      values.push(v);
      where.push(sql.replace('?', `$${values.length}`));
    };
    if (q.principal !== undefined) add('principal = ?', q.principal);
    if (q.server !== undefined) add('server = ?', q.server);
    if (q.tool !== undefined) add('tool = ?', q.tool);
    if (q.since !== undefined) add('at >= ?::timestamptz', q.since);
    if (q.until !== undefined) add('at <= ?::timestamptz', q.until);
    const limit = Math.max(1, Math.min(MAX_LIMIT, Math.floor(q.limit ?? DEFAULT_LIMIT)));
    values.push(limit);
    const rows = await this.db.query<AuditRow>(
      'reading the audit trail',
      `SELECT * FROM mcp_lens_audit ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY at DESC, id DESC LIMIT $${values.length}`,
      values,
    );
    return rows.map(recordOf);
  }

  /** The database is the state's, closed with it (stateStore.ts). */
  async close(): Promise<void> {}
}

function recordOf(row: AuditRow): AuditRecord {
  const out: AuditRecord = {
    at: row.at.toISOString(),
    principal: row.principal,
    via: row.via,
    server: row.server,
    tool: row.tool,
    argsFingerprint: row.args_fingerprint,
    outcome: row.outcome,
    durationMs: row.duration_ms,
    resultTokens: row.result_tokens,
    replica: row.replica,
  };
  if (row.person !== null) out.person = row.person;
  if (row.args !== null) out.args = row.args;
  if (row.error !== null) out.error = row.error;
  return out;
}
