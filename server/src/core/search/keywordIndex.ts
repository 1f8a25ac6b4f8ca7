/**
 * The keyword search MCP Lens always has, Ollama or not: BM25F over tool fields (bm25f.ts)
 * with identifier splitting and Porter2 stemming (tokenize.ts), a small synonym table
 * (synonyms.ts) and a name-coverage boost. Every step was kept only if it measured better on
 * shared/bench; the ablation (mcp-lens bench, keyword mode, recall@5 / MRR@10) is in
 * ./keywordConfig.ts beside the chosen parameters.
 */
import type { CatalogTool } from '../catalog';
import { Bm25fIndex, type FieldTerms, type TermBag } from './bm25f';
import { DEFAULT_KEYWORD_CONFIG, type KeywordConfig, type Stemmer } from './keywordConfig';
import { synonymTable } from './synonyms';
import { lightStem, splitWords, STOP_WORDS, stemWord } from './tokenize';
import { FIELD_NAMES, toolFields, type FieldName } from './toolFields';
import type { RankedList, RankedTool, SearchOptions, ToolSearcher } from './types';

interface QueryTerm {
  id: number;
  weight: number;
  /** The word the user typed, for `why`; undefined for synonym and bigram expansions. */
  surface?: string;
  term: string;
}

interface DocInfo {
  key: string;
  server: string;
  /** Unique unigram terms of the tool's name. */
  nameTerms: string[];
  terms: Set<string>;
}

/** Module-level so the synonym table (cached per stemmer function) is built once per stemmer. */
const STEMMERS: Record<Stemmer, (word: string) => string> = { porter2: stemWord, light: lightStem, none: (w) => w };

/**
 * Words of request phrasing ("I would like you to help me find…", "can you provide…") that
 * say nothing about which tool is wanted. Query side only: in a description `provide` or
 * `help` can be content.
 */
const QUERY_FILLER: ReadonlySet<string> = new Set([
  'want', 'wants', 'need', 'needs', 'like', 'help', 'provide', 'tell', 'know', 'give', 'let', 'interested',
  'additionally', 'thanks', 'thank', 'great', 'appreciate', 'possible', 'sure', 'kindly', 'assist', 'hi', 'hello',
]);

/** Candidates re-ranked with the name-coverage boost; the rest keep their BM25F order. */
const RERANK_DEPTH = 100;

export class KeywordIndex implements ToolSearcher {
  private index = new Bm25fIndex([], emptyFieldConfig(), 1);
  private docs: DocInfo[] = [];

  constructor(tools: readonly CatalogTool[] = [], private readonly config: KeywordConfig = DEFAULT_KEYWORD_CONFIG) {
    this.setTools(tools);
  }

  get size(): number {
    return this.docs.length;
  }

  /** Replace the document set (full rebuild; see bench for the measured time at 10k tools). */
  setTools(tools: readonly CatalogTool[]): void {
    const perTool = tools.map((tool) => {
      const fields = toolFields(tool);
      const terms = {} as Record<FieldName, string[]>;
      for (const f of FIELD_NAMES) terms[f] = f === 'context' ? [] : this.terms(fields[f]);
      return { tool, terms };
    });
    const contexts = this.config.fields.context.weight > 0 ? serverBags(perTool.map((p) => ({ server: p.tool.server, own: contextTerms(p.terms, this.config.bigrams > 0) }))) : undefined;
    const fieldTerms: FieldTerms[] = [];
    this.docs = [];
    for (const { tool, terms } of perTool) {
      const all = new Set<string>();
      for (const f of FIELD_NAMES) for (const t of terms[f]) all.add(t);
      this.docs.push({ key: tool.key, server: tool.server, nameTerms: [...new Set(terms.name)], terms: all });
      const doc = {} as Record<FieldName, string[] | TermBag>;
      for (const f of FIELD_NAMES) doc[f] = this.config.bigrams > 0 ? withBigrams(terms[f]) : terms[f];
      if (contexts) doc.context = withoutOwn(contexts.get(tool.server)!, contextTerms(terms, this.config.bigrams > 0));
      fieldTerms.push(doc);
    }
    this.index = new Bm25fIndex(fieldTerms, this.config.fields, this.config.k1);
  }

