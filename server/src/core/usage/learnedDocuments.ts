/**
 * What was learned, as the ranking reads it: a learned document per tool — the words of the
 * past requests that led to it, each counted by its example's weight — scored against a
 * request with BM25 (k1 1.2, b 0.75) over those documents. A tool's vote is its score over the
 * most a request of these words could score (so 0..1, whatever the request's length), times
 * the evidence behind it: weight / (weight + `evidence`), so one request leading to a tool
 * counts for less than twenty. Words known *not* to lead to a tool (learnedExamples.ts:
 * negative weights) make a second document of the tool, scored the same way and subtracted.
 *
 * The same documents are also read as a learned field of each tool (`fieldScores`: BM25 on the
 * keyword ranking's scale, not normalised); learnedRanking.ts uses both and says why.
 *
 * Kept up to date example by example (LearnedExamples calls add and remove), so a search
 * between two lessons costs the request's words' postings, never a rebuild. Pure.
 *
 * Measured against a nearest-past-request vote (the 10 past requests most similar by idf
 * cosine vote for their tools): the learned documents generalise better — a request shares one
 * word with one past request and another with a second, both of the same tool — (metatool, half
 * the history, 10% wrong calls, seed 1, both at weight 6: dev R@1 0.675 against 0.601, MRR@10
 * 0.771 against 0.691) and did no worse on the other sets; the two summed were no better than
 * the documents alone (0.668 / 0.761).
 */
import type { LearnedExample } from './learnedExamples';

/** How the learned field is scored (learnedField.ts, learnedRanking.ts). */
export interface FieldParams {
  /** The field's weight: what one example's occurrence of a word adds to its term frequency. */
  weight: number;
  b: number;
  k1: number;
  /** How many tools the catalog holds: the idf's document count. */
  documents: number;
  /** How many catalog tools hold a term in their own fields (0 for none). */
  catalogFrequency: (term: string) => number;
}

const K1 = 1.2;
const B = 0.75;
/** A term frequency this close to zero is float residue of adding and taking back a weight. */
const RESIDUE = 1e-9;

/** One side (for or against) of a tool's learned document. */
interface Side {
  tf: Map<string, number>;
  length: number;
  weight: number;
  requests: number;
}

/** One tool's vote. */
export interface ToolVote {
  /** −1..1: the learned document's match for the request, less the "against" one's, each × its evidence. */
  vote: number;
  /** How many past requests led to it. */
  requests: number;
}

export class LearnedDocuments {
  private readonly sides = { for: new Corpus(), against: new Corpus() };

  /** Adds an example's words to its tool's document (the side its weight's sign says). */
  add(e: LearnedExample): void {
    this.side(e).change(e, 1);
  }

  /** Takes an example's words back out. */
  remove(e: LearnedExample): void {
    this.side(e).change(e, -1);
  }

  clear(): void {
    this.sides.for.clear();
    this.sides.against.clear();
  }

  /** Each tool's vote for a request of these terms (only tools whose documents hold one of them). */
  votes(terms: readonly string[], evidence: number): Map<string, ToolVote> {
    const query = [...new Set(terms)];
    const out = new Map<string, ToolVote>();
    for (const [key, match] of this.sides.for.match(query)) {
      const side = this.sides.for.side(key)!;
      out.set(key, { vote: (match * side.weight) / (side.weight + evidence), requests: side.requests });
    }
    for (const [key, match] of this.sides.against.match(query)) {
      const side = this.sides.against.side(key)!;
      const v = out.get(key) ?? { vote: 0, requests: 0 };
      v.vote -= (match * side.weight) / (side.weight + evidence);
      out.set(key, v);
    }
    return out;
  }

  /**
   * Each tool's learned field score for a request of these terms (learnedField.ts): BM25 of
   * the "for" document less that of the "against" one, on the keyword ranking's scale.
   */
  fieldScores(terms: readonly string[], params: FieldParams): Map<string, number> {
    const query = [...new Set(terms)];
    const out = this.sides.for.field(query, params);
    for (const [key, s] of this.sides.against.field(query, params)) out.set(key, (out.get(key) ?? 0) - s);
    return out;
  }

