/**
 * Building Bm25fIndex's postings in O(total tokens). Two inverted lists:
 * - per (term, document): the document's own-field pseudo frequency (name, server,
 *   description, params, already weighted and length-normalised) and how many times the
 *   document lends the term to its group (its `shared` words);
 * - per (term, group): the group's total count of the term, so a document's context frequency
 *   is group count − own count, computed at query time. The context field is never copied per
 *   document: copying it made a server of n tools cost n × its vocabulary (900 MB at 2,220
 *   tools on one server).
 */

/**
 * Postings in flat (CSR) layouts: term t's entries are [offsets[t], offsets[t + 1]). Within a
 * term, documents whose group does not share the term come first (ascending), then from
 * inside[t] on those whose group does, ordered by (group, document): the order a query walks
 * the group entries and their members, so it merges the two without a lookup table.
 */
export interface Postings {
  offsets: Int32Array;
  inside: Int32Array;
  docs: Int32Array;
  /** Own-field pseudo frequency, float64 so adding the context keeps the old sum's exact value. */
  direct: Float64Array;
  /** How many of the term's occurrences in the group's shared words are this document's. */
  own: Int32Array;
  groupOffsets: Int32Array;
  groups: Int32Array;
  /** The group's total count of the term in its members' shared words. */
  groupCounts: Int32Array;
  /** Documents with any own-field frequency or any context frequency of the term. */
  df: Int32Array;
}

/**
 * Accumulates one document's frequencies in flat arrays indexed by term id, then appends
 * (term, document, direct, own) rows to growable typed arrays; `finish` counting-sorts them by
 * term. (A Map per document, then a JS array pair per term, were most of the build time —
 * allocation and GC — at 10k tools.)
 */
export class PostingsBuilder {
  private pseudo = new Float64Array(1024);
  private ownCount = new Int32Array(1024);
  private seenMark = new Uint8Array(1024);
  private terms = 0;
  private readonly seen: number[] = [];
  private rowTerm = new Int32Array(16384);
  private rowDoc = new Int32Array(16384);
  private rowDirect = new Float64Array(16384);
  private rowOwn = new Int32Array(16384);
  private rows = 0;

  constructor(private readonly termIds: Map<string, number>) {}

  /** An occurrence in one of the document's own fields, worth `amount` of pseudo frequency. */
  add(term: string, amount: number): void {
    const id = this.mark(term);
    this.pseudo[id] += amount;
  }

  /** An occurrence the document lends to its group's other members as context. */
  share(term: string): void {
    this.ownCount[this.mark(term)]++;
  }

  endDocument(doc: number): void {
    for (const id of this.seen) {
      if (this.rows === this.rowTerm.length) this.growRows();
      this.rowTerm[this.rows] = id;
      this.rowDoc[this.rows] = doc;
      this.rowDirect[this.rows] = this.pseudo[id];
      this.rowOwn[this.rows] = this.ownCount[id];
      this.rows++;
      this.pseudo[id] = 0;
      this.ownCount[id] = 0;
      this.seenMark[id] = 0;
    }
    this.seen.length = 0;
  }

  /**
   * The postings grouped by term, documents ascending within a term, plus the per-group counts
   * and document frequencies. `groupOf` maps a document to its group; `contextUnit` is each
   * document's context-field multiplier (0 when it has no context); `liveMembers` counts each
   * group's documents with a non-zero multiplier.
   */
  finish(groupOf: Int32Array, contextUnit: Float64Array, liveMembers: Int32Array): Postings {
    const terms = this.terms;
    const offsets = new Int32Array(terms + 1);
    for (let i = 0; i < this.rows; i++) offsets[this.rowTerm[i] + 1]++;
    for (let t = 0; t < terms; t++) offsets[t + 1] += offsets[t];
    const next = offsets.slice(0, terms);
    const docs = new Int32Array(this.rows);
    const direct = new Float64Array(this.rows);
    const own = new Int32Array(this.rows);
    for (let i = 0; i < this.rows; i++) {
      const at = next[this.rowTerm[i]]++;
      docs[at] = this.rowDoc[i];
      direct[at] = this.rowDirect[i];
      own[at] = this.rowOwn[i];
    }
    const grouped = groupPostings({ offsets, docs, direct, own }, groupOf, contextUnit, liveMembers);
    return { offsets, docs, direct, own, ...grouped };
  }

  private mark(term: string): number {
    const id = this.idOf(term);
    if (this.seenMark[id] === 0) {
      this.seenMark[id] = 1;
      this.seen.push(id);
    }
    return id;
  }

