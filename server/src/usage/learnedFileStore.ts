/**
 * Search learning's file as one process keeps it (adapters/usage/learnedFile.ts): read off the
 * gateway's thread (learnedFileReader.ts) when learning starts and again whenever another process
 * rewrote or deleted it (a `mcp-lens forget`, the writer); a file that cannot be trusted set aside
 * with a warning naming it; written a moment after each burst of lessons by the one process
 * holding the lock beside it (the others keep their lessons in memory).
 */
import { dirname, join } from 'node:path';
import { errorMessage } from '../core/errorMessage';
import type { Logger } from '../core/logger';
import type { LearnedExample } from '../core/usage/learnedExamples';
import {
  ensureLearnedFolder,
  learnedFileStamp,
  removeLearnedFile,
  setLearnedFileAside,
  writeLearnedFile,
  type LearnedRead,
} from '../adapters/usage/learnedFile';
import { readLearnedFileOffThread } from '../adapters/usage/learnedFileReader';
import { WriterLock } from '../adapters/writerLock';

/** A burst of lessons is written once, this long after the first. */
const WRITE_DELAY_MS = 1000;

export interface LearnedFileStoreOptions {
  file: string;
  log: Logger;
  /** What was read: the examples to believe (none: start empty). */
  loaded(examples: readonly LearnedExample[]): void;
  /** What to write. */
  examples(): Iterable<LearnedExample>;
  /** How the file is read (default: on a worker thread). */
  read?: (file: string) => Promise<LearnedRead>;
}

export class LearnedFileStore {
  /** The file as this process last read or wrote it (learnedFileStamp). */
  private stamp: string | undefined;
  /** The read under way, if any; a newer read or forgetting makes an older one's result stale. */
  private reading: Promise<void> | undefined;
  private generation = 0;
  private writeTimer: NodeJS.Timeout | undefined;
  /** Taken at the first write: a one-shot command that only searches never takes it from a gateway. */
  private lock: WriterLock | undefined;
  private lockRefusedLogged = false;

  constructor(private readonly o: LearnedFileStoreOptions) {}

  get file(): string {
    return this.o.file;
  }

  /** Whether a read is under way (lessons taught meanwhile are kept by the caller and taught again). */
  get busy(): boolean {
    return this.reading !== undefined;
  }

  /** Reads the file again if it changed since this process last read or wrote it (and no read is under way). */
  refresh(): void {
    if (this.reading || learnedFileStamp(this.o.file) === this.stamp) return;
    this.load();
  }

  /** Reads the file now (nothing is created until there is something to write). */
  load(): void {
    const generation = ++this.generation;
    this.stamp = learnedFileStamp(this.o.file);
    const read = (this.o.read ?? readLearnedFileOffThread)(this.o.file);
    const reading = read
      .then((r) => {
        if (generation === this.generation) this.apply(r);
      })
      .catch((err: unknown) => this.o.log.warn(`search learning: cannot read ${this.o.file} (${errorMessage(err)})`))
      .finally(() => {
        if (this.reading === reading) this.reading = undefined;
      });
    this.reading = reading;
  }

  /** Resolves once the read under way is done, or after `maxWaitMs`. */
  async ready(maxWaitMs: number): Promise<void> {
    const reading = this.reading;
    if (!reading) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([reading, new Promise<void>((resolve) => (timer = setTimeout(resolve, maxWaitMs)))]);
    clearTimeout(timer);
  }

  /** Something was learned or forgotten: write soon. */
  changed(): void {
    if (this.writeTimer !== undefined) return;
    this.writeTimer = setTimeout(() => {
      this.writeTimer = undefined;
      this.write();
    }, WRITE_DELAY_MS);
    this.writeTimer.unref();
  }

  /** Writes what is pending now. */
  flush(): void {
    if (this.writeTimer === undefined) return;
    clearTimeout(this.writeTimer);
    this.writeTimer = undefined;
    this.write();
  }

  /** Deletes the file; a read under way is dropped. */
  remove(): void {
    this.generation++;
    this.reading = undefined;
    clearTimeout(this.writeTimer);
    this.writeTimer = undefined;
    try {
      removeLearnedFile(this.o.file);
    } catch (err) {
      this.o.log.warn(`search learning: cannot delete ${this.o.file}: ${errorMessage(err)}`);
    }
    this.stamp = undefined;
  }

  close(): void {
    this.flush();
    this.generation++;
    this.reading = undefined;
    this.lock?.release();
    this.lock = undefined;
    this.stamp = undefined;
  }

  private apply(read: LearnedRead): void {
    const file = this.o.file;
    if ('refused' in read) this.o.log.warn(`search learning: ignoring ${file}: ${read.refused}`);
    if ('bad' in read) this.setAside(read.bad, read.stamp);
    this.o.loaded('examples' in read ? read.examples : []);
  }

  /** A file that cannot be trusted: moved aside (never deleted), and the user told where. */
  private setAside(why: string, stamp: string | undefined): void {
    const file = this.o.file;
    try {
      const moved = setLearnedFileAside(file, stamp);
      if (!moved) return this.o.log.warn(`search learning: not trusting ${file}: ${why}`);
      this.o.log.warn(
        `search learning: not trusting ${file}: ${why}; moved it to ${moved.to}, and learning starts afresh`,
      );
      for (const old of moved.removed) this.o.log.info(`search learning: deleted ${old}, an older file set aside`);
      this.stamp = learnedFileStamp(file);
    } catch (err) {
      this.o.log.warn(`search learning: not trusting ${file}: ${why}; cannot move it aside (${errorMessage(err)})`);
    }
  }

  /** Writes the file when this process is its writer (the first to write takes the lock; another keeps its lessons in memory). */
  private write(): void {
    const file = this.o.file;
    // A read under way replaces what is in memory: write once it is in.
    if (this.reading) return void this.reading.then(() => this.changed());
    try {
      ensureLearnedFolder(file);
      this.lock ??= new WriterLock(join(dirname(file), 'lock'));
      if (!this.lock.tryAcquire()) {
        if (!this.lockRefusedLogged)
          this.o.log.info(
            `search learning: ${file} is written by another process; what this one learns stays in its memory`,
          );
        this.lockRefusedLogged = true;
        return;
      }
      writeLearnedFile(file, this.o.examples());
      this.stamp = learnedFileStamp(file);
    } catch (err) {
      this.o.log.warn(`search learning: cannot write ${file}: ${errorMessage(err)}`);
    }
  }
}
