/**
 * A flat copy of the tool store's rows as the index reads them (id, server, hash, model,
 * vector), so a start with an unchanged store never loads LanceDB: its native library, thread
 * pools and first scan cost far more memory and time than the vectors they read
 * (`npm run bench:memory`; bench-results.md, "LanceDB's load cost"). LanceDB stays the store of record; the
 * snapshot is kept only below the store's size for LanceDB's vector index (past it the vectors
 * are not read at start at all) and is only ever an exact copy of a committed state — the
 * writer deletes it before each commit and writes it again once writes go quiet — so a reader
 * that finds it may trust it.
 *
 * Layout: u32 LE header length, 64 hex chars sha256 (of everything after them), the header
 * JSON, zero padding to 4 bytes, then count × dimension float32 LE. Anything that does not
 * check out is "no snapshot", never an error.
 */
import { createHash } from 'node:crypto';
import { lstatSync, readFileSync, rmSync, statSync } from 'node:fs';
import { writePrivateFile } from '../privateFiles';
import type { StoredVector } from './toolStore';

const FORMAT = 'mcp-lens-vectors/1';
const PREFIX = 4 + 64;

interface Header {
  format: string;
  dimension: number;
  /** One [id, server, contentHash, model] per vector, in order. */
  rows: [string, string, string, string][];
}

/** Identifies one written snapshot file, to tell whether it changed since it was read. */
export interface SnapshotStamp {
  mtimeMs: number;
  size: number;
  ino: number;
}

/** The rows, or undefined when there is no valid snapshot at `path`. Vectors are views into one buffer. */
export function readSnapshot(path: string): { rows: StoredVector[]; stamp: SnapshotStamp } | undefined {
  let bytes: Buffer;
  let stamp: SnapshotStamp;
  try {
    // Only a regular file: in the CLI the index sits in the workspace, and a link to a device
    // (/dev/zero) would be read forever.
    if (!lstatSync(path).isFile()) return undefined;
    stamp = stampOf(path);
    bytes = readFileSync(path);
  } catch {
    return undefined;
  }
  if (bytes.length < PREFIX) return undefined;
  const headerLength = bytes.readUInt32LE(0);
  const body = bytes.subarray(PREFIX);
  if (headerLength > body.length || sha256(body) !== bytes.toString('latin1', 4, PREFIX)) return undefined;
  let header: Header;
  try {
    header = JSON.parse(body.toString('utf8', 0, headerLength)) as Header;
  } catch {
    return undefined;
  }
  const { dimension, rows } = header;
  const dataStart = align4(headerLength);
  if (header.format !== FORMAT || !Array.isArray(rows) || body.length - dataStart !== rows.length * dimension * 4)
    return undefined;
  // A file this size is read into its own buffer, so the floats are 4-aligned and viewed in place, not copied.
  const at = body.byteOffset + dataStart;
  let data: Float32Array;
  if (at % 4 === 0) data = new Float32Array(body.buffer, at, rows.length * dimension);
  else {
    data = new Float32Array(rows.length * dimension);
    new Uint8Array(data.buffer).set(body.subarray(dataStart));
  }
  return {
    stamp,
    rows: rows.map(([id, server, contentHash, model], i) => ({
      id,
      server,
      contentHash,
      model,
      vector: data.subarray(i * dimension, (i + 1) * dimension),
    })),
  };
}

/** Writes atomically (temp file + rename), mode 0600. Rows must share one dimension (the table's). */
export function writeSnapshot(path: string, rows: readonly StoredVector[]): void {
  const dimension = rows[0]?.vector?.length ?? 0;
  const header: Header = { format: FORMAT, dimension, rows: rows.map((r) => [r.id, r.server, r.contentHash, r.model]) };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const body = Buffer.alloc(align4(json.length) + rows.length * dimension * 4);
  json.copy(body);
  const floats = new Float32Array(body.buffer, body.byteOffset + align4(json.length), rows.length * dimension);
  rows.forEach((r, i) => {
    if (r.vector?.length !== dimension)
      throw new Error(`vector of ${r.id} has ${r.vector?.length ?? 'no'} dimensions, not ${dimension}`);
    floats.set(r.vector, i * dimension);
  });
  const prefix = Buffer.alloc(PREFIX);
  prefix.writeUInt32LE(json.length, 0);
  prefix.write(sha256(body), 4, 'latin1');
  // 0600 and never through a link: in the CLI it sits in `.mcp-lens/index/lancedb/`, MCP Lens's own folder.
  writePrivateFile(path, Buffer.concat([prefix, body]));
}

export function removeSnapshot(path: string): void {
  rmSync(path, { force: true });
}

/** The stamp of the file now, or undefined when there is none. */
export function snapshotStamp(path: string): SnapshotStamp | undefined {
  try {
    return stampOf(path);
  } catch {
    return undefined;
  }
}

export function sameStamp(a: SnapshotStamp | undefined, b: SnapshotStamp | undefined): boolean {
  return a !== undefined && b !== undefined && a.mtimeMs === b.mtimeMs && a.size === b.size && a.ino === b.ino;
}

function stampOf(path: string): SnapshotStamp {
  const s = statSync(path);
  return { mtimeMs: s.mtimeMs, size: s.size, ino: s.ino };
}

function align4(n: number): number {
  return (n + 3) & ~3;
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
