/**
 * The catalog's documents as term ids, for building the BM25F index (bm25f.ts) and for what a
 * re-rank signal may ask of a tool's words (TermSet). Every term string is stored once (a
 * TermTable); each document's own fields are runs of ids in one flat array. At 100,000 tools
 * that is tens of MB of Int32, where a string array per field and a Set per tool were most of
 * the build's peak memory (several hundred MB) and of its garbage-collection time.
 */

/** Every distinct term once, by id (ids in order of first appearance). */
export class TermTable {
  readonly ids = new Map<string, number>();
  readonly strings: string[] = [];

  intern(term: string): number {
    let id = this.ids.get(term);
    if (id === undefined) {
      id = this.strings.length;
      this.ids.set(term, id);
      this.strings.push(term);
    }
    return id;
  }

  get size(): number {
    return this.strings.length;
  }

  /**
   * The id of the bigram term `a b` (ids of its two terms): looked up by the pair, so the
   * string is made once per distinct bigram, not once per occurrence (millions at 100,000
   * tools, each hashed whole: most of the build's garbage).
   */
  bigram(a: number, b: number): number {
    const at = this.pairs.find(a, b);
    if (at.id >= 0) return at.id;
    const id = this.intern(`${this.strings[a]} ${this.strings[b]}`);
    this.pairs.insert(at.slot, a, b, id);
    return id;
  }

  private readonly pairs = new PairTable();
}

/** (a, b) → id, open addressing over typed arrays: no object or string per lookup. */
class PairTable {
  private keysA = new Int32Array(1 << 12).fill(-1);
  private keysB = new Int32Array(1 << 12);
  private ids = new Int32Array(1 << 12);
  private used = 0;

  /** The pair's id (−1 when absent) and, when absent, the slot to insert it at. */
  find(a: number, b: number): { id: number; slot: number } {
    const mask = this.keysA.length - 1;
    for (let slot = hashPair(a, b) & mask; ; slot = (slot + 1) & mask) {
      const k = this.keysA[slot]!;
      if (k === -1) return { id: -1, slot };
      if (k === a && this.keysB[slot] === b) return { id: this.ids[slot]!, slot };
    }
  }

  insert(slot: number, a: number, b: number, id: number): void {
    this.keysA[slot] = a;
    this.keysB[slot] = b;
    this.ids[slot] = id;
    if (++this.used * 2 > this.keysA.length) this.grow();
  }

  private grow(): void {
    const [keysA, keysB, ids] = [this.keysA, this.keysB, this.ids];
    this.keysA = new Int32Array(keysA.length * 2).fill(-1);
    this.keysB = new Int32Array(keysA.length * 2);
    this.ids = new Int32Array(keysA.length * 2);
    this.used = 0;
    for (let i = 0; i < keysA.length; i++)
      if (keysA[i] !== -1) this.insert(this.find(keysA[i]!, keysB[i]!).slot, keysA[i]!, keysB[i]!, ids[i]!);
  }
}

function hashPair(a: number, b: number): number {
  return (Math.imul(a, 0x9e3779b1) ^ Math.imul(b + 0x7f4a7c15, 0x85ebca6b)) >>> 0;
}

/** The four fields a document holds itself, in this order (bm25f.ts OWN_FIELDS). */
export const OWN_FIELD_COUNT = 4;

/**
 * Documents as term ids. Document d's field f (0 name, 1 server, 2 description, 3 params) is
 * `ids[fieldStart[d * 4 + f] .. fieldStart[d * 4 + f + 1])`, in the order its terms were read.
 * Each document belongs to a group (its server), and a document that `lends` gives its name and
 * description terms to its group's other members as their context field.
 */
export interface DocTokens {
  readonly table: TermTable;
  readonly count: number;
  readonly ids: Int32Array;
  readonly fieldStart: Int32Array;
  /** Dense group ids in order of first appearance. */
  readonly groups: Int32Array;
  readonly groupCount: number;
  /** 1 when the document lends its name and description terms to its group. */
  readonly lends: Uint8Array;
}

/** Appends documents field by field, then freezes them into a DocTokens. */
export class DocTokensBuilder {
  private ids = new Int32Array(1 << 16);
  private length = 0;
  private fieldStart = new Int32Array(1024 * OWN_FIELD_COUNT + 1);
  private fields = 0;
  private groups = new Int32Array(1024);
  private lends = new Uint8Array(1024);
  private docs = 0;
  private readonly groupIds = new Map<string, number>();

  constructor(readonly table: TermTable = new TermTable()) {}

  /** Appends one term to the field being read. */
  push(term: string): void {
    this.pushId(this.table.intern(term));
  }

