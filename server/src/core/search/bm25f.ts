/**
 * BM25F over an inverted index. Each tool is five fields (name, server, description, params,
 * sibling-tools context)
 * with their own weight and length normalisation; a term's per-document pseudo frequency
 * tf~ = Σ_f w_f · tf_f / (1 − b_f + b_f · len_f / avglen_f) is precomputed at build time, so a
 * query only walks the postings of its own terms: score = Σ_t q_t · idf_t · tf~ (k1 + 1) / (k1 + tf~),
 * idf_t = ln(1 + (N − df + 0.5) / (df + 0.5)). Postings are typed arrays; scores accumulate
 * into one reusable Float64Array, so a query costs its postings, never a scan of every tool.
 */
import { FIELD_NAMES, type FieldName } from './toolFields';

export interface FieldParams {
  weight: number;
  b: number;
}

export type FieldConfig = Record<FieldName, FieldParams>;

/**
 * A field given as term counts shared by many documents (a server's words) minus this
 * document's own words: the context field without copying the shared counts per tool.
 */
export interface TermBag {
  counts: ReadonlyMap<string, number>;
  minus: readonly string[];
  /** Length after the subtraction. */
  length: number;
}

/** One document's terms per field: in order, or as counts. */
export type FieldTerms = Record<FieldName, readonly string[] | TermBag>;

function fieldLength(v: readonly string[] | TermBag): number {
  return Array.isArray(v) ? v.length : (v as TermBag).length;
}

export class Bm25fIndex {
  /** Postings in one flat (CSR) layout: term t's documents are docs[offsets[t] .. offsets[t + 1]). */
  private readonly offsets: Int32Array;
  private readonly docs: Int32Array;
  private readonly tf: Float32Array;
  private readonly idfs: Float64Array;
  private readonly termIds = new Map<string, number>();
  private scores = new Float64Array(0);
  private touchedMark = new Uint8Array(0);
  private touched = new Int32Array(0);
  readonly size: number;

  constructor(docs: readonly FieldTerms[], fields: FieldConfig, readonly k1: number) {
    this.size = docs.length;
    const avg = averageLengths(docs);
    const builder = new PostingsBuilder(this.termIds);
    for (let d = 0; d < docs.length; d++) {
      for (const f of FIELD_NAMES) {
        const terms = docs[d][f];
        const length = fieldLength(terms);
        if (length === 0 || fields[f].weight === 0) continue;
        const unit = fields[f].weight / (1 - fields[f].b + (fields[f].b * length) / (avg[f] || 1));
        if (Array.isArray(terms)) for (const t of terms as readonly string[]) builder.add(t, unit);
        else builder.addBag(terms as TermBag, unit);
      }
      builder.endDocument(d);
    }
    ({ offsets: this.offsets, docs: this.docs, tf: this.tf } = builder.finish());
    const terms = this.offsets.length - 1;
    this.idfs = new Float64Array(terms);
    for (let t = 0; t < terms; t++) {
      const df = this.offsets[t + 1] - this.offsets[t];
      this.idfs[t] = Math.log(1 + (docs.length - df + 0.5) / (df + 0.5));
    }
    this.scores = new Float64Array(docs.length);
    this.touchedMark = new Uint8Array(docs.length);
    this.touched = new Int32Array(docs.length);
  }

  termId(term: string): number | undefined {
    return this.termIds.get(term);
  }

  idf(termId: number): number {
    return this.idfs[termId];
  }

  docFrequency(termId: number): number {
    return this.offsets[termId + 1] - this.offsets[termId];
  }

  /**
   * Scores the documents holding any of the weighted terms. Returns the touched document ids
   * and a view of their scores (valid until the next call).
   */
  score(terms: readonly { id: number; weight: number }[]): { docs: Int32Array; scores: Float64Array } {
    const { scores, touchedMark, touched, k1 } = this;
    let n = 0;
    for (const { id, weight } of terms) {
      const w = weight * this.idfs[id] * (k1 + 1);
      for (let i = this.offsets[id], end = this.offsets[id + 1]; i < end; i++) {
        const d = this.docs[i];
        const tf = this.tf[i];
        if (touchedMark[d] === 0) {
          touchedMark[d] = 1;
          touched[n++] = d;
          scores[d] = 0;
        }
        scores[d] += (w * tf) / (k1 + tf);
      }
    }
    const docs = touched.slice(0, n);
    for (let i = 0; i < n; i++) touchedMark[docs[i]] = 0;
    return { docs, scores };
  }
}

