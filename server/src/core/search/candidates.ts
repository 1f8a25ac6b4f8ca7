/**
 * Stage 1 of the ranking (rankingPipeline.ts): candidate generation. BM25F (bm25f.ts) over a
 * tool's name, server, description and parameters, plus its siblings' words on small servers,
 * with identifier splitting and Porter2 stemming (tokenize.ts); what a description says its tool
 * does not do is read as negated terms (¬read, negationScope.ts). A request becomes weighted
 * terms: its own words (query-term frequency saturated), then at reduced weight the parts of
 * its camel-case names, synonyms (synonyms.ts), the other words of the action it leads with
 * (actions.ts), adjacent-word pairs, the words and id shapes of its literal values
 * (queryLiterals.ts), and the negated terms of what it says not to do. Built once per catalog,
 * it also hands the re-rank signals' profiles the catalog as indexed (CatalogView); analysed
 * once per search, the request as every later stage reads it (AnalysedRequest).
 */
import type { CatalogTool } from '../catalog';
import { actionLexicon, requestAction, type RequestAction } from './actions';
import { Bm25fIndex } from './bm25f';
import { tokenizeCatalog, type CatalogTokens } from './catalogTokens';
import { catalogTokensKey, type CatalogTokensCache } from './catalogTokensCodec';
import { DocTermSets, type TermSet } from './docTokens';
import type { CandidateConfig, Stemmer } from './candidateConfig';
import type { Knob } from './knob';
import { NEGATED, splitNegation } from './negationScope';
import { QUERY_FILLER } from './queryFiller';
import { idShapes, splitLiterals, type QuerySplit } from './queryLiterals';
import { synonymTable } from './synonyms';
import {
  camelCaseParts,
  lightStem,
  splitRequestWords,
  splitSentences,
  splitWords,
  STOP_WORDS,
  stemWord,
} from './tokenize';
import { foldForMatching } from './wordRuns';

/** The candidate stage's knobs, for the tuner and the ablation (its parameters are typed in CandidateConfig). */
export const CANDIDATE_KNOBS: readonly Knob[] = [
  { name: 'fields.name.weight', grid: [2, 3, 4, 5] },
  { name: 'fields.server.weight', grid: [1, 2, 3] },
  { name: 'fields.params.weight', grid: [0.25, 0.5, 0.75, 1] },
  { name: 'fields.context.weight', grid: [0, 0.1, 0.2, 0.3, 0.5], off: { value: 0, ablation: 'sibling context' } },
  { name: 'fields.name.b', grid: [0.3, 0.5, 0.75] },
  { name: 'fields.description.b', grid: [0.5, 0.75, 0.9] },
  { name: 'k1', grid: [0.9, 1.2, 1.5, 2] },
  { name: 'stem', off: { value: 'none', ablation: 'Porter2 stemming' } },
  { name: 'synonyms', grid: [0, 0.15, 0.3, 0.45], off: { value: 0, ablation: 'synonyms' } },
  { name: 'bigrams', grid: [0, 0.3, 0.6, 0.9], off: { value: 0, ablation: 'bigrams' } },
  { name: 'queryK3', grid: [0, 1.5, 3, 6], off: { value: 0, ablation: 'query-term frequency (queryK3 0)' } },
  {
    name: 'literal',
    grid: [0.2, 0.4, 0.6, 0.8, 1],
    off: { value: 1, ablation: 'literal values as intent words (literal 1)' },
  },
  { name: 'exact', grid: [0, 0.15, 0.3, 0.5], off: { value: 0, ablation: 'unstemmed words as terms' } },
  { name: 'actionSynonyms', grid: [0, 0.15, 0.3, 0.45], off: { value: 0, ablation: 'action synonyms' } },
  { name: 'shapes', grid: [0, 1, 2, 3, 4, 6], off: { value: 0, ablation: 'id shapes' } },
  { name: 'fillerWords', off: { value: false, ablation: 'request filler words' } },
  { name: 'negation', grid: [0, 3, 5, 8], off: { value: 0, ablation: 'negation scope in descriptions' } },
  {
    name: 'contextMaxTools',
    grid: [6, 8, 12, 16, 24, 1e9],
    off: { value: Number.POSITIVE_INFINITY, ablation: 'platform rule (context for every server)' },
  },
];

