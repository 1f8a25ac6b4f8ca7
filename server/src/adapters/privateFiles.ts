/**
 * Files in MCP Lens's own folders (`<workspace>/.mcp-lens/` for the CLI): ours, not the
 * repository's. A clone can ship anything there, so:
 *  - nothing is followed through a symbolic link: folders are checked with lstat, files opened
 *    with O_NOFOLLOW (or lstat where the platform has no O_NOFOLLOW), and a link is refused with
 *    an error that names the file;
 *  - folders are created 0700 and files 0600 (tightened when found looser);
 *  - state is trusted only when it is ours: a regular file, owned by this user, not readable by
 *    others (a git checkout writes 0644: a file the repository shipped is not one we wrote).
 */
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readSync,
  chmodSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { writeFileAtomic } from './atomicFile';

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
/**
 * A private file bigger than this is not one we wrote (and must not fill memory), unless its
 * reader says how big its own files get (the catalog cache of an organisation's catalog).
 */
const MAX_PRIVATE_FILE_BYTES = 16 * 1024 * 1024;

export class PrivateFileError extends Error {
  constructor(
    readonly file: string,
    why: string,
  ) {
    super(`refusing ${file}: ${why}`);
  }
}

const LINK_WHY =
  'it is a symbolic link (MCP Lens never follows links in its own folder: a repository could point one anywhere); remove it';

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

function ownedByUs(st: Stats): boolean {
  return typeof process.getuid !== 'function' || st.uid === process.getuid();
}

/**
 * Creates `dir` (0700) or checks the one there: a real folder (not a link), ours; a looser mode
 * is tightened. Returns `dir`. Throws a PrivateFileError naming it otherwise. The parent must exist.
 */
export function ensurePrivateDir(dir: string): string {
  let st = lstatOrUndefined(dir);
  if (!st) {
    try {
      mkdirSync(dir, { mode: 0o700 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    st = lstatSync(dir);
  }
  if (st.isSymbolicLink()) throw new PrivateFileError(dir, LINK_WHY);
  if (!st.isDirectory()) throw new PrivateFileError(dir, 'it is not a folder');
  if (!ownedByUs(st)) throw new PrivateFileError(dir, 'it belongs to another user');
  if (process.platform !== 'win32' && (st.mode & 0o077) !== 0) chmodSync(dir, 0o700);
  return dir;
}

/** ensurePrivateDir for a folder that may not exist yet (something else creates it): checks and tightens only one that is there, a link included. */
export function ensurePrivateDirIfPresent(dir: string): void {
  if (lstatOrUndefined(dir)) ensurePrivateDir(dir);
}

/** Why a file there cannot be trusted as ours, or undefined when it can (or does not exist). */
function distrust(st: Stats, maxBytes = MAX_PRIVATE_FILE_BYTES): string | undefined {
  if (st.isSymbolicLink()) return LINK_WHY;
  if (!st.isFile()) return 'it is not a regular file';
  if (!ownedByUs(st)) return 'it belongs to another user';
  if (process.platform !== 'win32' && (st.mode & 0o077) !== 0)
    return `its mode is ${(st.mode & 0o777).toString(8)}, not 600: MCP Lens did not write it (a repository may have shipped it)`;
  if (st.size > maxBytes) return 'it is larger than any file MCP Lens writes';
  return undefined;
}

export type PrivateRead = { text: string } | { missing: true } | { refused: string };

/**
 * Reads a file MCP Lens wrote: `missing` when there is none, `refused` (with the reason) when
 * what is there is a link, not a regular file, someone else's, readable by others or larger
 * than `maxBytes` (default 16 MB).
 */
export function readPrivateFile(path: string, maxBytes = MAX_PRIVATE_FILE_BYTES): PrivateRead {
  const read = readPrivateBytes(path, maxBytes);
  return 'bytes' in read ? { text: read.bytes.toString('utf8') } : read;
}

/** readPrivateFile's bytes, for a file that is not text. */
export function readPrivateBytes(
  path: string,
  maxBytes = MAX_PRIVATE_FILE_BYTES,
): { bytes: Buffer } | { missing: true } | { refused: string } {
  const st = lstatOrUndefined(path);
  if (!st) return { missing: true };
  const why = distrust(st, maxBytes);
  if (why) return { refused: why };
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | NOFOLLOW);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { missing: true };
    return { refused: code === 'ELOOP' ? LINK_WHY : `cannot open it (${code ?? String(err)})` };
  }
  try {
    const opened = fstatSync(fd);
    const now = distrust(opened, maxBytes);
    if (now) return { refused: now };
    // Read into one buffer of the size the file has (a large catalog cache is tens of MB: no
    // chunk copies), grown only if the file grew since, never past maxBytes.
    let buf = Buffer.allocUnsafe(opened.size);
    let total = 0;
    const probe = Buffer.alloc(1);
    for (;;) {
      if (total < buf.length) {
        const n = readSync(fd, buf, total, buf.length - total, null);
        if (n === 0) break;
        total += n;
        continue;
      }
      if (readSync(fd, probe, 0, 1, null) === 0) break;
      if (total + 1 > maxBytes) return { refused: 'it is larger than any file MCP Lens writes' };
      const bigger = Buffer.allocUnsafe(Math.min(maxBytes, Math.max(64 * 1024, buf.length * 2)));
      buf.copy(bigger, 0, 0, total);
      bigger[total++] = probe[0]!;
      buf = bigger;
    }
    return { bytes: buf.subarray(0, total) };
  } finally {
    closeSync(fd);
  }
}

/** Throws a PrivateFileError when `path` exists and is a link or not a regular file. */
function refuseLinks(path: string): void {
  const st = lstatOrUndefined(path);
  if (st?.isSymbolicLink()) throw new PrivateFileError(path, LINK_WHY);
  if (st && !st.isFile()) throw new PrivateFileError(path, 'it is not a regular file');
}

/**
 * Replaces `path` whole with `data`, mode 0600 (temp file + rename: a link there is replaced,
 * never written through; but one is refused first, so the user hears of it).
 */
export function writePrivateFile(path: string, data: string | Uint8Array | Iterable<string>): void {
  refuseLinks(path);
  writeFileAtomic(path, data, 0o600);
}

/** Opens a file of ours for appending (created 0600), never through a link. */
export async function openPrivateAppend(path: string): Promise<FileHandle> {
  refuseLinks(path);
  let fh: FileHandle;
  try {
    fh = await open(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | NOFOLLOW, 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOOP') throw new PrivateFileError(path, LINK_WHY);
    throw err;
  }
  const st = await fh.stat();
  if (!st.isFile() || !ownedByUs(st)) {
    await fh.close();
    throw new PrivateFileError(path, 'it is not a regular file of this user');
  }
  if (process.platform !== 'win32' && (st.mode & 0o077) !== 0) await fh.chmod(0o600);
  return fh;
}

/** createPrivateFile, synchronous, and a file already there (a link included) is left as it is. */
export function createPrivateFileSync(path: string, data: string): void {
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return;
    throw err;
  }
  try {
    writeSync(fd, data);
  } finally {
    closeSync(fd);
  }
}

/** Creates a new file of ours exclusively (0600); EEXIST when one is there (a link included). */
export async function createPrivateFile(path: string, data: string): Promise<void> {
  const fh = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o600);
  try {
    await fh.writeFile(data);
  } finally {
    await fh.close();
  }
}
