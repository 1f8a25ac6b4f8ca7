/**
 * THE reader of every file a configuration names or a workspace holds that MCP Lens reads as
 * text: MCP config files (`.vscode/mcp.json`, `.mcp.json`, `.cursor/mcp.json`, the user's own,
 * the CLI's `--config`), `envFile`s, `.vscode/settings.json` and the CLI's approvals file.
 * These are read before anything is approved, and their names come from a repository: an
 * `envFile` of `/dev/zero` would be read until memory ran out and a FIFO would hang the read for
 * good. A file is read only if:
 *   - it is a regular file (not a FIFO, device, socket or folder), checked on the open file
 *     (fstat), after an open that cannot block (O_NONBLOCK: opening a FIFO for reading waits
 *     for a writer otherwise);
 *   - it is at most MAX_CONFIG_FILE_BYTES, and no more than that is ever read;
 *   - when it lies inside a workspace folder, its real path (links resolved) does too: a link
 *     in a repository must not make MCP Lens read, and send to an upstream, a file of the
 *     user's elsewhere. Files outside the workspace (the user's own) may be links.
 * Every refusal says why, in words; callers name the file.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, realpathSync, type Stats } from 'node:fs';
import * as path from 'node:path';

/**
 * The largest file read: many times the largest real files in these roles (settings.json files,
 * and MCP configs of a hundred servers), and still quick to read whole.
 */
export const MAX_CONFIG_FILE_BYTES = 2 * 1024 * 1024;

export type ConfigFileRead = { text: string } | { missing: true } | { refused: string };

const NONBLOCK = constants.O_NONBLOCK ?? 0;
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/**
 * Reads `file` under the rules above; `roots` are the workspace folders (a file inside one
 * must resolve inside it).
 */
export function readConfigFile(file: string, roots: readonly string[] = []): ConfigFileRead {
  const absolute = path.resolve(file);
  try {
    lstatSync(absolute);
  } catch (err) {
    return missingOr(err);
  }
  let target = absolute;
  const root = roots.map((r) => path.resolve(r)).find((r) => inside(absolute, r));
  if (root !== undefined) {
    try {
      target = realpathSync(absolute);
      if (!inside(target, realpathSync(root))) {
        return {
          refused: `it is a link to ${target}, outside the workspace (MCP Lens does not follow a workspace's links out of it)`,
        };
      }
    } catch (err) {
      // A link to nothing is a missing file, as readFileSync saw it.
      return missingOr(err);
    }
  }
  let fd: number;
  try {
    // NOFOLLOW once resolved: the checked path cannot be swapped for a link before the open.
    fd = openSync(target, constants.O_RDONLY | NONBLOCK | (root !== undefined ? NOFOLLOW : 0));
  } catch (err) {
    return missingOr(err);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { refused: `it is ${kindOf(st)}, not a regular file` };
    if (st.size > MAX_CONFIG_FILE_BYTES) return { refused: tooLarge() };
    return readBounded(fd);
  } finally {
    closeSync(fd);
  }
}

/** Reads at most the limit; a file that grew past it since fstat is refused, not cut. */
function readBounded(fd: number): ConfigFileRead {
  const chunks: Buffer[] = [];
  const buf = Buffer.alloc(64 * 1024);
  let total = 0;
  for (let n = readSync(fd, buf); n > 0; n = readSync(fd, buf)) {
    total += n;
    if (total > MAX_CONFIG_FILE_BYTES) return { refused: tooLarge() };
    chunks.push(Buffer.from(buf.subarray(0, n)));
  }
  return { text: Buffer.concat(chunks).toString('utf8') };
}

function tooLarge(): string {
  return `it is larger than ${MAX_CONFIG_FILE_BYTES / (1024 * 1024)} MB, the limit for a file MCP Lens reads its configuration from`;
}

function missingOr(err: unknown): ConfigFileRead {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return { missing: true };
  if (code === 'ELOOP') return { refused: 'it became a link while it was read' };
  return { refused: `cannot read it (${code ?? String(err)})` };
}

function inside(file: string, root: string): boolean {
  const rel = path.relative(root, file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

function kindOf(st: Stats): string {
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  if (st.isDirectory()) return 'a folder';
  return 'not a file';
}
