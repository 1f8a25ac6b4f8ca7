// Draws media/icon.png (128x128): a magnifying lens over a stack of tool bars, anti-aliased by
// 4x4 supersampling, written as a PNG with node's zlib. Usage: node scripts/make-icon.mjs
import { writeFileSync, mkdirSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const S = 128;
const BG = [30, 42, 56];
const BAR = [86, 156, 214];
const RING = [255, 196, 64];
const GLASS = [60, 90, 120];

function inRoundedRect(x, y, x0, y0, x1, y1, r) {
  const cx = Math.min(Math.max(x, x0 + r), x1 - r);
  const cy = Math.min(Math.max(y, y0 + r), y1 - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r && x >= x0 && x <= x1 && y >= y0 && y <= y1;
}

/** Colour at a sample point, or null for transparent. */
function sample(x, y) {
  if (!inRoundedRect(x, y, 2, 2, 126, 126, 24)) return null;
  const lx = 54,
    ly = 54,
    r = 30;
  const d = Math.hypot(x - lx, y - ly);
  // handle: a thick segment from the ring towards the bottom right
  const t = (x - lx + (y - ly)) / 2;
  const off = Math.abs(x - lx - (y - ly)) / Math.SQRT2;
  if (t * Math.SQRT2 > r + 2 && t * Math.SQRT2 < r + 40 && off < 8) return RING;
  if (d >= r - 7 && d <= r) return RING;
  const bars = [
    [24, 34, 84],
    [24, 50, 70],
    [24, 66, 92],
    [24, 82, 62],
  ];
  for (const [bx, by, bw] of bars) {
    if (inRoundedRect(x, y, bx, by, bx + bw, by + 8, 4)) return d < r - 7 ? [170, 215, 255] : BAR;
  }
  if (d < r - 7) return GLASS;
  return BG;
}

const rows = [];
for (let y = 0; y < S; y++) {
  const row = Buffer.alloc(1 + S * 4);
  for (let x = 0; x < S; x++) {
    let rr = 0,
      gg = 0,
      bb = 0,
      aa = 0;
    for (let sy = 0; sy < 4; sy++)
      for (let sx = 0; sx < 4; sx++) {
        const c = sample(x + (sx + 0.5) / 4, y + (sy + 0.5) / 4);
        if (c) {
          rr += c[0];
          gg += c[1];
          bb += c[2];
          aa++;
        }
      }
    const o = 1 + x * 4;
    if (aa) {
      row[o] = rr / aa;
      row[o + 1] = gg / aa;
      row[o + 2] = bb / aa;
    }
    row[o + 3] = Math.round((aa / 16) * 255);
  }
  rows.push(row);
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}
const ihdr = Buffer.alloc(13);
ihdr.writeUInt32BE(S, 0);
ihdr.writeUInt32BE(S, 4);
ihdr[8] = 8;
ihdr[9] = 6;
ihdr[10] = 0;
ihdr[11] = 0;
ihdr[12] = 0;
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', ihdr),
  chunk('IDAT', deflateSync(Buffer.concat(rows), { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
mkdirSync('media', { recursive: true });
writeFileSync('media/icon.png', png);
console.error(`media/icon.png: ${png.length} bytes`);
