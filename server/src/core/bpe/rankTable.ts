/**
 * A byte-pair-encoding rank table in a few megabytes: every token's bytes in one buffer, an
 * offset per rank, and an open-addressing hash table of ranks keyed by those bytes. It answers
 * "which rank do these bytes have" without a JavaScript string or Map entry per token (the
 * o200k table as a Map of strings costs tens of megabytes of heap). Pure: built from bytes handed in.
 */

/**
 * Serialized form, loaded without copying or hashing: "O2K2", u32 rank count, u32 slot count,
 * then the offsets (Int32 × count+1), the slots (Int32 × slot count) and the token bytes.
 */
const MAGIC = 0x324b324f; // "O2K2" little-endian

export class RankTable {
  private constructor(
    private readonly bytes: Uint8Array,
    /** Start of rank r's bytes at offsets[r], its end at offsets[r + 1]. */
    private readonly offsets: Int32Array,
    /** rank + 1, or 0 for an empty slot; size a power of two. */
    private readonly slots: Int32Array,
  ) {}

  /** Number of ranks (holes included). */
  get size(): number {
    return this.offsets.length - 1;
  }

  /** From each rank's bytes (undefined or empty: the rank is unused). */
  static fromTokens(tokens: readonly (Uint8Array | undefined)[]): RankTable {
    const total = tokens.reduce((n, t) => n + (t?.length ?? 0), 0);
    const bytes = new Uint8Array(total);
    const offsets = new Int32Array(tokens.length + 1);
    let at = 0;
    tokens.forEach((t, r) => {
      offsets[r] = at;
      if (t) (bytes.set(t, at), (at += t.length));
    });
    offsets[tokens.length] = at;
    return RankTable.index(bytes, offsets);
  }

  /** From the serialized form (see `serialize`): views into `data`, nothing rebuilt. */
  static fromBinary(data: Uint8Array): RankTable {
    // Int32Array views need 4-byte alignment: copy once if the buffer is not aligned.
    const d = data.byteOffset % 4 === 0 ? data : data.slice();
    const header = new Uint32Array(d.buffer, d.byteOffset, 3);
    if (header[0] !== MAGIC) throw new Error('not an O2K2 rank table');
    const count = header[1]!;
    const size = header[2]!;
    let pos = d.byteOffset + 12;
    const offsets = new Int32Array(d.buffer, pos, count + 1);
    pos += (count + 1) * 4;
    const slots = new Int32Array(d.buffer, pos, size);
    pos += size * 4;
    const bytes = new Uint8Array(d.buffer, pos, offsets[count]!);
    return new RankTable(bytes, offsets, slots);
  }

  serialize(): Uint8Array {
    const count = this.size;
    const out = new Uint8Array(12 + (count + 1) * 4 + this.slots.length * 4 + this.bytes.length);
    new Uint32Array(out.buffer, 0, 3).set([MAGIC, count, this.slots.length]);
    let pos = 12;
    out.set(new Uint8Array(this.offsets.buffer, this.offsets.byteOffset, this.offsets.byteLength), pos);
    pos += this.offsets.byteLength;
    out.set(new Uint8Array(this.slots.buffer, this.slots.byteOffset, this.slots.byteLength), pos);
    pos += this.slots.byteLength;
    out.set(this.bytes, pos);
    return out;
  }

  /** The rank of piece[start..end), or -1 when those bytes are no token. */
  rank(piece: Uint8Array, start: number, end: number): number {
    const mask = this.slots.length - 1;
    for (let i = hash(piece, start, end) & mask; ; i = (i + 1) & mask) {
      const slot = this.slots[i]!;
      if (slot === 0) return -1;
      if (this.equals(slot - 1, piece, start, end)) return slot - 1;
    }
  }

  private equals(rank: number, piece: Uint8Array, start: number, end: number): boolean {
    const a = this.offsets[rank]!;
    const len = this.offsets[rank + 1]! - a;
    if (len !== end - start) return false;
    for (let i = 0; i < len; i++) if (this.bytes[a + i] !== piece[start + i]) return false;
    return true;
  }

  private static index(bytes: Uint8Array, offsets: Int32Array): RankTable {
    const count = offsets.length - 1;
    // ~0.76 full for o200k: 1 MB of slots instead of 2, for a probe or two more per lookup.
    let size = 1;
    while (size < count * 1.25) size <<= 1;
    const slots = new Int32Array(size);
    const table = new RankTable(bytes, offsets, slots);
    const mask = size - 1;
    for (let r = 0; r < count; r++) {
      const start = offsets[r]!;
      const end = offsets[r + 1]!;
      if (end === start) continue;
      let i = hash(bytes, start, end) & mask;
      while (slots[i] !== 0) i = (i + 1) & mask;
      slots[i] = r + 1;
    }
    return table;
  }
}

/** FNV-1a over bytes. */
function hash(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) {
    h ^= bytes[i]!;
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
