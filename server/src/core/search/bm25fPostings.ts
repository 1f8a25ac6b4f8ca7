/**
 * Building Bm25fIndex's postings in O(total tokens). Two inverted lists:
 * - per (term, document): the document's own-field pseudo frequency (name, server,
 *   description, params, already weighted and length-normalised) and how many times the
 *   document lends the term to its group (its `shared` words);
 * - per (term, group): the group's total count of the term, so a document's context frequency
 *   is group count − own count, computed at query time. The context field is never copied per
 *   document: copying it would make a server of n tools cost n × its vocabulary.
 */
import { OWN_FIELD_COUNT, type DocTokens } from './docTokens';

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
  /**
   * Before inside[t]: the own-field pseudo frequency as a float32 (what a score reads of it),
   * 0 where it is cancellation residue (≤ PSEUDO_EPSILON). From inside[t] on: unused.
   */
  tf: Float32Array;
  /** Term t's postings from inside[t] on are insideDirect/insideOwn[insideStart[t] ..]. */
  insideStart: Int32Array;
  /** Own-field pseudo frequency, float64 so adding the context keeps the old sum's exact value. */
  insideDirect: Float64Array;
  /** How many of the term's occurrences in the group's shared words are this document's. */
  insideOwn: Int32Array;
  groupOffsets: Int32Array;
  groups: Int32Array;
  /** The group's total count of the term in its members' shared words. */
  groupCounts: Int32Array;
  /** Documents with any own-field frequency or any context frequency of the term. */
  df: Int32Array;
}

/** Pseudo frequencies at or below this are cancellation residue, not a posting (as when the context was materialized). */
export const PSEUDO_EPSILON = 1e-9;

/**
 * The postings of `docs` (bm25f.ts), in two passes over their term ids: the first counts each
 * term's documents, so the second writes every posting once, at its place (documents ascending
 * within a term), summing each document's pseudo frequencies in reading order — the same
 * float operations in the same order as ever, so scores do not move by a bit. (A row per
 * posting, counting-sorted afterwards, cost 20 bytes a posting on top of the result: most of
 * the build's peak memory at 100,000 tools.)
 *
 * `fieldUnit[d × 4 + f]` is what one occurrence in document d's own field f adds (0: the field
 * is skipped). With `share`, a document that `lends` lends the terms of its `lent` fields to its
 * group; `contextUnit` is each document's context-field multiplier (0 when it has no context)
 * and `liveMembers` counts each group's documents with a non-zero one.
 */
export function buildPostings(
  docs: DocTokens,
  fieldUnit: Float64Array,
  share: boolean,
  lent: readonly number[],
  contextUnit: Float64Array,
  liveMembers: Int32Array,
): Postings {
  const terms = docs.table.size;
  const { ids, fieldStart, lends } = docs;
  const F = OWN_FIELD_COUNT;
  const seen = new Int32Array(terms).fill(-1);
  const offsets = new Int32Array(terms + 1);
  // The two passes are written out, not one walk with a callback: a callback taking the unit
  // (a double) boxed it on every occurrence, tens of millions of them at 100,000 tools.
  for (let d = 0; d < docs.count; d++) {
    for (let f = 0; f < F; f++) {
      if (fieldUnit[d * F + f] === 0) continue;
      for (let i = fieldStart[d * F + f], end = fieldStart[d * F + f + 1]; i < end; i++) {
        const id = ids[i];
        if (seen[id] !== d) ((seen[id] = d), offsets[id + 1]++);
      }
    }
    if (!share || !lends[d]) continue;
    for (const f of lent) {
      for (let i = fieldStart[d * F + f], end = fieldStart[d * F + f + 1]; i < end; i++) {
        const id = ids[i];
        if (seen[id] !== d) ((seen[id] = d), offsets[id + 1]++);
      }
    }
  }
  for (let t = 0; t < terms; t++) offsets[t + 1] += offsets[t];
  const next = offsets.slice(0, terms);
  const total = offsets[terms];
  const postingDocs = new Int32Array(total);
  const direct = new Float64Array(total);
  const own = new Int32Array(total);
  const pseudo = new Float64Array(terms);
  const ownCount = new Int32Array(terms);
  const held = new Int32Array(terms);
  seen.fill(-1);
  for (let d = 0; d < docs.count; d++) {
    let n = 0;
    for (let f = 0; f < F; f++) {
      const unit = fieldUnit[d * F + f];
      if (unit === 0) continue;
      for (let i = fieldStart[d * F + f], end = fieldStart[d * F + f + 1]; i < end; i++) {
        const id = ids[i];
        if (seen[id] !== d) ((seen[id] = d), (held[n++] = id));
        pseudo[id] += unit;
      }
    }
    if (share && lends[d]) {
      for (const f of lent) {
        for (let i = fieldStart[d * F + f], end = fieldStart[d * F + f + 1]; i < end; i++) {
          const id = ids[i];
          if (seen[id] !== d) ((seen[id] = d), (held[n++] = id));
          ownCount[id]++;
        }
      }
    }
    for (let j = 0; j < n; j++) {
      const id = held[j];
      const at = next[id]++;
      postingDocs[at] = d;
      direct[at] = pseudo[id];
      own[at] = ownCount[id];
      pseudo[id] = 0;
      ownCount[id] = 0;
    }
  }
  const p = { offsets, docs: postingDocs, direct, own };
  const grouped = groupPostings(p, docs.groups, contextUnit, liveMembers);
  return { offsets, docs: postingDocs, ...compact(p, grouped.inside), ...grouped };
}

