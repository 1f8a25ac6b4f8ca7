/**
 * The batched appender of the usage log. `append` only queues the record; queued records are
 * framed (encodeLine: JSON + CRC) when the batch is written, so a call pays for neither, and
 * written every
 * WRITE_DELAY_MS and fsynced at most once a second, so a `kill -9` loses at most the last
 * moment of calls and a call never waits on the disk. A failed write (ENOSPC, EIO) is undone
 * by truncating back to the last good size, logged once, and retried with the next batch; the
 * lines stay queued (bounded) meanwhile.
 */
import type { FileHandle } from 'node:fs/promises';
import { openPrivateAppend } from '../privateFiles';
import { encodeLine } from './framedLog';
import type { Logger } from '../../core/logger';

const WRITE_DELAY_MS = 200;
const SYNC_INTERVAL_MS = 1000;
/** Records kept while the disk refuses writes; the oldest go first past this. */
const MAX_QUEUED = 100_000;

export class AppendLog {
  private queue: unknown[] = [];
  private writeTimer?: NodeJS.Timeout | undefined;
  private syncTimer?: NodeJS.Timeout | undefined;
  private chain: Promise<void> = Promise.resolve();
  private lastSync = 0;
  private unsynced = false;
  private failing = false;
  private closed = false;

  private constructor(
    private readonly fh: FileHandle,
    private size: number,
    private readonly path: string,
    private readonly log: Logger,
  ) {}

  /** Opens for appending (never through a link); anything past `validBytes` (a torn last line) is cut off first. */
  static async open(path: string, validBytes: number, log: Logger): Promise<AppendLog> {
    const fh = await openPrivateAppend(path);
    const { size } = await fh.stat();
    if (size > validBytes) {
      await fh.truncate(validBytes);
      log.info(`usage: dropped ${size - validBytes} bytes of a torn record at the end of ${path}`);
    }
    return new AppendLog(fh, Math.min(size, validBytes), path, log);
  }

  /** Queues one record (a fresh object the caller no longer changes); it is framed when written. */
  append(record: unknown): void {
    if (this.closed) return;
    this.queue.push(record);
    if (this.queue.length > MAX_QUEUED) this.queue.splice(0, this.queue.length - MAX_QUEUED);
    if (!this.writeTimer) {
      this.writeTimer = setTimeout(() => {
        this.writeTimer = undefined;
        void this.flush(false);
      }, WRITE_DELAY_MS);
      this.writeTimer.unref();
    }
  }

  /** Writes what is queued; `sync` forces an fsync now instead of within the second. */
  flush(sync = true): Promise<void> {
    this.chain = this.chain.then(() => this.writeBatch(sync));
    return this.chain;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    clearTimeout(this.writeTimer);
    await this.flush(true);
    this.closed = true;
    clearTimeout(this.syncTimer);
    await this.fh.close().catch(() => undefined);
  }

  private async writeBatch(forceSync: boolean): Promise<void> {
    if (this.closed) return;
    const batch = this.queue.splice(0);
    if (batch.length > 0) {
      const data = Buffer.from(batch.map(encodeLine).join(''), 'utf8');
      try {
        await this.fh.write(data, 0, data.length);
        this.size += data.length;
        this.unsynced = true;
        if (this.failing) this.log.info(`usage: writing to ${this.path} works again`);
        this.failing = false;
      } catch (err) {
        this.queue.unshift(...batch);
        await this.undoPartialWrite();
        if (!this.failing) {
          this.log.warn(
            `usage: cannot write ${this.path} (${(err as NodeJS.ErrnoException).code ?? String(err)}); recording continues in memory`,
          );
        }
        this.failing = true;
        return;
      }
    }
    await this.syncSoon(forceSync);
  }

  private async undoPartialWrite(): Promise<void> {
    try {
      await this.fh.truncate(this.size);
    } catch {
      // Nothing more to do: the reader drops a torn or mismatched line anyway.
    }
  }

  private async syncSoon(force: boolean): Promise<void> {
    if (!this.unsynced) return;
    const wait = this.lastSync + SYNC_INTERVAL_MS - Date.now();
    if (force || wait <= 0) {
      clearTimeout(this.syncTimer);
      this.syncTimer = undefined;
      this.unsynced = false;
      this.lastSync = Date.now();
      await this.fh
        .datasync()
        .catch((err: unknown) => this.log.warn(`usage: fsync of ${this.path} failed: ${String(err)}`));
    } else if (!this.syncTimer) {
      this.syncTimer = setTimeout(() => {
        this.syncTimer = undefined;
        this.chain = this.chain.then(() => this.syncSoon(false));
      }, wait);
      this.syncTimer.unref();
    }
  }
}