/** One weighted term of a request's BM25F query. */
export interface QueryTerm {
  id: number;
  weight: number;
  /** The word the user typed, for `why`; undefined for expansions (synonyms, bigrams, literal words…). */
  surface?: string;
  term: string;
  idf: number;
}

/** A request, analysed once per search: what every later stage reads of it. */
export interface AnalysedRequest {
  /** The BM25F query: the typed words' terms first, then the expansions. */
  readonly terms: readonly QueryTerm[];
  /** The terms of the words the request typed (those with a `surface`), in order. */
  readonly typed: readonly QueryTerm[];
  /**
   * The distinct terms of the request's own words (stop and filler words left out), whether
   * any tool holds them or not: how much of the request a tool covers is read against these.
   */
  readonly contentTerms: readonly string[];
  /** Its literal values and the intent text around them (queryLiterals.ts). */
  readonly split: QuerySplit;
  /** The intent's words in order, stop words kept (splitRequestWords). */
  readonly intentWords: readonly string[];
  /** What it asks to do (actions.ts). */
  readonly action: RequestAction | undefined;
  /** 1 for a single ask; 1/n for a request of n sentences, whose parts may each want another tool. */
  readonly focus: number;
}

/**
 * A catalog tool as the candidate stage indexed it: what a signal's profile may read. Lean on
 * purpose (the whole catalog's views are alive at once while profiles are made): a signal that
 * needs more of a tool's text derives it with `termsOf`.
 */
export interface IndexedTool {
  readonly tool: CatalogTool;
  readonly server: string;
  /** Its name's terms (name and title), in order. */
  readonly nameTerms: readonly string[];
  /** Every term of its own fields (name, server, description, parameters). */
  readonly terms: TermSet;
  /** How many tools its server has. */
  readonly serverSize: number;
}

/**
 * The catalog as indexed, handed to each re-rank signal's profile once per catalog. Valid only
 * while the profile runs: a profile copies out what its analysis needs.
 */
export interface CatalogView {
  readonly config: CandidateConfig;
  readonly stem: (word: string) => string;
  /** By document number. */
  readonly tools: readonly IndexedTool[];
  /** A text's index terms: split, stop words dropped, stemmed (plus `=word` when `exact` is on). */
  termsOf(text: string): string[];
  /** An index term's idf; 0 when no tool holds it. */
  idf(term: string): number;
}

/** What the index keeps of each tool. */
interface CandidateDoc {
  key: string;
  server: string;
  terms: TermSet;
}

export interface Scored {
  doc: number;
  score: number;
}

/** Module-level so the synonym table (cached per stemmer function) is built once per stemmer. */
const STEMMERS: Record<Stemmer, (word: string) => string> = { porter2: stemWord, light: lightStem, none: (w) => w };

export class CandidateIndex {
  private constructor(
    private readonly bm25: Bm25fIndex,
    readonly docs: readonly CandidateDoc[],
    private readonly config: CandidateConfig,
  ) {}

