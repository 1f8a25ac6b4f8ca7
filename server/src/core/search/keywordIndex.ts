/**
 * The keyword search MCP Lens always has, Ollama or not: stages 1 and 2 of the ranking
 * (rankingPipeline.ts). BM25F finds the candidates (candidates.ts); the best RERANK_DEPTH are
 * re-ranked by every re-rank signal (rerankSignals.ts), each multiplying a candidate's score by
 * what the request says beyond its words.
 */
import type { CatalogTool } from '../catalog';
import { CandidateIndex, type AnalysedRequest, type Scored } from './candidates';
import type { CatalogTokensCache } from './catalogTokensCodec';
import { DEFAULT_KEYWORD_CONFIG, knobValue, type KeywordConfig } from './keywordConfig';
import type { RerankSignal, SignalProfile } from './rerankSignal';
import * as signalFiles from './rerankSignals';
import { requestText, type RankedList, type RankedTool, type SearchOptions, type ToolSearcher } from './types';

/**
 * Every re-rank signal of rerankSignals.ts, by name: their factors multiply, so the order only
 * fixes the rounding, and the order of the tuner's moves and of the ablation's rows.
 */
export const RERANK_SIGNALS: readonly RerankSignal[] = Object.values(signalFiles).sort((a, b) =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
);

/** The keyword ranking of one request, with how much of it the first hit covers. */
export interface KeywordRanking {
  hits: RankedTool[];
  /** Share (0–1) of the request's own words the first hit holds; 0 when there is no hit. */
  firstCoverage: number;
}

/** Candidates re-ranked by the signals; the rest keep their BM25F order. */
const RERANK_DEPTH = 100;

export class KeywordIndex implements ToolSearcher {
  private candidates = CandidateIndex.build([], DEFAULT_KEYWORD_CONFIG, () => undefined).index;
  private profiles: SignalProfile[] = [];
  private byKey = new Map<string, number>();

  constructor(
    tools: readonly CatalogTool[] = [],
    private readonly config: KeywordConfig = DEFAULT_KEYWORD_CONFIG,
    private readonly signals: readonly RerankSignal[] = RERANK_SIGNALS,
    /** Where the catalog's reading is kept between runs (CandidateIndex.build). */
    private readonly tokensCache?: CatalogTokensCache,
  ) {
    // Empty, the index is the one above and ranks nothing: no profile is made (the signals'
    // tables, stemmed vocabularies, wait for the first catalog; a warm start's first tools/list
    // is answered before it is indexed).
    if (tools.length > 0) this.setTools(tools);
  }

  get size(): number {
    return this.candidates.size;
  }

  /** Replace the document set: the BM25F index and every signal's profile (full rebuild; bench --scale times it at 10k tools). */
  setTools(tools: readonly CatalogTool[]): void {
    const { index, profiled } = CandidateIndex.build(
      tools,
      this.config,
      (view) => this.signals.map((s) => s.profile(view, knobValues(s, this.config))),
      this.tokensCache,
    );
    this.candidates = index;
    this.profiles = profiled;
    this.byKey = new Map(index.docs.map((d, i) => [d.key, i]));
  }

  /** The server of a catalog tool, by key; undefined for a key the index does not hold. */
  serverOf(key: string): string | undefined {
    const doc = this.byKey.get(key);
    return doc === undefined ? undefined : this.candidates.docs[doc]!.server;
  }

  /** How many tools hold an index term; 0 for one none holds. */
  documentFrequency(term: string): number {
    return this.candidates.documentFrequency(term);
  }

  /** Ranked tools for a query; `why` lists the query words a tool matched. */
  searchSync(query: string, options: SearchOptions): RankedTool[] {
    return this.rank(requestText(query, options.keywords), options).hits;
  }

  /**
   * Ranked tools for a request's text (requestText), and the share of its own words (AnalysedRequest.contentTerms) the
   * first one holds: 0 with no hit. Hybrid fusion reads it to judge how strong the keyword
   * match is (hybridFusion.ts).
   */
  rank(text: string, options: Pick<SearchOptions, 'limit' | 'server' | 'visible'>): KeywordRanking {
    if (options.limit <= 0 || this.candidates.size === 0) return { hits: [], firstCoverage: 0 };
    const request = this.candidates.analyse(text);
    if (request.terms.length === 0) return { hits: [], firstCoverage: 0 };
    const docs = this.candidates.docs;
    const depth = Math.max(options.limit, RERANK_DEPTH);
    const top = this.candidates.top(
      request,
      depth,
      (d) =>
        (options.server === undefined || docs[d]!.server === options.server) &&
        (options.visible === undefined || options.visible(docs[d]!.key)),
    );
    const ranked = this.rerank(top, request).slice(0, options.limit);
    const first = ranked[0];
    const content = request.contentTerms;
    const firstCoverage =
      first && content.length > 0 ? content.filter((t) => docs[first.doc]!.terms.has(t)).length / content.length : 0;
    return {
      hits: ranked.map(({ doc, score }) => ({
        key: docs[doc]!.key,
        score,
        signals: ['keyword'],
        why: this.why(doc, request),
      })),
      firstCoverage,
    };
  }

  async search(query: string, options: SearchOptions): Promise<RankedList> {
    return { hits: this.searchSync(query, options), mode: { kind: 'keyword', label: 'keyword only' } };
  }

  /** Each candidate's score × every signal's factor, best first (ties by catalog order). */
  private rerank(top: Scored[], request: AnalysedRequest): Scored[] {
    const candidates = top.map((s) => s.doc);
    const factors = this.profiles.flatMap((p) => p.analyse(request, candidates) ?? []);
    const rescored = top.map(({ doc, score }) => {
      let m = 1;
      for (const factor of factors) m *= factor(doc);
      return { doc, score: score * m };
    });
    return rescored.sort((a, b) => b.score - a.score || a.doc - b.doc);
  }

  private why(doc: number, request: AnalysedRequest): string {
    const terms = this.candidates.docs[doc]!.terms;
    const words = request.typed.filter((t) => terms.has(t.term)).map((t) => t.surface);
    return words.length > 0 ? `matched: ${words.join(', ')}` : 'matched: related words';
  }
}

/** A signal's knob values in `config`, a knob it leaves out at its off value. */
function knobValues(signal: RerankSignal, config: KeywordConfig): Record<string, number> {
  return Object.fromEntries(signal.knobs.map((k) => [k.name, Number(knobValue(config, k))]));
}
