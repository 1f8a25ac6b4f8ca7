/**
 * The per-workspace usage store on disk: a folder holding `usage.log` (framed, append-only),
 * `salt` (the argument-hash key) and `lock` (the writer's pid). The lock holder appends and
 * compacts; any other process on the same folder only reads.
 */
import { mkdir, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ensurePrivateDir } from '../privateFiles';
import type { Logger } from '../../core/logger';
import type { UsageEvent } from '../../core/usage/types';
import { AppendLog } from './appendLog';
import { hashArgs, loadSalt } from './argsHash';
import { readLog, rewriteLog } from './framedLog';
import { WriterLock } from '../writerLock';
import { fromStored, toStored } from './usageRecord';

export const LOG_FILE = 'usage.log';

export class UsageStore {
  private constructor(
    private readonly dir: string,
    private readonly log: Logger,
    private readonly lock: WriterLock,
    private salt: Buffer,
    private appender: AppendLog | undefined,
  ) {}

  /** Creates the folder if needed, takes the lock if free, reads every intact record. */
  static async open(dir: string, log: Logger): Promise<{ store: UsageStore; events: UsageEvent[]; dropped: number }> {
    await mkdir(dirname(dir), { recursive: true, mode: 0o700 });
    ensurePrivateDir(dir);
    const lock = new WriterLock(join(dir, 'lock'));
    const writer = lock.tryAcquire();
    try {
      if (!writer) log.info(`usage: ${dir} is written by another process; this one only reads it`);
      const salt = await loadSalt(join(dir, 'salt'), log);
      const path = join(dir, LOG_FILE);
      const { records, dropped, validBytes } = await readLog(path, fromStored);
      if (dropped > 0) log.warn(`usage: dropped ${dropped} damaged record(s) of ${path}`);
      const appender = writer ? await AppendLog.open(path, validBytes, log) : undefined;
      return { store: new UsageStore(dir, log, lock, salt, appender), events: records, dropped };
    } catch (err) {
      lock.release();
      throw err;
    }
  }

  /** Queues one call for writing (no-op for a reader: its calls stay in its memory). */
  append(event: UsageEvent): void {
    this.appender?.append(toStored(event));
  }

  hashArgs(args: unknown): string {
    return hashArgs(this.salt, args);
  }

  /** Rewrites the log with exactly these events (after retention pruning). Writer only. */
  async compact(events: readonly UsageEvent[]): Promise<void> {
    if (!this.appender) return;
    const path = join(this.dir, LOG_FILE);
    await this.appender.close();
    this.appender = undefined;
    try {
      await rewriteLog(path, events.map(toStored));
    } catch (err) {
      this.log.warn(
        `usage: compacting ${path} failed (${(err as NodeJS.ErrnoException).code ?? String(err)}); kept the old log`,
      );
    }
    const size = await stat(path).then(
      (s) => s.size,
      () => 0,
    );
    this.appender = await AppendLog.open(path, size, this.log);
  }

  /** Deletes every recorded call and the salt; the store stays open and empty. */
  async clear(): Promise<void> {
    const path = join(this.dir, LOG_FILE);
    await this.appender?.close();
    await rm(path, { force: true });
    await rm(`${path}.tmp`, { force: true });
    await rm(join(this.dir, 'salt'), { force: true });
    this.salt = await loadSalt(join(this.dir, 'salt'), this.log);
    this.appender = this.lock.isHeld ? await AppendLog.open(path, 0, this.log) : undefined;
  }

  async flush(): Promise<void> {
    await this.appender?.flush(true);
  }

  async close(): Promise<void> {
    await this.appender?.close();
    this.appender = undefined;
    this.lock.release();
  }
}
