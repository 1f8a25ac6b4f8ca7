// The usage log's line checksum: CRC-32 as zlib computes it, by a JavaScript table on the Node
// 20 releases without zlib.crc32 (before 20.15), natively after. The known values are the
// standard check values; CI also runs test/unit on the oldest Node `engines` allows, where
// encodeLine takes the JavaScript path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as zlib from 'node:zlib';
import { crc32 } from '../../server/src/core/crc32';
import { encodeLine } from '../../server/src/adapters/usage/framedLog';

const KNOWN: [string, string][] = [
  ['', '00000000'],
  ['a', 'e8b7be43'],
  ['123456789', 'cbf43926'],
  ['The quick brown fox jumps over the lazy dog', '414fa339'],
  ['größe 日本語 🙂', '309eff10'],
];

const hex = (n: number) => n.toString(16).padStart(8, '0');

test("crc32 gives zlib's value for each known text's UTF-8 bytes", () => {
  for (const [text, want] of KNOWN) assert.equal(hex(crc32(Buffer.from(text, 'utf8'))), want, JSON.stringify(text));
});

test('crc32 agrees with zlib on every byte value and on long inputs, where this Node has zlib.crc32', (t) => {
  if (typeof zlib.crc32 !== 'function') return t.skip(`Node ${process.version} has no zlib.crc32`);
  const all = Uint8Array.from({ length: 256 }, (_, i) => i);
  assert.equal(crc32(all), zlib.crc32(all));
  const long = Buffer.from('x'.repeat(100_000) + 'é'.repeat(1000), 'utf8');
  assert.equal(crc32(long), zlib.crc32(long));
});

test('a usage log line carries the CRC-32 of its JSON, on this Node whichever way it is computed', () => {
  assert.equal(encodeLine({ a: 1 }), '561bacaf {"a":1}\n');
  assert.equal(
    encodeLine('größe 日本語 🙂'),
    `${hex(crc32(Buffer.from('"größe 日本語 🙂"', 'utf8')))} "größe 日本語 🙂"\n`,
  );
});
