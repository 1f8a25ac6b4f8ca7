/**
 * The audit as a JSON Lines file, for a team of one machine without a database: one record a
 * line, appended (0600, never through a link) and fsync'd before `append` resolves, so a call
 * whose reply went out is on disk. Appends are made one at a time in the order they came. A
 * query reads the file as a stream and keeps only the newest `limit` matches, so memory stays
 * bounded however long the file is; a line that is not a whole record (a crash mid-write) is
 * skipped. `principal` in a query matches the principal's id, or the person's name or subject.
 */
import { createReadStream } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { openPrivateAppend } from '../privateFiles';
import type { AuditQuery, AuditRecord, AuditSink } from './auditSink';

export const DEFAULT_AUDIT_LIMIT = 100;
export const MAX_AUDIT_LIMIT = 10_000;

export class JsonlAuditSink implements AuditSink {
  private handle: Promise<FileHandle> | undefined;
  private tail: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(readonly file: string) {}

  append(record: AuditRecord): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`audit ${this.file} is closed`));
    const line = JSON.stringify(record) + '\n';
    const next = this.tail.then(async () => {
      const fh = await (this.handle ??= openPrivateAppend(this.file));
      await fh.write(line);
      await fh.sync();
    });
    // One failed write must not stop the next ones.
    this.tail = next.catch(() => undefined);
    return next;
  }

  async query(query: AuditQuery): Promise<AuditRecord[]> {
    const limit = Math.min(MAX_AUDIT_LIMIT, Math.max(1, Math.floor(query.limit ?? DEFAULT_AUDIT_LIMIT)));
    const kept: AuditRecord[] = [];
    let stream: ReturnType<typeof createReadStream>;
    try {
      stream = createReadStream(this.file, { encoding: 'utf8' });
      await new Promise<void>((resolve, reject) => stream.once('open', () => resolve()).once('error', reject));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    for await (const line of createInterface({ input: stream, crlfDelay: Infinity })) {
      const record = parseRecord(line);
      if (!record || !matches(record, query)) continue;
      kept.push(record);
      // Newest last in the file: keep the last `limit` (amortized, not one shift per record).
      if (kept.length >= limit * 2) kept.splice(0, kept.length - limit);
    }
    return kept.slice(-limit).reverse();
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.tail;
    const handle = this.handle;
    this.handle = undefined;
    if (handle) await (await handle).close();
  }
}

function parseRecord(line: string): AuditRecord | undefined {
  if (line.trim() === '') return undefined;
  try {
    const r = JSON.parse(line) as AuditRecord;
    return typeof r.at === 'string' && typeof r.principal === 'string' ? r : undefined;
  } catch {
    return undefined;
  }
}

function matches(r: AuditRecord, q: AuditQuery): boolean {
  if (q.principal !== undefined && r.principal !== q.principal && r.person !== q.principal) {
    if (!r.principal.endsWith(`#${q.principal}`)) return false;
  }
  if (q.server !== undefined && r.server !== q.server) return false;
  if (q.tool !== undefined && r.tool !== q.tool) return false;
  if (q.since !== undefined && Date.parse(r.at) < Date.parse(q.since)) return false;
  if (q.until !== undefined && Date.parse(r.at) > Date.parse(q.until)) return false;
  return true;
}
