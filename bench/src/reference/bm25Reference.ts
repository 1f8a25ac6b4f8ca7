/**
 * bm25-reference: the plain Okapi BM25 tool search peers ship (Anthropic's BM25 tool search,
 * FastMCP's BM25 transform, mcpproxy's retrieve_tools), implemented exactly as
 * shared/reference/peer-searchers.md describes it. It is a yardstick, not ours to improve:
 * k1 1.2, b 0.75, idf = ln(1 + (N − df + 0.5) / (df + 0.5)), one bag of words per tool
 * (server, name, description, schema property names and descriptions), camelCase and
 * snake/kebab/dot/slash split, small stop-word list, no stemming. Query words count once each
 * (a set, as those implementations build it): with repeated query words counted again the
 * toolbench figures drop to recall@5 0.721, with the set they reproduce the published ones to
 * within ±0.006 (the exact stop-word list is not published).
 */
import type { CatalogTool } from '../../../server/src/core/catalog';
import { BASE_STOP_WORDS } from '../../../server/src/core/search/tokenize';
import type { RankedList, RankedTool, SearchOptions, ToolSearcher } from '../../../server/src/core/search/types';

/**
 * The reference's stop words: the small English list the published figures were reproduced
 * with (core/search/tokenize.ts BASE_STOP_WORDS), without MCP Lens's own additions, so the
 * yardstick does not move when MCP Lens's list does.
 */
const STOP_WORDS: ReadonlySet<string> = new Set(BASE_STOP_WORDS);

const K1 = 1.2;
const B = 0.75;

/** The reference's tokenizer: camelCase split, lowercase, split on anything not a letter or digit. */
export function referenceTokens(text: string): string[] {
  return text
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0 && !STOP_WORDS.has(w));
}

/** The reference's document: server, name, description, then each schema property's name and description. */
export function referenceDocumentText(tool: CatalogTool): string {
  const parts = [tool.server, tool.originalName, tool.description];
  const props = (tool.inputSchema as { properties?: unknown }).properties;
  if (props && typeof props === 'object') {
    for (const [name, value] of Object.entries(props as Record<string, unknown>)) {
      parts.push(name);
      const d = (value as { description?: unknown } | null)?.description;
      if (typeof d === 'string') parts.push(d);
    }
  }
  return parts.join(' ');
}

export class Bm25Reference implements ToolSearcher {
  private readonly keys: string[];
  private readonly servers: string[];
  private readonly tf: Map<string, number>[];
  private readonly lengths: number[];
  private readonly df = new Map<string, number>();
  private readonly avgLength: number;

  constructor(tools: readonly CatalogTool[]) {
    this.keys = tools.map((t) => t.key);
    this.servers = tools.map((t) => t.server);
    this.tf = [];
    this.lengths = [];
    for (const tool of tools) {
      const words = referenceTokens(referenceDocumentText(tool));
      const counts = new Map<string, number>();
      for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
      for (const w of counts.keys()) this.df.set(w, (this.df.get(w) ?? 0) + 1);
      this.tf.push(counts);
      this.lengths.push(words.length);
    }
    const total = this.lengths.reduce((a, b) => a + b, 0);
    this.avgLength = tools.length > 0 ? total / tools.length : 0;
  }

  /** idf = ln(1 + (N − df + 0.5) / (df + 0.5)). */
  idf(word: string): number {
    const n = this.keys.length;
    const df = this.df.get(word) ?? 0;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  searchSync(query: string, options: SearchOptions): RankedTool[] {
    const words = [...new Set(referenceTokens([query, ...(options.keywords ?? [])].join(' ')))];
    const hits: RankedTool[] = [];
    for (let d = 0; d < this.keys.length; d++) {
      if (options.server !== undefined && this.servers[d] !== options.server) continue;
      const score = this.scoreDoc(d, words);
      if (score > 0) hits.push({ key: this.keys[d], score, signals: ['keyword'], why: '' });
    }
    hits.sort((a, b) => b.score - a.score);
    return hits.slice(0, options.limit);
  }

  scoreDoc(d: number, words: readonly string[]): number {
    const counts = this.tf[d];
    const norm = K1 * (1 - B + (B * this.lengths[d]) / (this.avgLength || 1));
    let score = 0;
    for (const w of words) {
      const f = counts.get(w);
      if (!f) continue;
      score += (this.idf(w) * f * (K1 + 1)) / (f + norm);
    }
    return score;
  }

  async search(query: string, options: SearchOptions): Promise<RankedList> {
    return { hits: this.searchSync(query, options), mode: { kind: 'keyword', label: 'bm25-reference' } };
  }
}