/**
 * Accumulates one document's pseudo frequencies in a flat array indexed by term id, then
 * appends (term, document, tf) triples to growable typed arrays; `finish` counting-sorts them
 * by term into the CSR layout. (A Map per document, then a JS array pair per term, were most
 * of the build time — allocation and GC — at 10k tools.)
 */
class PostingsBuilder {
  private pseudo = new Float64Array(1024);
  private df = new Int32Array(1024);
  private terms = 0;
  private readonly seen: number[] = [];
  private tripleTerm = new Int32Array(16384);
  private tripleDoc = new Int32Array(16384);
  private tripleTf = new Float32Array(16384);
  private triples = 0;
  /** Shared bags resolved to term ids once, not once per document that shares them. */
  private readonly bagIds = new Map<ReadonlyMap<string, number>, { ids: Int32Array; counts: Float64Array }>();

  constructor(private readonly termIds: Map<string, number>) {}

  add(term: string, amount: number): void {
    this.addId(this.idOf(term), amount);
  }

  addBag(bag: TermBag, unit: number): void {
    let resolved = this.bagIds.get(bag.counts);
    if (!resolved) {
      resolved = { ids: Int32Array.from(bag.counts.keys(), (t) => this.idOf(t)), counts: Float64Array.from(bag.counts.values()) };
      this.bagIds.set(bag.counts, resolved);
    }
    for (let i = 0; i < resolved.ids.length; i++) this.addId(resolved.ids[i], unit * resolved.counts[i]);
    for (const t of bag.minus) this.add(t, -unit);
  }

  endDocument(doc: number): void {
    for (const id of this.seen) {
      // A context term that was only this document's own cancels out to ~0: not a posting.
      if (this.pseudo[id] > 1e-9) {
        if (this.triples === this.tripleTerm.length) this.growTriples();
        this.tripleTerm[this.triples] = id;
        this.tripleDoc[this.triples] = doc;
        this.tripleTf[this.triples] = this.pseudo[id];
        this.triples++;
        this.df[id]++;
      }
      this.pseudo[id] = 0;
    }
    this.seen.length = 0;
  }

  /** The postings grouped by term, documents ascending within a term (they were added in order). */
  finish(): { offsets: Int32Array; docs: Int32Array; tf: Float32Array } {
    const offsets = new Int32Array(this.terms + 1);
    for (let t = 0; t < this.terms; t++) offsets[t + 1] = offsets[t] + this.df[t];
    const next = offsets.slice(0, this.terms);
    const docs = new Int32Array(this.triples);
    const tf = new Float32Array(this.triples);
    for (let i = 0; i < this.triples; i++) {
      const at = next[this.tripleTerm[i]]++;
      docs[at] = this.tripleDoc[i];
      tf[at] = this.tripleTf[i];
    }
    return { offsets, docs, tf };
  }

  private addId(id: number, amount: number): void {
    if (this.pseudo[id] === 0) this.seen.push(id);
    this.pseudo[id] += amount;
  }

  private idOf(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.terms++;
      this.termIds.set(term, id);
      if (id >= this.pseudo.length) {
        this.pseudo = grow(this.pseudo, new Float64Array(this.pseudo.length * 2));
        this.df = grow(this.df, new Int32Array(this.df.length * 2));
      }
    }
    return id;
  }

  private growTriples(): void {
    const n = this.tripleTerm.length * 2;
    this.tripleTerm = grow(this.tripleTerm, new Int32Array(n));
    this.tripleDoc = grow(this.tripleDoc, new Int32Array(n));
    this.tripleTf = grow(this.tripleTf, new Float32Array(n));
  }
}

function grow<T extends Int32Array | Float32Array | Float64Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

function averageLengths(docs: readonly FieldTerms[]): Record<FieldName, number> {
  const sum = { name: 0, server: 0, description: 0, params: 0, context: 0 };
  for (const d of docs) for (const f of FIELD_NAMES) sum[f] += fieldLength(d[f]);
  for (const f of FIELD_NAMES) sum[f] /= docs.length || 1;
  return sum;
}
