/**
 * CRC-32 (IEEE 802.3, the polynomial zlib and gzip use) of a byte string, computed in
 * JavaScript. The usage log frames each line with zlib's `crc32`, which Node has only from
 * 20.15 on; on the older Node 20 releases MCP Lens supports (package.json `engines`), this one
 * gives the same value (adapters/usage/framedLog.ts picks). Pure.
 */

let table: Uint32Array | undefined;

function crcTable(): Uint32Array {
  if (table) return table;
  table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
}

/** The CRC-32 of `bytes`, as an unsigned 32-bit integer (what zlib.crc32 returns). */
export function crc32(bytes: Uint8Array): number {
  const t = crcTable();
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = t[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