  private idOf(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.terms++;
      this.termIds.set(term, id);
      if (id >= this.pseudo.length) {
        const n = this.pseudo.length * 2;
        this.pseudo = grow(this.pseudo, new Float64Array(n));
        this.ownCount = grow(this.ownCount, new Int32Array(n));
        this.seenMark = grow(this.seenMark, new Uint8Array(n));
      }
    }
    return id;
  }

  private growRows(): void {
    const n = this.rowTerm.length * 2;
    this.rowTerm = grow(this.rowTerm, new Int32Array(n));
    this.rowDoc = grow(this.rowDoc, new Int32Array(n));
    this.rowDirect = grow(this.rowDirect, new Float64Array(n));
    this.rowOwn = grow(this.rowOwn, new Int32Array(n));
  }
}

type DocPostings = Pick<Postings, 'offsets' | 'docs' | 'direct' | 'own'>;

/**
 * Per term: the groups whose members share it, with their counts, and the term's document
 * frequency. A member has context frequency > 0 unless it has no context field or it holds every
 * one of the group's occurrences (then it is the group's only holder). One pass over each term's
 * postings, so O(postings) in all.
 */
function groupPostings(p: DocPostings, groupOf: Int32Array, contextUnit: Float64Array, liveMembers: Int32Array): Omit<Postings, keyof DocPostings> {
  const terms = p.offsets.length - 1;
  const nGroups = liveMembers.length;
  const stamp = new Int32Array(nGroups).fill(-1);
  const count = new Int32Array(nGroups);
  const holders = new Int32Array(nGroups);
  const lastHolder = new Int32Array(nGroups);
  const groupOffsets = new Int32Array(terms + 1);
  let groups = new Int32Array(1024);
  let groupCounts = new Int32Array(1024);
  const df = new Int32Array(terms);
  const inside = new Int32Array(terms);
  const touched: number[] = [];
  let entries = 0;
  for (let t = 0; t < terms; t++) {
    const start = p.offsets[t];
    const end = p.offsets[t + 1];
    for (let i = start; i < end; i++) {
      if (p.own[i] === 0) continue;
      const g = groupOf[p.docs[i]];
      if (stamp[g] !== t) {
        stamp[g] = t;
        count[g] = 0;
        holders[g] = 0;
        touched.push(g);
      }
      count[g] += p.own[i];
      holders[g]++;
      lastHolder[g] = p.docs[i];
    }
    touched.sort((a, b) => a - b);
    let frequency = 0;
    for (const g of touched) {
      if (entries === groups.length) {
        groups = grow(groups, new Int32Array(entries * 2));
        groupCounts = grow(groupCounts, new Int32Array(entries * 2));
      }
      groups[entries] = g;
      groupCounts[entries++] = count[g];
      frequency += liveMembers[g] - (holders[g] === 1 && contextUnit[lastHolder[g]] > 0 ? 1 : 0);
    }
    touched.length = 0;
    groupOffsets[t + 1] = entries;
    for (let i = start; i < end; i++) {
      const d = p.docs[i];
      const g = groupOf[d];
      const hasContext = stamp[g] === t && contextUnit[d] > 0 && p.own[i] < count[g];
      if (!hasContext && p.direct[i] > 0) frequency++;
    }
    df[t] = frequency;
    inside[t] = reorder(p, start, end, (d) => (stamp[groupOf[d]] === t ? groupOf[d] : -1));
  }
  return { inside, groupOffsets, groups: groups.slice(0, entries), groupCounts: groupCounts.slice(0, entries), df };
}

/**
 * Reorders postings [start, end) (documents ascending): those with group −1 first, in order,
 * then the rest by (group, document). Returns where the rest begin.
 */
function reorder(p: DocPostings, start: number, end: number, groupOf: (doc: number) => number): number {
  const order: number[] = [];
  for (let i = start; i < end; i++) if (groupOf(p.docs[i]) < 0) order.push(i);
  const outside = order.length;
  if (outside === end - start) return end;
  const rest: number[] = [];
  for (let i = start; i < end; i++) if (groupOf(p.docs[i]) >= 0) rest.push(i);
  rest.sort((a, b) => groupOf(p.docs[a]) - groupOf(p.docs[b]) || p.docs[a] - p.docs[b]);
  order.push(...rest);
  const docs = order.map((i) => p.docs[i]);
  const direct = order.map((i) => p.direct[i]);
  const own = order.map((i) => p.own[i]);
  p.docs.set(docs, start);
  p.direct.set(direct, start);
  p.own.set(own, start);
  return start + outside;
}

function grow<T extends Int32Array | Uint8Array | Float64Array>(from: T, to: T): T {
  to.set(from);
  return to;
}
