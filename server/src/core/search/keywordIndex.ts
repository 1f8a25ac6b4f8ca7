/**
 * The keyword search MCP Lens always has, Ollama or not: BM25F over tool fields (bm25f.ts)
 * with identifier splitting and Porter2 stemming (tokenize.ts), synonyms (synonyms.ts) and
 * query-term frequency, then a re-rank of the top candidates by what the request says beyond
 * its words: name and query coverage, its action against each tool's (actions.ts), the
 * product it names (productMentions.ts), the kinds of its literal values and the shapes of its
 * ids against the examples tools document (queryLiterals.ts). Parameters and the ablation of
 * every step are in keywordConfig.ts.
 */
import type { CatalogTool } from '../catalog';
import { Bm25fIndex, OWN_FIELDS, type FieldTerms, type OwnFieldName } from './bm25f';
import { DEFAULT_KEYWORD_CONFIG, type KeywordConfig, type Stemmer } from './keywordConfig';
import { actionAgreement, actionLexicon, requestAction, toolAction, type ActionClass, type RequestAction } from './actions';
import { mentionedServers, serverNames, type ServerName } from './productMentions';
import { idShapes, LITERAL_SLOTS, splitLiterals, type LiteralKind } from './queryLiterals';
import { synonymTable } from './synonyms';
import { camelCaseParts, joinedCamelWords, lightStem, splitRequestWords, splitSentences, splitWords, STOP_WORDS, stemWord } from './tokenize';
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
  /** What the tool does (actions.ts), from its name or its description's first words. */
  action: ActionClass | undefined;
  /** Stems of its input parameters' names (which literal values it can take). */
  paramStems: Set<string>;
  /** The only tool of its server. */
  solo: boolean;
}

/** A request, analysed once per search. */
interface QueryAnalysis {
  terms: QueryTerm[];
  action: RequestAction | undefined;
  /** Servers the request names ("in Sentry", "on GitHub"), by the words of their names. */
  servers: Set<string>;
  literalKinds: LiteralKind[];
  /** 1 for a single ask; 1/n for a request of n sentences, whose parts may each want another tool. */
  focus: number;
}

/** Module-level so the synonym table (cached per stemmer function) is built once per stemmer. */
const STEMMERS: Record<Stemmer, (word: string) => string> = { porter2: stemWord, light: lightStem, none: (w) => w };

/**
 * Words of request phrasing ("I would like you to help me find…", "can you provide…") that
 * say nothing about which tool is wanted. Query side only: in a description `provide` or
 * `help` can be content.
 */
const QUERY_FILLER: ReadonlySet<string> = new Set([
  'want',
  'wants',
  'need',
  'needs',
  'like',
  'help',
  'provide',
  'tell',
  'know',
  'give',
  'let',
  'interested',
  'additionally',
  'thanks',
  'thank',
  'great',
  'appreciate',
  'possible',
  'sure',
  'kindly',
  'assist',
  'hi',
  'hello',
]);

/** Candidates re-ranked with the name-coverage boost; the rest keep their BM25F order. */
const RERANK_DEPTH = 100;

export class KeywordIndex implements ToolSearcher {
  private index = new Bm25fIndex([], emptyFieldConfig(), 1);
  private docs: DocInfo[] = [];
  /** How a request can name each server (productMentions.ts). */
  private products: ServerName[] = [];

  constructor(
    tools: readonly CatalogTool[] = [],
    private readonly config: KeywordConfig = DEFAULT_KEYWORD_CONFIG,
  ) {
    this.setTools(tools);
  }

  get size(): number {
    return this.docs.length;
  }

