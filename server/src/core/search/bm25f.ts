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
import { buildPostings, PSEUDO_EPSILON, type Postings } from './bm25fPostings';
import { OWN_FIELD_COUNT, type DocTokens, type TermTable } from './docTokens';
import type { FieldName } from './toolFields';

export interface FieldParams {
  weight: number;
  b: number;
}

export type FieldConfig = Record<FieldName, FieldParams>;

/**
 * The fields a document holds itself (the context field is derived from its group), in the
 * order DocTokens stores them.
 */
export const OWN_FIELDS = ['name', 'server', 'description', 'params'] as const;
export type OwnFieldName = (typeof OWN_FIELDS)[number];

/** Where name and description sit among OWN_FIELDS: what a document lends its group as context. */
const LENT_FIELDS = [OWN_FIELDS.indexOf('name'), OWN_FIELDS.indexOf('description')] as const;

export class Bm25fIndex {
  private readonly p: Postings;
  private readonly idfs: Float64Array;
  private readonly table: TermTable;
  /** Group g's members are members[memberOffsets[g] .. memberOffsets[g + 1]), ascending. */
  private readonly memberOffsets: Int32Array;
  private readonly members: Int32Array;
  /** Each member's context multiplier w / (1 − b + b · len / avglen), aligned with `members` (0 = no context field). */
  private readonly memberUnit: Float64Array;
  private readonly scores: Float64Array;
  private readonly touchedMark: Uint8Array;
  private readonly touched: Int32Array;
  readonly size: number;

  /**
   * Documents (docTokens.ts) whose `lends` flag says whether their name and description terms
   * are their group's `shared` words (each document's context field is the shared terms of the
   * other documents of its group).
   */
  constructor(
    docs: DocTokens,
    fields: FieldConfig,
    readonly k1: number,
    built?: Postings,
  ) {
    const n = (this.size = docs.count);
    const groupOf = docs.groups;
    const groupCount = docs.groupCount;
    ({ offsets: this.memberOffsets, members: this.members } = membersByGroup(groupOf, groupCount));
    const context = fields.context.weight > 0;
    const contextUnit = context ? contextUnits(docs, fields.context) : new Float64Array(n);
    this.memberUnit = Float64Array.from(this.members, (d) => contextUnit[d]);
    const live = new Int32Array(groupCount);
    for (let d = 0; d < n; d++) if (contextUnit[d] > 0) live[groupOf[d]]++;
    // Postings kept from an earlier build over the same documents and fields (catalogTokensCodec.ts, checked there).
    this.p = built ?? buildPostings(docs, fieldUnits(docs, fields), context, LENT_FIELDS, contextUnit, live);
    this.table = docs.table;
    const terms = this.p.df.length;
    this.idfs = new Float64Array(terms);
    for (let t = 0; t < terms; t++) this.idfs[t] = Math.log(1 + (n - this.p.df[t] + 0.5) / (this.p.df[t] + 0.5));
    this.scores = new Float64Array(n);
    this.touchedMark = new Uint8Array(n);
    this.touched = new Int32Array(n);
  }

  /** The inverted lists as built (read-only), for keeping between runs. */
  get postings(): Postings {
    return this.p;
  }

