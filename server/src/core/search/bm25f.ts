/**
 * BM25F over an inverted index. Each tool is five fields (name, server, description, params,
 * sibling-tools context) with their own weight and length normalisation; a term's per-document
 * pseudo frequency tf~ = Σ_f w_f · tf_f / (1 − b_f + b_f · len_f / avglen_f), and
 * score = Σ_t q_t · idf_t · tf~ (k1 + 1) / (k1 + tf~), idf_t = ln(1 + (N − df + 0.5) / (df + 0.5)).
 *
 * The four own fields are summed at build time into one posting per (term, document). The
 * context field — the `shared` words of the document's group (its server's tools) minus its
 * own — is kept once per (term, group): tf_context = group count − own count, length = group
 * length − own length, added at query time (bm25fPostings.ts says why). So memory and build
 * are O(total tokens) however many tools a server has; a query walks its terms' postings and
 * the members of the groups that hold them, never a scan of every tool.
 */
import { PostingsBuilder, type Postings } from './bm25fPostings';
import type { FieldName } from './toolFields';

export interface FieldParams {
  weight: number;
  b: number;
}

export type FieldConfig = Record<FieldName, FieldParams>;

/** The fields a document holds itself (the context field is derived from its group). */
export const OWN_FIELDS = ['name', 'server', 'description', 'params'] as const;
export type OwnFieldName = (typeof OWN_FIELDS)[number];

/**
 * One document: its own fields' terms in order, and its place in a group. Each document's
 * context field is the `shared` terms of the other documents of its group.
 */
export type FieldTerms = Record<OwnFieldName, readonly string[]> & {
  group: string;
  /** The terms this document lends its group's other members as context. */
  shared: readonly string[];
};

/** Pseudo frequencies at or below this are cancellation residue, not a posting (as when the context was materialized). */
const EPSILON = 1e-9;

export class Bm25fIndex {
  private readonly p: Postings;
  private readonly idfs: Float64Array;
  private readonly termIds = new Map<string, number>();
  /** Group g's members are members[memberOffsets[g] .. memberOffsets[g + 1]), ascending. */
  private readonly memberOffsets: Int32Array;
  private readonly members: Int32Array;
  /** Each member's context multiplier w / (1 − b + b · len / avglen), aligned with `members` (0 = no context field). */
  private readonly memberUnit: Float64Array;
  private readonly scores: Float64Array;
  private readonly touchedMark: Uint8Array;
  private readonly touched: Int32Array;
  readonly size: number;

  constructor(
    docs: readonly FieldTerms[],
    fields: FieldConfig,
    readonly k1: number,
  ) {
    const n = (this.size = docs.length);
    const groupOf = groupIds(docs);
    const groupCount = groupOf.reduce((max, g) => Math.max(max, g + 1), 0);
    ({ offsets: this.memberOffsets, members: this.members } = membersByGroup(groupOf, groupCount));
    const context = fields.context.weight > 0;
    const contextUnit = context ? contextUnits(docs, groupOf, groupCount, fields.context) : new Float64Array(n);
    this.memberUnit = Float64Array.from(this.members, (d) => contextUnit[d]);
    const live = new Int32Array(groupCount);
    for (let d = 0; d < n; d++) if (contextUnit[d] > 0) live[groupOf[d]]++;
    const avg = averageLengths(docs);
    const builder = new PostingsBuilder(this.termIds);
    for (let d = 0; d < n; d++) {
      for (const f of OWN_FIELDS) {
        const terms = docs[d][f];
        if (terms.length === 0 || fields[f].weight === 0) continue;
        const unit = fields[f].weight / (1 - fields[f].b + (fields[f].b * terms.length) / (avg[f] || 1));
        for (const t of terms) builder.add(t, unit);
      }
      if (context) for (const t of docs[d].shared) builder.share(t);
      builder.endDocument(d);
    }
    this.p = builder.finish(groupOf, contextUnit, live);
    const terms = this.p.df.length;
    this.idfs = new Float64Array(terms);
    for (let t = 0; t < terms; t++) this.idfs[t] = Math.log(1 + (n - this.p.df[t] + 0.5) / (this.p.df[t] + 0.5));
    this.scores = new Float64Array(n);
    this.touchedMark = new Uint8Array(n);
    this.touched = new Int32Array(n);
  }

  termId(term: string): number | undefined {
    return this.termIds.get(term);
  }

  idf(termId: number): number {
    return this.idfs[termId];
  }

  docFrequency(termId: number): number {
    return this.p.df[termId];
  }

