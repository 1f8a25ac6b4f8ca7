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
  const seen = new Int32Array(terms).fill(-1);
  const offsets = new Int32Array(terms + 1);
  forEachDocument(docs, fieldUnit, share, lent, (doc, id) => {
    if (seen[id] !== doc) {
      seen[id] = doc;
      offsets[id + 1]++;
    }
  });
  for (let t = 0; t < terms; t++) offsets[t + 1] += offsets[t];
  const next = offsets.slice(0, terms);
  const total = offsets[terms];
  const postingDocs = new Int32Array(total);
  const direct = new Float64Array(total);
  const own = new Int32Array(total);
  const pseudo = new Float64Array(terms);
  const ownCount = new Int32Array(terms);
  const held: number[] = [];
  seen.fill(-1);
  forEachDocument(
    docs,
    fieldUnit,
    share,
    lent,
    (doc, id, amount) => {
      if (seen[id] !== doc) {
        seen[id] = doc;
        held.push(id);
      }
      if (amount === 0) ownCount[id]++;
      else pseudo[id] += amount;
    },
    (doc) => {
      for (const id of held) {
        const at = next[id]++;
        postingDocs[at] = doc;
        direct[at] = pseudo[id];
        own[at] = ownCount[id];
        pseudo[id] = 0;
        ownCount[id] = 0;
      }
      held.length = 0;
    },
  );
  const p = { offsets, docs: postingDocs, direct, own };
  return { ...p, ...groupPostings(p, docs.groups, contextUnit, liveMembers) };
}

/**
 * Calls `visit(doc, id, amount)` for every occurrence in a counted own field (amount > 0), then
 * `visit(doc, id, 0)` for every term the document lends, then `done(doc)`.
 */
function forEachDocument(
  docs: DocTokens,
  fieldUnit: Float64Array,
  share: boolean,
  lent: readonly number[],
  visit: (doc: number, id: number, amount: number) => void,
  done?: (doc: number) => void,
): void {
  const { ids, fieldStart, lends } = docs;
  for (let d = 0; d < docs.count; d++) {
    for (let f = 0; f < OWN_FIELD_COUNT; f++) {
      const unit = fieldUnit[d * OWN_FIELD_COUNT + f];
      if (unit === 0) continue;
      for (let i = fieldStart[d * OWN_FIELD_COUNT + f], end = fieldStart[d * OWN_FIELD_COUNT + f + 1]; i < end; i++) visit(d, ids[i], unit);
    }
    if (share && lends[d]) {
      for (const f of lent) for (let i = fieldStart[d * OWN_FIELD_COUNT + f], end = fieldStart[d * OWN_FIELD_COUNT + f + 1]; i < end; i++) visit(d, ids[i], 0);
    }
    done?.(d);
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
