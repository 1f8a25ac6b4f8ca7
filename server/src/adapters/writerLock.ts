/**
 * One writer per store folder (the tool index, the usage log): a file created with O_EXCL
 * holding the owner's pid. Only the holder writes; another process on the same workspace
 * reads. A lock whose pid is no longer alive (the owner was killed), or that holds our own pid
 * without this process holding it (a crashed run whose pid was reused), is stale and taken
 * over.
 */
import { openSync, closeSync, writeSync, statSync, unlinkSync } from 'node:fs';
import { isOwnProcessAlive } from './processProbe';
import { readPrivateFile } from './privateFiles';

/** Lock files this process holds (two trackers in one process must not both write). */
const heldHere = new Set<string>();

export class WriterLock {
  private held = false;
  private readonly onExit = () => this.release();

  constructor(readonly path: string) {}

  get isHeld(): boolean {
    return this.held;
  }

  /** The pid written in the lock file, if any (for "in use by process N" messages). */
  holder(): number | undefined {
    return readPid(this.path);
  }

  /** Tries to take the lock (once more after removing a stale one). Never throws. */
  tryAcquire(): boolean {
    if (this.held) return true;
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const fd = openSync(this.path, 'wx', 0o600);
        try {
          writeSync(fd, String(process.pid));
        } finally {
          closeSync(fd);
        }
        this.held = true;
        heldHere.add(this.path);
        process.once('exit', this.onExit);
        return true;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return false;
        if (!this.removeIfStale()) return false;
      }
    }
    return false;
  }

  /** Removes the lock file if we hold it. */
  release(): void {
    if (!this.held) return;
    this.held = false;
    heldHere.delete(this.path);
    process.removeListener('exit', this.onExit);
    try {
      if (readPid(this.path) === process.pid) unlinkSync(this.path);
    } catch {
      // Already gone (clear() removed the folder): nothing to release.
    }
  }

  private removeIfStale(): boolean {
    const pid = readPid(this.path);
    const alive =
      pid === undefined
        ? !oldEnough(this.path) // created but its pid not yet written: give the creator time
        : pid === process.pid
          ? heldHere.has(this.path)
          : isOwnProcessAlive(pid);
    if (alive) return false;
    try {
      // Re-read right before removing, so a lock another process just took over is left alone.
      if (readPid(this.path) !== pid) return false;
      unlinkSync(this.path);
      return true;
    } catch {
      return false;
    }
  }
}

/**
 * The pid in the lock file. A lock MCP Lens did not write (a link, mode other than 0600: a
 * repository can ship `.mcp-lens/usage/lock`) names no holder: -1, never alive, so it is stale.
 */
function readPid(path: string): number | undefined {
  const read = readPrivateFile(path);
  if ('missing' in read) return undefined;
  if ('refused' in read) return -1;
  const n = Number.parseInt(read.text.trim(), 10);
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

/** An empty or garbled lock older than this is the debris of a crash. */
const EMPTY_LOCK_GRACE_MS = 10_000;

function oldEnough(path: string): boolean {
  try {
    return Date.now() - statSync(path).mtimeMs > EMPTY_LOCK_GRACE_MS;
  } catch {
    return true;
  }
}