  /**
   * Scores the documents holding any of the weighted terms. Returns the touched document ids
   * (in no particular order) and a view of their scores (valid until the next call).
   */
  score(terms: readonly { id: number; weight: number }[]): { docs: Int32Array; scores: Float64Array } {
    let n = 0;
    for (const { id, weight } of terms) n = this.scoreTerm(id, weight * this.idfs[id] * (this.k1 + 1), n);
    const docs = this.touched.slice(0, n);
    for (let i = 0; i < n; i++) this.touchedMark[docs[i]] = 0;
    return { docs, scores: this.scores };
  }

  /** Adds one term's contribution; returns the new count of touched documents. */
  private scoreTerm(id: number, w: number, n: number): number {
    const { p, memberUnit, members, memberOffsets, scores, touched, touchedMark, k1 } = this;
    const last = p.offsets[id + 1];
    let cursor = p.offsets[id];
    // Documents whose group does not share the term: their own fields only.
    for (const inside = p.inside[id]; cursor < inside; cursor++) {
      if (p.direct[cursor] <= EPSILON) continue;
      const d = p.docs[cursor];
      // Rounded as the postings once stored it (float32), so scores match that exactly.
      const tf = Math.fround(p.direct[cursor]);
      if (touchedMark[d] === 0) {
        touchedMark[d] = 1;
        touched[n++] = d;
        scores[d] = 0;
      }
      scores[d] += (w * tf) / (k1 + tf);
    }
    // Members of groups that share it: own fields + context from the group's count. The
    // remaining postings are in (group, document) order, as the members are walked.
    for (let e = p.groupOffsets[id], end = p.groupOffsets[id + 1]; e < end; e++) {
      const g = p.groups[e];
      const groupCount = p.groupCounts[e];
      for (let m = memberOffsets[g], mEnd = memberOffsets[g + 1]; m < mEnd; m++) {
        const d = members[m];
        let pseudo = 0;
        let own = 0;
        if (cursor < last && p.docs[cursor] === d) {
          pseudo = p.direct[cursor];
          own = p.own[cursor++];
        }
        const unit = memberUnit[m];
        if (unit > 0) {
          // Added whole, then the document's own occurrences taken off one by one: the same
          // float operations, in the same order, as when the context was materialized per
          // document, so scores are bit-identical to that definition.
          pseudo += unit * groupCount;
          for (; own > 0; own--) pseudo -= unit;
        }
        if (pseudo <= EPSILON) continue;
        const tf = Math.fround(pseudo);
        if (touchedMark[d] === 0) {
          touchedMark[d] = 1;
          touched[n++] = d;
          scores[d] = 0;
        }
        scores[d] += (w * tf) / (k1 + tf);
      }
    }
    return n;
  }
}

/** Dense group ids in order of first appearance. */
function groupIds(docs: readonly FieldTerms[]): Int32Array {
  const ids = new Map<string, number>();
  return Int32Array.from(docs, (d) => {
    let g = ids.get(d.group);
    if (g === undefined) ids.set(d.group, (g = ids.size));
    return g;
  });
}

function membersByGroup(groupOf: Int32Array, groupCount: number): { offsets: Int32Array; members: Int32Array } {
  const offsets = new Int32Array(groupCount + 1);
  for (const g of groupOf) offsets[g + 1]++;
  for (let g = 0; g < groupCount; g++) offsets[g + 1] += offsets[g];
  const next = offsets.slice(0, groupCount);
  const members = new Int32Array(groupOf.length);
  for (let d = 0; d < groupOf.length; d++) members[next[groupOf[d]]++] = d;
  return { offsets, members };
}

/** Each document's context-field length is its group's shared length minus its own. */
function contextUnits(docs: readonly FieldTerms[], groupOf: Int32Array, groupCount: number, params: FieldParams): Float64Array {
  const groupLength = new Float64Array(groupCount);
  docs.forEach((d, i) => (groupLength[groupOf[i]] += d.shared.length));
  const lengths = Float64Array.from(docs, (d, i) => groupLength[groupOf[i]] - d.shared.length);
  const avg = lengths.reduce((a, b) => a + b, 0) / (docs.length || 1);
  return lengths.map((len) => (len === 0 ? 0 : params.weight / (1 - params.b + (params.b * len) / (avg || 1))));
}

function averageLengths(docs: readonly FieldTerms[]): Record<OwnFieldName, number> {
  const sum = { name: 0, server: 0, description: 0, params: 0 };
  for (const d of docs) for (const f of OWN_FIELDS) sum[f] += d[f].length;
  for (const f of OWN_FIELDS) sum[f] /= docs.length || 1;
  return sum;
}
