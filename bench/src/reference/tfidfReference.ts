/**
 * tfidf-reference: the FastMCP curator proposal's keyword mode, quirks included, exactly as
 * shared/reference/peer-searchers.md describes it: document `"{name} {description} {tags}"`
 * lowercased and split on whitespace; idf(word) = ln(N / (1 + df)) where df counts documents
 * whose lowercased text CONTAINS the word as a substring; score = Σ over query whitespace
 * tokens of tf × idf with tf = occurrences among the document's tokens / document token count;
 * only scores > 0, highest first.
 */
import type { CatalogTool } from '../../../server/src/core/catalog';
import type { RankedList, RankedTool, SearchOptions, ToolSearcher } from '../../../server/src/core/search/types';

export class TfidfReference implements ToolSearcher {
  private readonly keys: string[];
  private readonly servers: string[];
  private readonly texts: string[];
  private readonly tokens: string[][];
  /** Substring df is a scan of every document; cache it per word. */
  private readonly dfCache = new Map<string, number>();

  /** `name` is the tool's own name (originalName): a tool has no tags in our datasets. */
  constructor(tools: readonly CatalogTool[]) {
    this.keys = tools.map((t) => t.key);
    this.servers = tools.map((t) => t.server);
    this.texts = tools.map((t) => `${t.originalName} ${t.description} `.toLowerCase());
    this.tokens = this.texts.map((text) => text.split(/\s+/).filter((w) => w.length > 0));
  }

  idf(word: string): number {
    let df = this.dfCache.get(word);
    if (df === undefined) {
      df = 0;
      for (const text of this.texts) if (text.includes(word)) df++;
      this.dfCache.set(word, df);
    }
    return Math.log(this.texts.length / (1 + df));
  }

  searchSync(query: string, options: SearchOptions): RankedTool[] {
    const words = [query, ...(options.keywords ?? [])]
      .join(' ')
      .toLowerCase()
      .split(/\s+/)
      .filter((w) => w.length > 0);
    const idfs = words.map((w) => this.idf(w));
    const hits: RankedTool[] = [];
    for (let d = 0; d < this.keys.length; d++) {
      if (options.server !== undefined && this.servers[d] !== options.server) continue;
      const score = this.scoreDoc(d, words, idfs);
      if (score > 0) hits.push({ key: this.keys[d], score, signals: ['keyword'], why: '' });
    }
    hits.sort((a, b) => b.score - a.score);
    return hits.slice(0, options.limit);
  }

  scoreDoc(d: number, words: readonly string[], idfs: readonly number[]): number {
    const toks = this.tokens[d];
    if (toks.length === 0) return 0;
    let score = 0;
    for (let i = 0; i < words.length; i++) {
      let occurrences = 0;
      for (const t of toks) if (t === words[i]) occurrences++;
      score += (occurrences / toks.length) * idfs[i];
    }
    return score;
  }

  async search(query: string, options: SearchOptions): Promise<RankedList> {
    return { hits: this.searchSync(query, options), mode: { kind: 'keyword', label: 'tfidf-reference' } };
  }
}