  private side(e: LearnedExample): Corpus {
    return e.weight > 0 ? this.sides.for : this.sides.against;
  }
}

/** The documents of one side: per tool its term frequencies, and per term the tools holding it. */
class Corpus {
  private readonly docs = new Map<string, Side>();
  private readonly holders = new Map<string, Set<string>>();
  private totalLength = 0;

  side(key: string): Side | undefined {
    return this.docs.get(key);
  }

  /** Adds (sign 1) or takes out (sign −1) one example. */
  change(e: LearnedExample, sign: 1 | -1): void {
    const w = Math.abs(e.weight) * sign;
    let doc = this.docs.get(e.key);
    if (!doc) this.docs.set(e.key, (doc = { tf: new Map(), length: 0, weight: 0, requests: 0 }));
    doc.weight += w;
    doc.requests += sign;
    for (const t of e.terms) {
      const tf = (doc.tf.get(t) ?? 0) + w;
      if (tf > RESIDUE) {
        if (!doc.tf.has(t)) this.hold(t, e.key);
        doc.tf.set(t, tf);
      } else if (doc.tf.delete(t)) this.release(t, e.key);
      doc.length += w;
      this.totalLength += w;
    }
    if (doc.requests <= 0) {
      for (const t of doc.tf.keys()) this.release(t, e.key);
      this.totalLength -= doc.length;
      this.docs.delete(e.key);
    }
  }

  clear(): void {
    this.docs.clear();
    this.holders.clear();
    this.totalLength = 0;
  }

  /** Each tool's BM25 score for the query over the most the query could score: 0..1. */
  match(query: readonly string[]): Map<string, number> {
    const out = new Map<string, number>();
    const n = this.docs.size;
    if (n === 0) return out;
    const avg = Math.max(RESIDUE, this.totalLength / n);
    let most = 0;
    for (const t of query) {
      const holders = this.holders.get(t);
      const df = holders?.size ?? 0;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      most += idf * (K1 + 1);
      for (const key of holders ?? []) {
        const doc = this.docs.get(key)!;
        const tf = doc.tf.get(t)!;
        out.set(key, (out.get(key) ?? 0) + (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * doc.length) / avg)));
      }
    }
    if (most > 0) for (const [key, s] of out) out.set(key, s / most);
    return out;
  }

  /**
   * Each tool's BM25 score for the query as a field of its document: its term frequencies × the
   * field's weight, length-normalised with `b`, saturated with `k1`, the idf the whole
   * document's (over the catalog's `documents`, counting the tools whose own fields hold the
   * word), not normalised.
   */
  field(query: readonly string[], params: FieldParams): Map<string, number> {
    const out = new Map<string, number>();
    const n = this.docs.size;
    if (n === 0) return out;
    const avg = Math.max(RESIDUE, this.totalLength / n);
    const docs = Math.max(n, params.documents);
    for (const t of query) {
      const holders = this.holders.get(t);
      if (!holders) continue;
      // A document holds a word in any of its fields: the catalog's or the learned one. The
      // larger count stands in for the union (which would need each tool's own fields here).
      const df = Math.min(docs, Math.max(holders.size, params.catalogFrequency(t)));
      const idf = Math.log(1 + (docs - df + 0.5) / (df + 0.5));
      for (const key of holders) {
        const doc = this.docs.get(key)!;
        const tf = (params.weight * doc.tf.get(t)!) / (1 - params.b + (params.b * doc.length) / avg);
        out.set(key, (out.get(key) ?? 0) + (idf * tf * (params.k1 + 1)) / (tf + params.k1));
      }
    }
    return out;
  }

  private hold(term: string, key: string): void {
    let set = this.holders.get(term);
    if (!set) this.holders.set(term, (set = new Set()));
    set.add(key);
  }

  private release(term: string, key: string): void {
    const set = this.holders.get(term);
    if (!set) return;
    set.delete(key);
    if (set.size === 0) this.holders.delete(term);
  }
}
