/**
 * Counts byte-pair-encoding tokens the way tiktoken does (and gpt-tokenizer, which the unit
 * test compares it with): special tokens count one each, the rest is split by the encoding's
 * regular expression, a piece that is a token whole counts one, any other piece is merged
 * pair by pair, lowest rank first, over its UTF-8 bytes. Pure; the ranks come in a RankTable.
 */
import type { RankTable } from './rankTable';

/** Pieces counted recently (most text repeats: JSON keys, schema words). */
const CACHE_SIZE = 4096;
/**
 * Merging is quadratic in a piece's length, and one piece can be megabytes (a tool result of
 * one repeated character): longer pieces are counted in chunks of this many characters. Only
 * such pieces can differ from an exact count, by a few tokens per chunk.
 */
const MAX_PIECE = 1024;

export class BpeCounter {
  private readonly encoder = new TextEncoder();
  private readonly decoder = new TextDecoder();
  private readonly special: RegExp | undefined;
  private readonly cache = new Map<string, number>();

  constructor(
    private readonly table: RankTable,
    private readonly split: RegExp,
    specialTokens: readonly string[] = [],
  ) {
    const escaped = specialTokens.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    this.special = escaped.length ? new RegExp(escaped.join('|'), 'g') : undefined;
  }

  count(text: string): number {
    if (text.length === 0) return 0;
    if (!this.special) return this.countOrdinary(text);
    let total = 0;
    let from = 0;
    this.special.lastIndex = 0;
    for (let m = this.special.exec(text); m; m = this.special.exec(text)) {
      total += this.countOrdinary(text.slice(from, m.index)) + 1;
      from = m.index + m[0].length;
    }
    return total + this.countOrdinary(text.slice(from));
  }

  /**
   * The first `n` tokens of a text, as text: what decoding the first `n` tokens gives, with a
   * multi-byte character cut in half dropped.
   */
  prefix(text: string, n: number): string {
    let out = '';
    let left = n;
    if (left <= 0) return out;
    for (const [piece] of text.matchAll(this.split)) {
      const count = this.countPiece(piece);
      if (count <= left) {
        out += piece;
        left -= count;
        if (left === 0) break;
        continue;
      }
      out += this.piecePrefix(piece, left);
      break;
    }
    return out;
  }

  private piecePrefix(piece: string, n: number): string {
    let out = '';
    let left = n;
    for (let i = 0; i < piece.length && left > 0; i += MAX_PIECE) {
      const chunk = piece.slice(i, i + MAX_PIECE);
      const count = this.countPiece(chunk);
      if (count <= left) {
        out += chunk;
        left -= count;
        continue;
      }
      const bytes = this.encoder.encode(chunk);
      const starts = this.table.rank(bytes, 0, bytes.length) >= 0 ? [0, bytes.length] : this.mergeStarts(bytes);
      out += this.decoder.decode(bytes.subarray(0, starts[left])).replace(/\uFFFD+$/, '');
      left = 0;
    }
    return out;
  }

  private countOrdinary(text: string): number {
    let total = 0;
    for (const [piece] of text.matchAll(this.split)) total += this.countPiece(piece);
    return total;
  }

  private countPiece(piece: string): number {
    if (piece.length > MAX_PIECE) {
      let n = 0;
      for (let i = 0; i < piece.length; i += MAX_PIECE) n += this.countPiece(piece.slice(i, i + MAX_PIECE));
      return n;
    }
    const known = this.cache.get(piece);
    if (known !== undefined) return known;
    const bytes = this.encoder.encode(piece);
    const n = this.table.rank(bytes, 0, bytes.length) >= 0 ? 1 : this.mergeStarts(bytes).length - 1;
    if (this.cache.size >= CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(piece, n);
    return n;
  }

  /**
   * A piece that is no token whole, merged lowest-ranked pair first until no pair is a token:
   * the byte offset where each token starts, and the end.
   */
  private mergeStarts(piece: Uint8Array): number[] {
    // starts[i] is where part i begins; ranks[i] the rank of parts i and i+1 merged (or none).
    const starts: number[] = [];
    const ranks: number[] = [];
    const rankAt = (i: number): number => {
      const end = starts[i + 2];
      if (end === undefined) return Infinity;
      const r = this.table.rank(piece, starts[i]!, end);
      return r < 0 ? Infinity : r;
    };
    for (let i = 0; i <= piece.length; i++) starts.push(i);
    for (let i = 0; i < starts.length; i++) ranks.push(i < piece.length - 1 ? rankAt(i) : Infinity);
    while (starts.length > 1) {
      let lowest = Infinity;
      let at = -1;
      for (let i = 0; i < ranks.length - 1; i++) {
        if (ranks[i]! < lowest) {
          lowest = ranks[i]!;
          at = i;
        }
      }
      if (at < 0) break;
      starts.splice(at + 1, 1);
      ranks.splice(at, 1);
      ranks[at] = rankAt(at);
      if (at > 0) ranks[at - 1] = rankAt(at - 1);
    }
    return starts;
  }
}