  pushId(id: number): void {
    if (this.length === this.ids.length) this.ids = grown(this.ids, this.length * 2);
    this.ids[this.length++] = id;
  }

  /** Ends the field being read (call four times per document, in OWN_FIELDS order). */
  endField(): void {
    if (this.fields + 2 > this.fieldStart.length) this.fieldStart = grown(this.fieldStart, this.fieldStart.length * 2);
    this.fieldStart[++this.fields] = this.length;
  }

  /** Ends a document of `group` whose four fields were just read. */
  endDocument(group: string, lends: boolean): void {
    if (this.docs === this.groups.length) {
      this.groups = grown(this.groups, this.docs * 2);
      this.lends = grown(this.lends, this.docs * 2);
    }
    let g = this.groupIds.get(group);
    if (g === undefined) this.groupIds.set(group, (g = this.groupIds.size));
    this.groups[this.docs] = g;
    this.lends[this.docs++] = lends ? 1 : 0;
  }

  /** The ids of the field being read so far (from its start). */
  currentField(): Int32Array {
    return this.ids.subarray(this.fieldStart[this.fields], this.length);
  }

  finish(): DocTokens {
    return {
      table: this.table,
      count: this.docs,
      ids: this.ids.slice(0, this.length),
      fieldStart: this.fieldStart.slice(0, this.fields + 1),
      groups: this.groups.slice(0, this.docs),
      groupCount: this.groupIds.size,
      lends: this.lends.slice(0, this.docs),
    };
  }
}

/** What a re-rank signal may ask of a tool's terms: membership and a walk over them (a ReadonlySet satisfies it). */
export interface TermSet {
  has(term: string): boolean;
  readonly size: number;
  forEach(each: (term: string) => void): void;
}

/**
 * Each document's distinct terms as sorted ids in one flat array: `has` is a table lookup and a
 * binary search, with no per-tool Set (a Set per tool dominates the heap of a large catalog).
 */
export class DocTermSets {
  private readonly offsets: Int32Array;
  private readonly ids: Int32Array;

  /** `words`: each document's term ids in its four fields (repeats allowed), every id in `table`. */
  constructor(
    private readonly table: TermTable,
    words: DocTokens,
  ) {
    const count = words.count;
    const offsets = new Int32Array(count + 1);
    let ids = new Int32Array(1 << 16);
    let length = 0;
    const seen = new Int32Array(table.size).fill(-1);
    const distinct: number[] = [];
    for (let d = 0; d < count; d++) {
      for (
        let i = words.fieldStart[d * OWN_FIELD_COUNT]!, end = words.fieldStart[(d + 1) * OWN_FIELD_COUNT]!;
        i < end;
        i++
      ) {
        const id = words.ids[i]!;
        if (seen[id] === d) continue;
        seen[id] = d;
        distinct.push(id);
      }
      distinct.sort((a, b) => a - b);
      if (length + distinct.length > ids.length) ids = grown(ids, Math.max(ids.length * 2, length + distinct.length));
      for (let i = 0; i < distinct.length; i++) ids[length + i] = distinct[i]!;
      length += distinct.length;
      offsets[d + 1] = length;
      distinct.length = 0;
    }
    this.offsets = offsets;
    this.ids = ids.slice(0, length);
  }

  of(doc: number): TermSet {
    return new DocTermSet(this, doc);
  }

  /** Whether document `doc` holds `term`. */
  has(doc: number, term: string): boolean {
    const id = this.table.ids.get(term);
    if (id === undefined) return false;
    let lo = this.offsets[doc]!;
    let hi = this.offsets[doc + 1]! - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const at = this.ids[mid]!;
      if (at === id) return true;
      if (at < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  }

  size(doc: number): number {
    return this.offsets[doc + 1]! - this.offsets[doc]!;
  }

  forEach(doc: number, each: (term: string) => void): void {
    for (let i = this.offsets[doc]!; i < this.offsets[doc + 1]!; i++) each(this.table.strings[this.ids[i]!]!);
  }
}

class DocTermSet implements TermSet {
  constructor(
    private readonly sets: DocTermSets,
    private readonly doc: number,
  ) {}

  has(term: string): boolean {
    return this.sets.has(this.doc, term);
  }

  get size(): number {
    return this.sets.size(this.doc);
  }

  forEach(each: (term: string) => void): void {
    this.sets.forEach(this.doc, each);
  }
}

function grown<T extends Int32Array | Uint8Array>(from: T, length: number): T {
  const to = new (from.constructor as new (n: number) => T)(length);
  to.set(from);
  return to;
}