  /** Ranked tools for a query; `why` lists the query words a tool matched. */
  searchSync(query: string, options: SearchOptions): RankedTool[] {
    if (options.limit <= 0 || this.docs.length === 0) return [];
    const qterms = this.queryTerms([query, ...(options.keywords ?? [])].join(' '));
    if (qterms.length === 0) return [];
    const accept = (d: number) => options.server === undefined || this.docs[d].server === options.server;
    const c = this.config;
    const depth = Math.max(options.limit, c.nameBonus > 0 || c.coverage > 0 || c.serverBoost > 0 ? RERANK_DEPTH : 0);
    let { docs, scores } = this.index.score(qterms);
    let top = topK(docs, scores, Math.max(depth, c.prf.docs), accept);
    if (c.prf.weight > 0 && top.length > 0) {
      const expanded = [...qterms, ...this.feedbackTerms(top.slice(0, c.prf.docs), qterms)];
      ({ docs, scores } = this.index.score(expanded));
      top = topK(docs, scores, depth, accept);
    }
    if (c.nameBonus > 0 || c.coverage > 0) top = this.boostNames(top, qterms);
    if (c.serverBoost > 0) top = this.boostServers(top);
    return top.slice(0, options.limit).map(({ doc, score }) => ({
      key: this.docs[doc].key,
      score,
      signals: ['keyword'],
      why: this.why(doc, qterms),
    }));
  }

  async search(query: string, options: SearchOptions): Promise<RankedList> {
    return { hits: this.searchSync(query, options), mode: { kind: 'keyword', label: 'keyword only' } };
  }

  private get stem(): (word: string) => string {
    return STEMMERS[this.config.stem];
  }

  private terms(text: string): string[] {
    const out: string[] = [];
    for (const w of splitWords(text)) {
      if (STOP_WORDS.has(w)) continue;
      const s = this.stem(w);
      out.push(s);
      if (this.config.exact > 0 && s !== w) out.push(`=${w}`);
    }
    return out;
  }

  /** Query words → weighted index terms: each distinct word once, then synonyms and bigrams at reduced weight. */
  private queryTerms(text: string): QueryTerm[] {
    const words = splitWords(text).filter((w) => !STOP_WORDS.has(w) && !(this.config.fillerWords && QUERY_FILLER.has(w)));
    const out: QueryTerm[] = [];
    const seen = new Set<string>();
    const add = (term: string, weight: number, surface?: string) => {
      if (seen.has(term)) return;
      seen.add(term);
      const id = this.index.termId(term);
      if (id !== undefined) out.push({ id, weight, term, ...(surface !== undefined ? { surface } : {}) });
    };
    const stems = words.map((w) => this.stem(w));
    const qtf = new Map<string, number>();
    for (const s of stems) qtf.set(s, (qtf.get(s) ?? 0) + 1);
    const k3 = this.config.queryK3;
    // Saturated like BM25's document tf, normalised so a word typed once weighs 1.
    stems.forEach((s, i) => add(s, k3 > 0 ? (qtf.get(s)! * (k3 + 1)) / (k3 + qtf.get(s)!) : 1, words[i]));
    if (this.config.exact > 0) words.forEach((w, i) => w !== stems[i] && add(`=${w}`, this.config.exact));
    if (this.config.synonyms > 0) {
      const table = synonymTable(this.stem);
      for (const s of stems) for (const syn of table.get(s) ?? []) add(syn, this.config.synonyms);
    }
    if (this.config.bigrams > 0) for (let i = 1; i < stems.length; i++) add(`${stems[i - 1]} ${stems[i]}`, this.config.bigrams);
    return out;
  }

  /**
   * A tool whose name words the query covers is very likely the one meant (`take screenshot`
   * → browser_take_screenshot): scale its score by 1 + nameBonus × (idf-weighted share of its
   * name terms present in the query).
   */
  private boostNames(top: Scored[], qterms: readonly QueryTerm[]): Scored[] {
    const inQuery = new Set(qterms.filter((q) => q.surface !== undefined).map((q) => q.term));
    const boosted = top.map(({ doc, score }) => {
      const names = this.docs[doc].nameTerms;
      let have = 0;
      let all = 0;
      for (const t of names) {
        const id = this.index.termId(t);
        const idf = id === undefined ? 0 : this.index.idf(id);
        all += idf;
        if (inQuery.has(t)) have += idf;
      }
      const coverage = all > 0 ? have / all : 0;
      return { doc, score: score * (1 + this.config.nameBonus * coverage) * (1 + this.config.coverage * this.queryCoverage(doc, qterms)) };
    });
    return boosted.sort((a, b) => b.score - a.score || a.doc - b.doc);
  }

  /** Idf-weighted share of the typed query words the tool holds in any field. */
  private queryCoverage(doc: number, qterms: readonly QueryTerm[]): number {
    if (this.config.coverage === 0) return 0;
    const terms = this.docs[doc].terms;
    let have = 0;
    let all = 0;
    for (const q of qterms) {
      if (q.surface === undefined) continue;
      const idf = this.index.idf(q.id);
      all += idf;
      if (terms.has(q.term)) have += idf;
    }
    return all > 0 ? have / all : 0;
  }