  /** A term's id, when some document holds it (in a field that counts, or as context). */
  termId(term: string): number | undefined {
    const id = this.table.ids.get(term);
    return id !== undefined && this.p.offsets[id + 1] > this.p.offsets[id] ? id : undefined;
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
      // Rounded as the postings once stored it (float32), so scores match that exactly; 0 is residue.
      const tf = p.tf[cursor];
      if (tf === 0) continue;
      const d = p.docs[cursor];
      if (touchedMark[d] === 0) {
        touchedMark[d] = 1;
        touched[n++] = d;
        scores[d] = 0;
      }
      scores[d] += (w * tf) / (k1 + tf);
    }
    // Members of groups that share it: own fields + context from the group's count. The
    // remaining postings are in (group, document) order, as the members are walked.
    const base = p.insideStart[id] - p.inside[id];
    for (let e = p.groupOffsets[id], end = p.groupOffsets[id + 1]; e < end; e++) {
      const g = p.groups[e];
      const groupCount = p.groupCounts[e];
      for (let m = memberOffsets[g], mEnd = memberOffsets[g + 1]; m < mEnd; m++) {
        const d = members[m];
        let pseudo = 0;
        let own = 0;
        if (cursor < last && p.docs[cursor] === d) {
          pseudo = p.insideDirect[base + cursor];
          own = p.insideOwn[base + cursor++];
        }
        const unit = memberUnit[m];
        if (unit > 0) {
          // Added whole, then the document's own occurrences taken off one by one: the same
          // float operations, in the same order, as when the context was materialized per
          // document, so scores are bit-identical to that definition.
          pseudo += unit * groupCount;
          for (; own > 0; own--) pseudo -= unit;
        }
        if (pseudo <= PSEUDO_EPSILON) continue;
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

function membersByGroup(groupOf: Int32Array, groupCount: number): { offsets: Int32Array; members: Int32Array } {
  const offsets = new Int32Array(groupCount + 1);
  for (const g of groupOf) offsets[g + 1]++;
  for (let g = 0; g < groupCount; g++) offsets[g + 1] += offsets[g];
  const next = offsets.slice(0, groupCount);
  const members = new Int32Array(groupOf.length);
  for (let d = 0; d < groupOf.length; d++) members[next[groupOf[d]]++] = d;
  return { offsets, members };
}

function fieldLength(docs: DocTokens, doc: number, field: number): number {
  const at = doc * OWN_FIELD_COUNT + field;
  return docs.fieldStart[at + 1] - docs.fieldStart[at];
}

/** What a document lends its group: its name and description terms, or nothing. */
function sharedLength(docs: DocTokens, doc: number): number {
  return docs.lends[doc] ? fieldLength(docs, doc, LENT_FIELDS[0]) + fieldLength(docs, doc, LENT_FIELDS[1]) : 0;
}

/** Each document's context-field length is its group's shared length minus its own. */
function contextUnits(docs: DocTokens, params: FieldParams): Float64Array {
  const groupOf = docs.groups;
  const groupLength = new Float64Array(docs.groupCount);
  for (let i = 0; i < docs.count; i++) groupLength[groupOf[i]] += sharedLength(docs, i);
  const lengths = Float64Array.from({ length: docs.count }, (_, i) => groupLength[groupOf[i]] - sharedLength(docs, i));
  const avg = lengths.reduce((a, b) => a + b, 0) / (docs.count || 1);
  return lengths.map((len) => (len === 0 ? 0 : params.weight / (1 - params.b + (params.b * len) / (avg || 1))));
}

/**
 * What one occurrence in each document's own field adds to its pseudo frequency,
 * w / (1 − b + b · len / avglen), at [doc × 4 + field]; 0 where the field is empty or weighs nothing.
 */
function fieldUnits(docs: DocTokens, fields: FieldConfig): Float64Array {
  const sum = [0, 0, 0, 0];
  for (let d = 0; d < docs.count; d++) for (let f = 0; f < OWN_FIELD_COUNT; f++) sum[f] += fieldLength(docs, d, f);
  const avg = sum.map((s) => s / (docs.count || 1));
  const units = new Float64Array(docs.count * OWN_FIELD_COUNT);
  for (let d = 0; d < docs.count; d++) {
    for (let f = 0; f < OWN_FIELD_COUNT; f++) {
      const length = fieldLength(docs, d, f);
      const { weight, b } = fields[OWN_FIELDS[f]];
      if (length > 0 && weight !== 0) units[d * OWN_FIELD_COUNT + f] = weight / (1 - b + (b * length) / (avg[f] || 1));
    }
  }
  return units;
}