/**
 * Keeps only what a query reads: a float32 per posting outside context groups, the float64
 * sum and own count for those inside, which halves what an organisation's catalog holds.
 */
function compact(
  p: DocPostings,
  inside: Int32Array,
): Pick<Postings, 'tf' | 'insideStart' | 'insideDirect' | 'insideOwn'> {
  const terms = inside.length;
  const insideStart = new Int32Array(terms + 1);
  for (let t = 0; t < terms; t++) insideStart[t + 1] = insideStart[t] + (p.offsets[t + 1] - inside[t]);
  const tf = new Float32Array(p.docs.length);
  const insideDirect = new Float64Array(insideStart[terms]);
  const insideOwn = new Int32Array(insideStart[terms]);
  for (let t = 0; t < terms; t++) {
    for (let i = p.offsets[t]; i < inside[t]; i++) tf[i] = p.direct[i] <= PSEUDO_EPSILON ? 0 : p.direct[i];
    for (let i = inside[t], at = insideStart[t]; i < p.offsets[t + 1]; i++, at++) {
      insideDirect[at] = p.direct[i];
      insideOwn[at] = p.own[i];
    }
  }
  return { tf, insideStart, insideDirect, insideOwn };
}

/** The postings as first written: every posting's float64 sum and own count. */
interface DocPostings {
  offsets: Int32Array;
  docs: Int32Array;
  direct: Float64Array;
  own: Int32Array;
}

/**
 * Per term: the groups whose members share it, with their counts, and the term's document
 * frequency. A member has context frequency > 0 unless it has no context field or it holds every
 * one of the group's occurrences (then it is the group's only holder). One pass over each term's
 * postings, so O(postings) in all.
 */
function groupPostings(
  p: DocPostings,
  groupOf: Int32Array,
  contextUnit: Float64Array,
  liveMembers: Int32Array,
): Pick<Postings, 'inside' | 'groupOffsets' | 'groups' | 'groupCounts' | 'df'> {
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
  const scratch = reorderScratch(p);
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
    inside[t] = reorder(p, start, end, (d) => stamp[groupOf[d]] === t, groupOf, scratch);
  }
  return { inside, groupOffsets, groups: groups.slice(0, entries), groupCounts: groupCounts.slice(0, entries), df };
}

/** Buffers reorder() works in, as long as the longest term's postings. */
interface ReorderScratch {
  at: Int32Array;
  docs: Int32Array;
  direct: Float64Array;
  own: Int32Array;
}

function reorderScratch(p: DocPostings): ReorderScratch {
  let longest = 0;
  for (let t = 0; t + 1 < p.offsets.length; t++) longest = Math.max(longest, p.offsets[t + 1] - p.offsets[t]);
  return {
    at: new Int32Array(longest),
    docs: new Int32Array(longest),
    direct: new Float64Array(longest),
    own: new Int32Array(longest),
  };
}

/**
 * Reorders postings [start, end) (documents ascending): those whose group does not share the
 * term (`shared` false) first, in order, then the rest by (group, document). Returns where the
 * rest begin.
 */
function reorder(
  p: DocPostings,
  start: number,
  end: number,
  shared: (doc: number) => boolean,
  groupOf: Int32Array,
  scratch: ReorderScratch,
): number {
  const length = end - start;
  let outside = 0;
  for (let i = start; i < end; i++) if (!shared(p.docs[i])) outside++;
  if (outside === length) return end;
  const at = scratch.at;
  let before = 0;
  let after = outside;
  for (let i = start; i < end; i++) at[shared(p.docs[i]) ? after++ : before++] = i;
  at.subarray(outside, length).sort((a, b) => groupOf[p.docs[a]] - groupOf[p.docs[b]] || p.docs[a] - p.docs[b]);
  for (let k = 0; k < length; k++) {
    scratch.docs[k] = p.docs[at[k]];
    scratch.direct[k] = p.direct[at[k]];
    scratch.own[k] = p.own[at[k]];
  }
  p.docs.set(scratch.docs.subarray(0, length), start);
  p.direct.set(scratch.direct.subarray(0, length), start);
  p.own.set(scratch.own.subarray(0, length), start);
  return start + outside;
}

function grow<T extends Int32Array | Uint8Array | Float64Array>(from: T, to: T): T {
  to.set(from);
  return to;
}
