/**
 * One writer per store folder. LanceDB's mergeInsert is not safe under concurrent writers
 * (parallel upserts of the same ids created duplicate rows), so the first process (or index
 * instance) to create the lock file writes; everyone else opens read-only. The lock holds the
 * owner's pid; a lock whose pid is dead — or is our own pid but not held by this process, a
 * leftover of a crashed run whose pid was reused — is stale and taken over.
 */
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';

const heldHere = new Set<string>();
let exitHookInstalled = false;

export interface StoreLock {
  readonly path: string;
  release(): void;
}

/** The lock, or the pid that holds it. Never throws for a held lock; throws for I/O errors. */
export function acquireStoreLock(path: string): { lock: StoreLock } | { heldBy: number } {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      try {
        writeSync(fd, `${process.pid}\n`);
      } finally {
        closeSync(fd);
      }
      heldHere.add(path);
      installExitHook();
      return { lock: { path, release: () => releaseLock(path) } };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = readOwner(path);
      if (owner !== undefined && isLiveOwner(owner, path)) return { heldBy: owner };
      removeQuietly(path);
    }
  }
  // Another process took over the stale lock between our unlink and create.
  return { heldBy: readOwner(path) ?? -1 };
}

function isLiveOwner(pid: number, path: string): boolean {
  if (pid === process.pid) return heldHere.has(path);
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else — still alive.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readOwner(path: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(path, 'utf8').trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function releaseLock(path: string): void {
  if (!heldHere.delete(path)) return;
  if (readOwner(path) === process.pid) removeQuietly(path);
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}

/** A process that exits without closing its index must not leave a lock that looks live. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const path of [...heldHere]) releaseLock(path);
  });
}
