/**
 * Whole-file replacement for the files other processes read (approvals, the catalog cache,
 * the vector snapshot): write a temp file beside the target, flush it to disk, rename it over
 * the target, then flush the folder, so a reader sees the old file or the new one, never half
 * of one, and a crash or power cut right after the rename cannot leave an empty file (the data
 * is on disk before the name points at it; the name is on disk before we return).
 *
 * Not `write-file-atomic` (npm): it resolves a link at the target and writes through it,
 * where a link here must be replaced, never followed (adapters/privateFiles.ts refuses one
 * first); it does not flush the folder; and it has no retry for Windows' transient rename
 * failures. The platform's fs does all three in a few lines.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, constants, fsyncSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/**
 * Windows refuses a rename over a file another process has open without FILE_SHARE_DELETE
 * (antivirus, the search indexer, a reader between open and close) with EPERM, EACCES or
 * EBUSY, for a few milliseconds. These waits, in ms, add up to about one second.
 */
export const RENAME_RETRY_DELAYS_MS: readonly number[] = [5, 10, 20, 40, 80, 160, 300, 400];
const TRANSIENT_ON_WINDOWS = new Set(['EPERM', 'EACCES', 'EBUSY']);

/**
 * Replaces `path` with `data` atomically; `mode` applies to the new file. Throws on I/O failure.
 * `data` may come in pieces, written one after the other, so a large file (an organisation's
 * catalog cache) never has to be one string in memory; a piece that throws leaves the
 * target as it was.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array | Iterable<string>, mode?: number): void {
  const dir = dirname(path);
  // Unique per writer: two processes saving at once must not write into each other's temp file.
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    // Exclusive and never through a link: the temp name is ours alone.
    const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, mode ?? 0o666);
    try {
      if (typeof data === 'string' || data instanceof Uint8Array) writeFileSync(fd, data);
      else for (const piece of data) writeFileSync(fd, piece);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameWithRetry(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  syncFolder(dir);
}

/**
 * renameSync, retried on Windows while the error is one of its transient ones (see
 * RENAME_RETRY_DELAYS_MS). Elsewhere a failed rename is final. `rename` and `platform` are
 * parameters so the retry can be tested where Windows is not.
 */
export function renameWithRetry(
  from: string,
  to: string,
  rename: (from: string, to: string) => void = renameSync,
  platform = process.platform,
): void {
  for (let attempt = 0; ; attempt++) {
    try {
      rename(from, to);
      return;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? '';
      const delay = RENAME_RETRY_DELAYS_MS[attempt];
      if (platform !== 'win32' || !TRANSIENT_ON_WINDOWS.has(code) || delay === undefined) throw err;
      sleepSync(delay);
    }
  }
}

/**
 * Flushes the folder entry the rename changed. Windows cannot open a folder for fsync, and
 * some file systems refuse it (EINVAL); the data itself is flushed already, so a refusal
 * here is not an error to report.
 */
function syncFolder(dir: string): void {
  if (process.platform === 'win32') return;
  let fd: number | undefined;
  try {
    fd = openSync(dir, constants.O_RDONLY);
    fsyncSync(fd);
  } catch {
    // See above: best effort.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Blocks this thread for `ms`: the writers are synchronous, and the wait is rare and short. */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