  /**
   * The index over `tools`; `profile` reads the catalog as indexed (the re-rank signals'
   * profiles) while it is built. The view is emptied once `profile` returns, so what a profile
   * did not copy out is not kept in memory, whatever its closures hold on to. With `cache`, the
   * catalog's reading comes from there when it holds this very catalog's, and goes there when
   * it was read now (catalogTokensCodec.ts); so do BM25F's postings over it, when built with
   * the same field parameters.
   */
  static build<P>(
    tools: readonly CatalogTool[],
    config: CandidateConfig,
    profile: (view: CatalogView) => P,
    cache?: CatalogTokensCache,
  ): { index: CandidateIndex; profiled: P } {
    const stem = STEMMERS[config.stem];
    const termsOf = termsFunction(stem, config.exact > 0);
    const serverSize = new Map<string, number>();
    for (const t of tools) serverSize.set(t.server, (serverSize.get(t.server) ?? 0) + 1);
    const key =
      cache && tools.length > 0 && tools.length <= cache.maxTools
        ? catalogTokensKey(tools, config, cache.build)
        : undefined;
    let read: CatalogTokens | undefined = key ? cache!.get(key, tools.length) : undefined;
    if (!read) {
      // A tool's name and description are the sibling-tools context of the rest of its server.
      // A server with many tools is a platform (GitHub: issues, PRs, files, releases…), not one
      // topic: its tools lend each other no context, which would only blur their actions.
      read = tokenizeCatalog(tools, {
        termsOf,
        stem,
        bigrams: config.bigrams > 0,
        shapes: (config.shapes ?? 0) > 0,
        negation: config.negation ?? 0,
        lends: (tool) => (serverSize.get(tool.server) ?? 0) <= config.contextMaxTools,
      });
    }
    const { tokens, words, nameTerms } = read;
    // The postings come with the tokens when they were built with these field parameters.
    const fields = JSON.stringify(config.fields);
    const built = read.bm25?.fields === fields ? read.bm25.postings : undefined;
    const bm25 = new Bm25fIndex(tokens, config.fields, config.k1, built);
    // Its own list of name terms: this one is emptied below.
    if (key && !built)
      cache!.set(key, { tokens, words, nameTerms: nameTerms.slice(), bm25: { fields, postings: bm25.postings } });
    const termSets = new DocTermSets(tokens.table, words);
    const docs = tools.map((t, i) => ({ key: t.key, server: t.server, terms: termSets.of(i) }));
    const indexed: IndexedTool[] = tools.map((tool, i) => ({
      tool,
      server: tool.server,
      nameTerms: nameTerms[i]!,
      terms: docs[i]!.terms,
      serverSize: serverSize.get(tool.server) ?? 0,
    }));
    const profiled = profile({ config, stem, tools: indexed, termsOf, idf: idfFunction(bm25) });
    indexed.length = 0;
    nameTerms.length = 0;
    serverSize.clear();
    return { index: new CandidateIndex(bm25, docs, config), profiled };
  }

  get size(): number {
    return this.docs.length;
  }

  private get stem(): (word: string) => string {
    return STEMMERS[this.config.stem];
  }

