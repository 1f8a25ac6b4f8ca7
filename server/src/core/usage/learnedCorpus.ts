/**
 * One side (for or against) of the learned documents (learnedDocuments.ts) as one reader sees
 * them: per tool, the words that count for that reader with their weights, and per word the tools
 * holding it; scored with BM25 against a request. A session reads the documents every session
 * may read (the base) with its own tools' documents laid over them (the overlay): a tool's
 * overlay document holds everything its base document holds and the session's own words besides,
 * so the overlay replaces the base document wherever it has one. Pure.
 */

/** One tool's learned document on one side. */
export interface LearnedDoc {
  /** Word → summed weight of the examples counted with it. */
  readonly tf: ReadonlyMap<string, number>;
  readonly length: number;
  /** Summed weight of the examples counted (the evidence behind the document). */
  readonly weight: number;
  /** How many examples (past requests) are counted. */
  readonly requests: number;
  /** Each counted example's counted words and weight: what bounds its lift (learnedLimits.ts). */
  readonly examples: readonly { readonly terms: readonly string[]; readonly weight: number }[];
  /** Word → the indexes in `examples` of the examples counted with it. */
  readonly byTerm: ReadonlyMap<string, readonly number[]>;
}

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

const NONE: ReadonlySet<string> = new Set();
const K1 = 1.2;
const B = 0.75;
/** A length this close to zero is float residue of adding and taking back a weight. */
const RESIDUE = 1e-9;

export class LearnedCorpus {
  private readonly docs = new Map<string, LearnedDoc>();
  private readonly holders = new Map<string, Set<string>>();
  private totalLength = 0;

  get size(): number {
    return this.docs.size;
  }

  doc(key: string): LearnedDoc | undefined {
    return this.docs.get(key);
  }

  keys(): IterableIterator<string> {
    return this.docs.keys();
  }

  /** Replaces a tool's document (undefined: it has none). */
  set(key: string, doc: LearnedDoc | undefined): void {
    const old = this.docs.get(key);
    if (old) {
      for (const t of old.tf.keys()) this.release(t, key);
      this.totalLength -= old.length;
      this.docs.delete(key);
    }
    if (!doc || doc.requests === 0) return;
    this.docs.set(key, doc);
    for (const t of doc.tf.keys()) this.hold(t, key);
    this.totalLength += doc.length;
  }

  clear(): void {
    this.docs.clear();
    this.holders.clear();
    this.totalLength = 0;
  }

  /** This corpus with `overlay`'s documents in place of its own: what one reader sees. */
  read(overlay?: LearnedCorpus): CorpusReading {
    return new CorpusReading(this, overlay);
  }

  /** The tools holding `term` (for CorpusReading). */
  holding(term: string): ReadonlySet<string> | undefined {
    return this.holders.get(term);
  }

  get length(): number {
    return this.totalLength;
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

/** A base corpus and a reader's overlay, read as one. */
export class CorpusReading {
  private readonly n: number;
  private readonly avg: number;

  constructor(
    private readonly base: LearnedCorpus,
    private readonly overlay: LearnedCorpus | undefined,
  ) {
    let n = base.size;
    let total = base.length;
    for (const key of overlay?.keys() ?? []) {
      const under = base.doc(key);
      if (under) total -= under.length;
      else n++;
      total += overlay!.doc(key)!.length;
    }
    this.n = n;
    this.avg = Math.max(RESIDUE, n > 0 ? total / n : 0);
  }

  get size(): number {
    return this.n;
  }

  doc(key: string): LearnedDoc | undefined {
    return this.overlay?.doc(key) ?? this.base.doc(key);
  }

  /** The tools holding `term` as this reader sees them. */
  holders(term: string): ReadonlySet<string> {
    const base = this.base.holding(term);
    const over = this.overlay?.holding(term);
    if (!over || !base) return over ?? base ?? NONE;
    const out = new Set(over);
    for (const key of base) out.add(key);
    return out;
  }

  /** Each tool's BM25 score for the query over the most the query could score: 0..1. */
  match(query: readonly string[]): Map<string, number> {
    const out = new Map<string, number>();
    if (this.n === 0) return out;
    let most = 0;
    for (const t of query) {
      const holders = this.holders(t);
      const df = holders.size;
      const idf = Math.log(1 + (this.n - df + 0.5) / (df + 0.5));
      most += idf * (K1 + 1);
      for (const key of holders) {
        const doc = this.doc(key)!;
        const tf = doc.tf.get(t)!;
        out.set(key, (out.get(key) ?? 0) + (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * doc.length) / this.avg)));
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
    if (this.n === 0) return out;
    const docs = Math.max(this.n, params.documents);
    for (const t of query) {
      const holders = this.holders(t);
      if (holders.size === 0) continue;
      // A document holds a word in any of its fields: the catalog's or the learned one. The
      // larger count stands in for the union (which would need each tool's own fields here).
      const df = Math.min(docs, Math.max(holders.size, params.catalogFrequency(t)));
      const idf = Math.log(1 + (docs - df + 0.5) / (df + 0.5));
      for (const key of holders) {
        const doc = this.doc(key)!;
        const tf = (params.weight * doc.tf.get(t)!) / (1 - params.b + (params.b * doc.length) / this.avg);
        out.set(key, (out.get(key) ?? 0) + (idf * tf * (params.k1 + 1)) / (tf + params.k1));
      }
    }
    return out;
  }
}
