/**
 * Whole-file replacement for the files other processes read (approvals, the catalog cache,
 * the vector snapshot): write a temp file beside the target, then rename over it, so a reader
 * sees the old file or the new one, never half of one. A failed write leaves no temp file.
 */
import { randomBytes } from 'node:crypto';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** Replaces `path` with `data` atomically; `mode` applies to the new file. Throws on I/O failure. */
export function writeFileAtomic(path: string, data: string | Uint8Array, mode?: number): void {
  // Unique per writer: two processes saving at once must not write into each other's temp file.
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    writeFileSync(tmp, data, mode === undefined ? { flag: 'wx' } : { mode, flag: 'wx' });
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}