  /**
   * A request's words → weighted index terms: each distinct word once, then synonyms and
   * bigrams at reduced weight. Words of literal values (queryLiterals.ts) count at `literal`
   * weight and never as the request's own words (no synonyms, bigrams or coverage).
   */
  analyse(request: string): AnalysedRequest {
    // Folded once (wordRuns.ts), so every later stage reads full-width forms and accented
    // letters as the index holds them.
    const text = foldForMatching(request);
    const c = this.config;
    const stem = this.stem;
    const split = splitLiterals(text);
    const allWords = splitRequestWords(c.literal < 1 ? split.intent : text);
    const words = allWords.filter((w) => !STOP_WORDS.has(w) && !(c.fillerWords && QUERY_FILLER.has(w)));
    const out: QueryTerm[] = [];
    const seen = new Set<string>();
    const add = (term: string, weight: number, surface?: string) => {
      if (seen.has(term)) return;
      seen.add(term);
      const id = this.bm25.termId(term);
      if (id !== undefined)
        out.push({ id, weight, term, idf: this.bm25.idf(id), ...(surface !== undefined ? { surface } : {}) });
    };
    const stems = words.map((w) => stem(w));
    const qtf = new Map<string, number>();
    for (const s of stems) qtf.set(s, (qtf.get(s) ?? 0) + 1);
    const k3 = c.queryK3;
    // Saturated like BM25's document tf, normalised so a word typed once weighs 1.
    stems.forEach((s, i) => add(s, k3 > 0 ? (qtf.get(s)! * (k3 + 1)) / (k3 + qtf.get(s)!) : 1, words[i]));
    // A camel-case name's parts, for tools that write it apart ("Hacker News"): full weight, but
    // not words of the request's own (coverage counts the name once).
    for (const p of camelCaseParts(c.literal < 1 ? split.intent : text)) if (!STOP_WORDS.has(p)) add(stem(p), 1);
    if (c.exact > 0) words.forEach((w, i) => w !== stems[i] && add(`=${w}`, c.exact));
    if (c.synonyms > 0) {
      const table = synonymTable(stem);
      for (const s of stems) for (const syn of table.get(s) ?? []) add(syn, c.synonyms);
    }
    const action = requestAction(split.intent, stem);
    // The other words for the action the request leads with ("wipe" → delete, remove, erase…);
    // a question's implied read adds none (it would pull in every get_* tool).
    if (c.actionSynonyms > 0 && action && action !== 'read')
      for (const m of actionLexicon(stem).members.get(action) ?? []) add(m, c.actionSynonyms);
    if (c.bigrams > 0) for (let i = 1; i < stems.length; i++) add(`${stems[i - 1]} ${stems[i]}`, c.bigrams);
    // What the request says not to do meets what a description says its tool does not do
    // ("don't write a test" and "without generating a test": ¬test).
    const negation = c.negation ?? 0;
    if (negation > 0)
      for (const w of splitRequestWords(splitNegation(split.intent, negation).negated))
        if (!STOP_WORDS.has(w)) add(NEGATED + stem(w), 1);
    if (c.literal > 0 && c.literal < 1) {
      // Fragments of ids and numbers (1a2b3c4d → 1 a 2 b …) say nothing; real words in a value
      // (a quoted title, a path's folder names) may.
      for (const lit of split.literals) {
        for (const w of splitWords(lit.text))
          if (w.length > 2 && !/\d/.test(w) && !STOP_WORDS.has(w)) add(stem(w), c.literal);
        // A file's type says what kind of tool handles it (.pdf, .mp4, .png, .csv).
        const ext = lit.kind === 'path' ? /\.([a-z][a-z0-9]{1,4})$/i.exec(lit.text)?.[1] : undefined;
        if (ext) add(stem(ext.toLowerCase()), c.literal);
      }
    }
    const shapes = c.shapes ?? 0;
    if (shapes > 0)
      for (const lit of split.literals)
        if (lit.kind === 'id') for (const shape of idShapes(lit.text)) add(shape, shapes);
    const sentences = splitSentences(split.intent).filter((x) => splitWords(x).length >= 3).length;
    return {
      terms: out,
      typed: out.filter((t) => t.surface !== undefined),
      contentTerms: [...new Set(stems)],
      split,
      intentWords: splitRequestWords(split.intent),
      action,
      focus: 1 / Math.max(1, sentences),
    };
  }

  /** How many tools hold an index term (in a field that counts, or as context); 0 for one none holds. */
  documentFrequency(term: string): number {
    const id = this.bm25.termId(term);
    return id === undefined ? 0 : this.bm25.docFrequency(id);
  }

  /** The k best documents for a request (score > 0, `accept`ed), best first, ties by catalog order. */
  top(request: AnalysedRequest, k: number, accept: (doc: number) => boolean): Scored[] {
    const { docs, scores } = this.bm25.score(request.terms);
    return topK(docs, scores, k, accept);
  }
}

/** Index terms of a text: split, stop words dropped, stemmed; with `exact`, an unstemmed word's own term too. */
function termsFunction(stem: (word: string) => string, exact: boolean): (text: string) => string[] {
  return (text) => {
    const out: string[] = [];
    for (const w of splitWords(text)) {
      if (STOP_WORDS.has(w)) continue;
      const s = stem(w);
      out.push(s);
      if (exact && s !== w) out.push(`=${w}`);
    }
    return out;
  };
}

/** An index term's idf, 0 when no tool holds it; made apart from build() so it holds on to the index only. */
function idfFunction(bm25: Bm25fIndex): (term: string) => number {
  return (term) => {
    const id = bm25.termId(term);
    return id === undefined ? 0 : bm25.idf(id);
  };
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