  /** Replace the document set (full rebuild; see bench for the measured time at 10k tools). */
  setTools(tools: readonly CatalogTool[]): void {
    const bigrams = this.config.bigrams > 0;
    this.docs = [];
    const serverSize = new Map<string, number>();
    for (const t of tools) serverSize.set(t.server, (serverSize.get(t.server) ?? 0) + 1);
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
        // GitHub is indexed as git, hub and github, so a request that writes the name whole meets it.
        for (const w of joinedCamelWords(fields[f])) if (!STOP_WORDS.has(w)) indexed[f].push(this.stem(w));
      }
      // The shapes of the ids a tool shows as examples ("IMDb id, ex: tt0000002", "e.g.,
      // ABC-123"), once each: a request's id of the same shape is a value this tool takes.
      if ((this.config.shapes ?? 0) > 0) {
        // Only texts with a digit can hold one (most descriptions have none).
        const texts = [fields.description, ...schemaStrings(tool.inputSchema, 2)].filter((t) => /\d/.test(t));
        indexed.params.push(
          ...new Set(
            texts.flatMap((t) =>
              splitLiterals(t)
                .literals.filter((l) => l.kind === 'id')
                .flatMap((l) => idShapes(l.text)),
            ),
          ),
        );
      }
      const lex = actionLexicon(this.stem);
      const descriptionLead = this.terms(fields.description.split(/\s+/).slice(0, 8).join(' '));
      const action = toolAction(this.terms(fields.name), descriptionLead, lex, this.stem);
      const paramStems = new Set(Object.keys(propertiesOf(tool.inputSchema)).flatMap((p) => splitWords(p).map((w) => this.stem(w))));
      const solo = serverSize.get(tool.server) === 1;
      this.docs.push({ key: tool.key, server: tool.server, nameTerms, terms: all, action, paramStems, solo });
      // A tool's name and description are the sibling-tools context of the rest of its server.
      // A server with many tools is a platform (GitHub: issues, PRs, files, releases…), not one
      // topic: its tools lend each other no context, which would only blur their actions.
      const platform = (serverSize.get(tool.server) ?? 0) > this.config.contextMaxTools;
      return { ...indexed, group: tool.server, shared: platform ? [] : [...indexed.name, ...indexed.description] };
    });
    this.index = new Bm25fIndex(fieldTerms, this.config.fields, this.config.k1);
    this.products = serverNames(tools, this.stem, this.docs);
  }

  /** Ranked tools for a query; `why` lists the query words a tool matched. */
  searchSync(query: string, options: SearchOptions): RankedTool[] {
    if (options.limit <= 0 || this.docs.length === 0) return [];
    const q = this.analyse([query, ...(options.keywords ?? [])].join(' '));
    const qterms = q.terms;
    if (qterms.length === 0) return [];
    const { docs, scores } = this.index.score(qterms);
    const depth = Math.max(options.limit, RERANK_DEPTH);
    let top = topK(docs, scores, depth, (d) => options.server === undefined || this.docs[d].server === options.server);
    top = this.rerank(top, q);
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

  /**
   * Query words → weighted index terms: each distinct word once, then synonyms and bigrams at
   * reduced weight. Words of literal values (queryLiterals.ts) count at `literal` weight and
   * never as the request's own words (no synonyms, bigrams or coverage).
   */
  private analyse(text: string): QueryAnalysis {
    const c = this.config;
    const split = splitLiterals(text);
    const allWords = splitRequestWords(c.literal < 1 ? split.intent : text);
    const words = allWords.filter((w) => !STOP_WORDS.has(w) && !(c.fillerWords && QUERY_FILLER.has(w)));
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
    const k3 = c.queryK3;
    // Saturated like BM25's document tf, normalised so a word typed once weighs 1.
    stems.forEach((s, i) => add(s, k3 > 0 ? (qtf.get(s)! * (k3 + 1)) / (k3 + qtf.get(s)!) : 1, words[i]));
    // A camel-case name's parts, for tools that write it apart ("Hacker News"): full weight, but
    // not words of the request's own (coverage counts the name once).
    for (const p of camelCaseParts(c.literal < 1 ? split.intent : text)) if (!STOP_WORDS.has(p)) add(this.stem(p), 1);
    if (c.exact > 0) words.forEach((w, i) => w !== stems[i] && add(`=${w}`, c.exact));
    if (c.synonyms > 0) {
      const table = synonymTable(this.stem);
      for (const s of stems) for (const syn of table.get(s) ?? []) add(syn, c.synonyms);
    }
    const intentWords = splitRequestWords(split.intent);
    const action = requestAction(split.intent, this.stem);
    // The other words for the action the request leads with ("wipe" → delete, remove, erase…);
    // a question's implied read adds none (it would pull in every get_* tool).
    if (c.actionSynonyms > 0 && action && action !== 'read') for (const m of actionLexicon(this.stem).members.get(action) ?? []) add(m, c.actionSynonyms);
    if (c.bigrams > 0) for (let i = 1; i < stems.length; i++) add(`${stems[i - 1]} ${stems[i]}`, c.bigrams);
    if (c.literal > 0 && c.literal < 1) {
      // Fragments of ids and numbers (1a2b3c4d → 1 a 2 b …) say nothing; real words in a value
      // (a quoted title, a path's folder names) may.
      for (const lit of split.literals) {
        for (const w of splitWords(lit.text)) if (w.length > 2 && !/\d/.test(w) && !STOP_WORDS.has(w)) add(this.stem(w), c.literal);
        // A file's type says what kind of tool handles it (.pdf, .mp4, .png, .csv).
        const ext = lit.kind === 'path' ? /\.([a-z][a-z0-9]{1,4})$/i.exec(lit.text)?.[1] : undefined;
        if (ext) add(this.stem(ext.toLowerCase()), c.literal);
      }
    }
    const shapes = c.shapes ?? 0;
    if (shapes > 0) for (const lit of split.literals) if (lit.kind === 'id') for (const shape of idShapes(lit.text)) add(shape, shapes);
    const servers = mentionedServers(this.products, split.intent, intentWords, this.stem);
    const sentences = splitSentences(split.intent).filter((x) => splitWords(x).length >= 3).length;
    const focus = 1 / Math.max(1, sentences);
    return { terms: out, action, servers, focus, literalKinds: [...new Set(split.literals.map((l) => l.kind))] };
  }

  /**
   * Re-ranks the BM25F candidates by two coverage multipliers. Name coverage: a tool whose name
   * words the query covers is very likely the one meant (`take screenshot` →
   * browser_take_screenshot): × (1 + nameBonus × idf-weighted share of its name terms in the
   * query). Query coverage: BM25 sums per-word evidence, so one frequent word can outscore a
   * tool that matches every word once; × (1 + coverage × idf-weighted share of the query's
   * words the tool holds) favours the tool that answers the whole request (rank-1 precision);
   * a word it holds only as a synonym counts `coverageSynonyms` of its idf, and a name word
   * the request says only as a synonym `nameSynonyms` of its idf.
   */
  private rerank(top: Scored[], q: QueryAnalysis): Scored[] {
    const c = this.config;
    const typed = q.terms.filter((t) => t.surface !== undefined);
    const inQuery = new Set(typed.map((t) => t.term));
    const queryIdf = typed.reduce((sum, t) => sum + this.index.idf(t.id), 0);
    // A request word the tool says in other words (repo ↔ repository, ticket ↔ issue) is
    // partly covered: the tool does answer that part of the request.
    const synonymCredit = c.synonyms > 0 ? (c.coverageSynonyms ?? 0) : 0;
    const typedSynonyms = synonymCredit > 0 ? typed.map((t) => synonymTable(this.stem).get(t.term) ?? []) : [];
    const nameSynonymCredit = c.synonyms > 0 ? (c.nameSynonyms ?? 0) : 0;
    const synonymsInQuery = new Set(nameSynonymCredit > 0 ? typed.flatMap((t) => synonymTable(this.stem).get(t.term) ?? []) : []);
    const slotKinds = q.literalKinds.filter((k) => LITERAL_SLOTS[k] !== undefined);
    // A tool whose name and description say no action (RestaurantBookingTool) is neither for
    // nor against the request's: it gets what the candidates that do say get on average, so
    // declaring an action is not itself an advantage.
    let sum = 0;
    let known = 0;
    for (const { doc } of top) {
      const a = this.docs[doc]!.action;
      if (a) ((sum += actionAgreement(q.action, a)), known++);
    }
    const unknownAgreement = known > 0 ? sum / known : 0;
    const boosted = top.map(({ doc, score }) => {
      const d = this.docs[doc];
      let have = 0;
      let all = 0;
      for (const t of d.nameTerms) {
        const id = this.index.termId(t);
        const idf = id === undefined ? 0 : this.index.idf(id);
        all += idf;
        if (inQuery.has(t)) have += idf;
        else if (synonymsInQuery.has(t)) have += nameSynonymCredit * idf;
      }
      let held = 0;
      typed.forEach((t, i) => {
        if (d.terms.has(t.term)) held += this.index.idf(t.id);
        else if (synonymCredit > 0 && typedSynonyms[i]!.some((x) => d.terms.has(x))) held += synonymCredit * this.index.idf(t.id);
      });
      const names = all > 0 ? have / all : 0;
      const query = queryIdf > 0 ? held / queryIdf : 0;
      let m = (1 + c.nameBonus * names) * (1 + c.coverage * query);
      // A server that is one tool (a plugin, a product with one entry point) does whatever its
      // product does: its description's lead verb is a pitch, not an operation to hold
      // against the request's, and it has no siblings the action would choose between.
      const action = d.solo ? c.action * (c.soloAction ?? 1) : c.action;
      if (action > 0) m *= 1 + action * q.focus * (d.action ? actionAgreement(q.action, d.action) : unknownAgreement);
      if (c.serverMention > 0 && q.servers.size > 0) m *= q.servers.has(d.server) ? 1 + c.serverMention * q.focus : 1;
      if (c.slots > 0 && slotKinds.length > 0) {
        const filled = slotKinds.filter((k) => LITERAL_SLOTS[k]!.some((w) => d.paramStems.has(this.stem(w)))).length;
        m *= 1 + (c.slots * filled) / slotKinds.length;
      }
      return { doc, score: score * m };
    });
    return boosted.sort((a, b) => b.score - a.score || a.doc - b.doc);
  }

  private why(doc: number, qterms: readonly QueryTerm[]): string {
    const terms = this.docs[doc].terms;
    const words = qterms.filter((t) => t.surface !== undefined && terms.has(t.term)).map((t) => t.surface);
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

function propertiesOf(schema: unknown): Record<string, unknown> {
  const props = (schema as { properties?: unknown } | null)?.properties;
  return props && typeof props === 'object' ? (props as Record<string, unknown>) : {};
}

/** String values of a JSON schema (descriptions, defaults, examples, enums), `depth` levels into properties and items. */
function schemaStrings(schema: unknown, depth: number): string[] {
  const out: string[] = [];
  const walk = (v: unknown, d: number): void => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) for (const x of v) walk(x, d);
    else if (v && typeof v === 'object' && d >= 0)
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) walk(x, k === 'properties' || k === 'items' ? d - 1 : d);
  };
  walk(schema, depth);
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
