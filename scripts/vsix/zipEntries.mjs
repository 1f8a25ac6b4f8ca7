// Reads a ZIP archive (a VSIX) in memory: the central directory's entries and any entry's
// bytes. Only what vsce writes is supported: stored or deflated entries, no ZIP64, no
// encryption. Lets the packaging check and its test look inside a VSIX without `unzip`.
import { readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';

/**
 * @typedef {{ name: string, method: number, compressedSize: number, size: number, localOffset: number }} ZipEntry
 */

export class ZipFile {
  /** @param {string} file */
  constructor(file) {
    this.file = file;
    this.buf = readFileSync(file);
    /** @type {ZipEntry[]} */
    this.entries = readCentralDirectory(this.buf, file);
  }

  /** @param {string} name @returns {ZipEntry | undefined} */
  entry(name) {
    return this.entries.find((e) => e.name === name);
  }

  /** @param {ZipEntry | string} entryOrName @returns {Buffer} */
  read(entryOrName) {
    const e = typeof entryOrName === 'string' ? this.entry(entryOrName) : entryOrName;
    if (!e) throw new Error(`${this.file} has no entry ${String(entryOrName)}`);
    const b = this.buf;
    if (b.readUInt32LE(e.localOffset) !== 0x04034b50) throw new Error(`${this.file}: bad local header for ${e.name}`);
    const start = e.localOffset + 30 + b.readUInt16LE(e.localOffset + 26) + b.readUInt16LE(e.localOffset + 28);
    const data = b.subarray(start, start + e.compressedSize);
    if (e.method === 0) return data;
    if (e.method === 8) return inflateRawSync(data);
    throw new Error(`${this.file}: ${e.name} uses compression method ${e.method}`);
  }
}

/** @param {Buffer} b @param {string} file @returns {ZipEntry[]} */
function readCentralDirectory(b, file) {
  // The end-of-central-directory record sits in the last 64 KiB + 22 bytes (its comment may precede the end).
  let eocd = -1;
  for (let i = b.length - 22; i >= Math.max(0, b.length - 65_557); i--) {
    if (b.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error(`${file} is not a ZIP archive`);
  const count = b.readUInt16LE(eocd + 10);
  let p = b.readUInt32LE(eocd + 16);
  const entries = [];
  for (let i = 0; i < count; i++) {
    if (b.readUInt32LE(p) !== 0x02014b50) throw new Error(`${file}: bad central directory entry ${i}`);
    const nameLength = b.readUInt16LE(p + 28);
    const extraLength = b.readUInt16LE(p + 30);
    const commentLength = b.readUInt16LE(p + 32);
    entries.push({
      name: b.toString('utf8', p + 46, p + 46 + nameLength),
      method: b.readUInt16LE(p + 10),
      compressedSize: b.readUInt32LE(p + 20),
      size: b.readUInt32LE(p + 24),
      localOffset: b.readUInt32LE(p + 42),
    });
    p += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}
