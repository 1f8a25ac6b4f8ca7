/**
 * Line framing of the usage log: `<crc32 as 8 hex digits> <json>\n`. JSON.stringify never
 * emits a raw newline, so one record is one line; a line without its newline (torn by a
 * crash mid-write) or whose CRC does not match is dropped on read, never half-read.
 */
import * as zlib from 'node:zlib';
import { constants } from 'node:fs';
import { lstat, open, readFile, rename, unlink } from 'node:fs/promises';
import { crc32 as crc32OfBytes } from '../../core/crc32';
import { PrivateFileError } from '../privateFiles';

/**
 * The CRC-32 of a text's UTF-8 bytes: zlib's (native) where this Node has it (20.15 and later),
 * else the same checksum in JavaScript, so the log reads and writes alike on every Node the
 * package supports.
 */
const textCrc32: (text: string) => number =
  typeof zlib.crc32 === 'function' ? (text) => zlib.crc32(text) : (text) => crc32OfBytes(Buffer.from(text, 'utf8'));

export function encodeLine(record: unknown): string {
  const json = JSON.stringify(record);
  return `${textCrc32(json).toString(16).padStart(8, '0')} ${json}\n`;
}

export interface DecodedLog<T> {
  records: T[];
  /** Lines dropped: torn tail, CRC mismatch, unparsable JSON. */
  dropped: number;
  /** Bytes of the file up to the end of its last complete line (where appends must resume). */
  validBytes: number;
}

/** Parses a whole log buffer; `accept` validates the JSON shape (returns undefined to drop). */
function decodeLog<T>(buf: Buffer, accept: (value: unknown) => T | undefined): DecodedLog<T> {
  const records: T[] = [];
  let dropped = 0;
  let start = 0;
  for (;;) {
    const nl = buf.indexOf(0x0a, start);
    if (nl < 0) break;
    const line = buf.toString('utf8', start, nl);
    start = nl + 1;
    const record = decodeLine(line, accept);
    if (record === undefined) dropped++;
    else records.push(record);
  }
  if (start < buf.length) dropped++; // the torn last line, without its newline
  return { records, dropped, validBytes: start };
}

function decodeLine<T>(line: string, accept: (value: unknown) => T | undefined): T | undefined {
  if (line.length < 10 || line[8] !== ' ') return undefined;
  const json = line.slice(9);
  if (textCrc32(json).toString(16).padStart(8, '0') !== line.slice(0, 8)) return undefined;
  try {
    return accept(JSON.parse(json));
  } catch {
    return undefined;
  }
}

/**
 * Reads and decodes a log file; a missing file, or one that is not a regular file (a device), is
 * an empty log. A symbolic link is refused (PrivateFileError): the log is only ever ours.
 */
export async function readLog<T>(path: string, accept: (value: unknown) => T | undefined): Promise<DecodedLog<T>> {
  try {
    const st = await lstat(path);
    if (st.isSymbolicLink())
      throw new PrivateFileError(
        path,
        'it is a symbolic link (MCP Lens never follows links in its own folder: a repository could point one anywhere); remove it',
      );
    if (!st.isFile()) return { records: [], dropped: 0, validBytes: 0 };
    return decodeLog(await readFile(path), accept);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], dropped: 0, validBytes: 0 };
    throw err;
  }
}

/** Replaces the log with exactly these records: write a temp file, fsync, rename over (atomic). */
export async function rewriteLog(path: string, records: readonly unknown[]): Promise<void> {
  const tmp = `${path}.tmp`;
  // A leftover temp file (or a link a repository put there) goes; the new one is created exclusively.
  await unlink(tmp).catch(() => undefined);
  const fh = await open(
    tmp,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0),
    0o600,
  );
  try {
    const CHUNK = 4096;
    for (let i = 0; i < records.length; i += CHUNK) {
      await fh.write(
        records
          .slice(i, i + CHUNK)
          .map(encodeLine)
          .join(''),
      );
    }
    await fh.sync();
  } catch (err) {
    await fh.close().catch(() => undefined);
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  await fh.close();
  await rename(tmp, path);
}
