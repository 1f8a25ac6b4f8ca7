/**
 * The keyword search MCP Lens always has, Ollama or not: BM25F over tool fields (bm25f.ts)
 * with identifier splitting and Porter2 stemming (tokenize.ts), a small synonym table
 * (synonyms.ts), query-term frequency, and a re-rank by name and query coverage. Every step
 * was kept only if it measured better on
 * bench/datasets; the ablation (mcp-lens bench, keyword mode, recall@5 / MRR@10) is in
 * ./keywordConfig.ts beside the chosen parameters.
 */
import type { CatalogTool } from '../catalog';
import { Bm25fIndex, OWN_FIELDS, type FieldTerms, type OwnFieldName } from './bm25f';
import { DEFAULT_KEYWORD_CONFIG, type KeywordConfig, type Stemmer } from './keywordConfig';
import { synonymTable } from './synonyms';
import { lightStem, splitWords, STOP_WORDS, stemWord } from './tokenize';
import { toolFields } from './toolFields';
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
    const bigrams = this.config.bigrams > 0;
    this.docs = [];
    const fieldTerms: FieldTerms[] = tools.map((tool) => {
      const fields = toolFields(tool);
      const all = new Set<string>();
      const indexed = {} as Record<OwnFieldName, string[]>;
      let nameTerms: string[] = [];
      for (const f of OWN_FIELDS) {
        const unigrams = this.terms(fields[f]);
        for (const t of unigrams) all.add(t);
        if (f === 'name') nameTerms = [...new Set(unigrams)];
        indexed[f] = bigrams ? withBigrams(unigrams) : unigrams;
      }
      this.docs.push({ key: tool.key, server: tool.server, nameTerms, terms: all });
      // A tool's name and description are the sibling-tools context of the rest of its server.
      return { ...indexed, group: tool.server, shared: [...indexed.name, ...indexed.description] };
    });
    this.index = new Bm25fIndex(fieldTerms, this.config.fields, this.config.k1);
  }

  /** Ranked tools for a query; `why` lists the query words a tool matched. */
  searchSync(query: string, options: SearchOptions): RankedTool[] {
    if (options.limit <= 0 || this.docs.length === 0) return [];
    const qterms = this.queryTerms([query, ...(options.keywords ?? [])].join(' '));
    if (qterms.length === 0) return [];
    const { docs, scores } = this.index.score(qterms);
    const c = this.config;
    const depth = Math.max(options.limit, c.nameBonus > 0 || c.coverage > 0 ? RERANK_DEPTH : 0);
    let top = topK(docs, scores, depth, (d) => options.server === undefined || this.docs[d].server === options.server);
    if (c.nameBonus > 0 || c.coverage > 0) top = this.rerank(top, qterms);
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
   * Re-ranks the BM25F candidates by two coverage multipliers. Name coverage: a tool whose name
   * words the query covers is very likely the one meant (`take screenshot` →
   * browser_take_screenshot): × (1 + nameBonus × idf-weighted share of its name terms in the
   * query). Query coverage: BM25 sums per-word evidence, so one frequent word can outscore a
   * tool that matches every word once; × (1 + coverage × idf-weighted share of the query's
   * words the tool holds) favours the tool that answers the whole request (rank-1 precision).
   */
  private rerank(top: Scored[], qterms: readonly QueryTerm[]): Scored[] {
    const typed = qterms.filter((q) => q.surface !== undefined);
    const inQuery = new Set(typed.map((q) => q.term));
    const queryIdf = typed.reduce((sum, q) => sum + this.index.idf(q.id), 0);
    const boosted = top.map(({ doc, score }) => {
      const { nameTerms, terms } = this.docs[doc];
      let have = 0;
      let all = 0;
      for (const t of nameTerms) {
        const id = this.index.termId(t);
        const idf = id === undefined ? 0 : this.index.idf(id);
        all += idf;
        if (inQuery.has(t)) have += idf;
      }
      let held = 0;
      for (const q of typed) if (terms.has(q.term)) held += this.index.idf(q.id);
      const names = all > 0 ? have / all : 0;
      const query = queryIdf > 0 ? held / queryIdf : 0;
      return { doc, score: score * (1 + this.config.nameBonus * names) * (1 + this.config.coverage * query) };
    });
    return boosted.sort((a, b) => b.score - a.score || a.doc - b.doc);
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

function withBigrams(terms: readonly string[]): string[] {
  const out = [...terms];
  for (let i = 1; i < terms.length; i++) out.push(`${terms[i - 1]} ${terms[i]}`);
  return out;
}

function emptyFieldConfig(): KeywordConfig['fields'] {
  return DEFAULT_KEYWORD_CONFIG.fields;
}