  /** score + serverBoost × the best other candidate of the same server. */
  private boostServers(top: Scored[]): Scored[] {
    const best = new Map<string, [number, number]>();
    for (const { doc, score } of top) {
      const s = this.docs[doc].server;
      const b = best.get(s);
      if (!b) best.set(s, [score, 0]);
      else if (score > b[0]) best.set(s, [score, b[0]]);
      else if (score > b[1]) b[1] = score;
    }
    const boosted = top.map(({ doc, score }) => {
      const [first, second] = best.get(this.docs[doc].server)!;
      return { doc, score: score + this.config.serverBoost * (score === first ? second : first) };
    });
    return boosted.sort((a, b) => b.score - a.score || a.doc - b.doc);
  }

  /** RM3-style expansion: the unigram terms of the top documents, weighted by each document's score share and the term's idf. */
  private feedbackTerms(top: readonly Scored[], qterms: readonly QueryTerm[]): QueryTerm[] {
    const { terms: m, weight } = this.config.prf;
    const inQuery = new Set(qterms.map((q) => q.id));
    const total = top.reduce((a, t) => a + t.score, 0) || 1;
    const w = new Map<number, number>();
    for (const { doc, score } of top) {
      const own = this.docs[doc].terms;
      for (const t of own) {
        const id = this.index.termId(t);
        if (id === undefined || inQuery.has(id)) continue;
        w.set(id, (w.get(id) ?? 0) + (score / total) * this.index.idf(id) / own.size);
      }
    }
    const best = [...w].sort((a, b) => b[1] - a[1]).slice(0, m);
    const max = best[0]?.[1] ?? 1;
    return best.map(([id, v]) => ({ id, weight: (weight * v) / max, term: '' }));
  }

  private why(doc: number, qterms: readonly QueryTerm[]): string {
    const terms = this.docs[doc].terms;
    const words = qterms.filter((q) => q.surface !== undefined && terms.has(q.term)).map((q) => q.surface);
    return words.length > 0 ? `matched: ${words.join(', ')}` : 'matched: related words';
  }
}

interface Scored {
  doc: number;
  score: number;
}

/** The k best (score > 0, accepted) documents, best first, ties by catalog order; one pass, bounded insertion. */
function topK(docs: Int32Array, scores: Float64Array, k: number, accept: (doc: number) => boolean): Scored[] {
  const out: Scored[] = [];
  for (let i = 0; i < docs.length; i++) {
    const d = docs[i];
    const s = scores[d];
    if (s <= 0) continue;
    if (out.length === k) {
      const last = out[k - 1];
      if (s < last.score || (s === last.score && d > last.doc)) continue;
    }
    if (!accept(d)) continue;
    let j = out.length < k ? out.length : k - 1;
    while (j > 0 && (out[j - 1].score < s || (out[j - 1].score === s && out[j - 1].doc > d))) {
      if (j < k) out[j] = out[j - 1];
      j--;
    }
    out[j] = { doc: d, score: s };
  }
  return out;
}

/** What a tool contributes to its siblings' context field: its name and description words. */
function contextTerms(terms: Record<FieldName, readonly string[]>, bigrams: boolean): readonly string[] {
  return bigrams ? [...withBigrams(terms.name), ...withBigrams(terms.description)] : [...terms.name, ...terms.description];
}

/** Term counts of each server's tools together (built once per server, not once per tool). */
function serverBags(tools: readonly { server: string; own: readonly string[] }[]): Map<string, TermBag> {
  const bags = new Map<string, { counts: Map<string, number>; minus: string[]; length: number }>();
  for (const { server, own } of tools) {
    let bag = bags.get(server);
    if (!bag) bags.set(server, (bag = { counts: new Map(), minus: [], length: 0 }));
    for (const t of own) bag.counts.set(t, (bag.counts.get(t) ?? 0) + 1);
    bag.length += own.length;
  }
  return bags;
}

/** The server's bag minus one tool's own words: the context of a tool is its siblings. */
function withoutOwn(bag: TermBag, own: readonly string[]): TermBag {
  return { counts: bag.counts, minus: own, length: bag.length - own.length };
}

function withBigrams(terms: readonly string[]): string[] {
  const out = [...terms];
  for (let i = 1; i < terms.length; i++) out.push(`${terms[i - 1]} ${terms[i]}`);
  return out;
}

function emptyFieldConfig(): KeywordConfig['fields'] {
  return DEFAULT_KEYWORD_CONFIG.fields;
}
