/**
 * Token accounting with the real o200k_base tokenizer. "What a client pays" for a set of
 * tools is the tokens of the JSON `tools` array it receives in `tools/list`: that is what
 * ends up in every request's tool definitions.
 *
 * The counter is plugged in (`useTokenCounter`): the app installs the compact o200k counter
 * (adapters/tokens), which loads its table on first use. A count before one is installed is
 * a bug and throws: a second tokenizer to fall back on would hide it and cost ~70 MB. Counts of whole tools/list texts are remembered by content hash
 * (`rememberTokenCounts`), so a catalog counted in an earlier run is not counted again.
 */
import { createHash } from 'node:crypto';
import type { CatalogTool } from './catalog';

/** An o200k_base tokenizer as MCP Lens needs one: counts, and the first n tokens of a text. */
export interface TokenCounter {
  count(text: string): number;
  /** The text of the first `n` tokens (a multi-byte character cut in half is dropped). */
  prefix(text: string, n: number): string;
}

let counter: TokenCounter | undefined;

/** Which o200k_base tokenizer `countTokens` and `tokenPrefix` use from now on. */
export function useTokenCounter(c: TokenCounter): void {
  counter = c;
}

/** Tokens of a text, o200k_base. Special-token markers in third-party text are counted as text. */
export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  return installed().count(text);
}

/** The first `n` o200k tokens of a text, as text. */
export function tokenPrefix(text: string, n: number): string {
  return installed().prefix(text, n);
}

function installed(): TokenCounter {
  if (!counter) throw new Error('no token counter: call useTokenCounter (with adapters/tokens/o200kCounter) before counting tokens');
  return counter;
}

/** Counts of tools/list texts by content hash; kept across runs by the catalog cache. */
const listCounts = new Map<string, number>();
/**
 * One count per server list, and an organisation puts thousands of servers behind a gateway:
 * with fewer entries than servers, every whole-catalog count evicted the first servers' counts
 * before it reached them again and counted everything anew (seconds of CPU at 5,000 servers).
 * An entry is a 22-character key and a number.
 */
const MAX_LIST_COUNTS = 100_000;

function contentHash(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, 22);
}

/** Tokens of a (large, often repeated) text, from memory when this exact text was counted before. */
export function countTokensRemembered(text: string, key = contentHash(text)): number {
  const known = listCounts.get(key);
  if (known !== undefined) return known;
  const n = countTokens(text);
  if (listCounts.size >= MAX_LIST_COUNTS) listCounts.delete(listCounts.keys().next().value!);
  listCounts.set(key, n);
  return n;
}

/** Counts remembered earlier (content hash → tokens), e.g. read back from a cache. */
export function rememberTokenCounts(counts: Record<string, number>): void {
  for (const [k, n] of Object.entries(counts)) if (Number.isInteger(n) && n >= 0 && !listCounts.has(k)) listCounts.set(k, n);
}

/** The remembered counts of these texts (content hash → tokens), for a cache to keep. */
export function rememberedTokenCounts(texts: Iterable<string>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const t of texts) {
    const key = contentHash(t);
    const n = listCounts.get(key);
    if (n !== undefined) out[key] = n;
  }
  return out;
}

/** The fields of a tool definition a client receives. */
export interface ToolDefinitionLike {
  name: string;
  title?: string | undefined;
  description?: string | undefined;
  inputSchema: unknown;
  outputSchema?: unknown;
  annotations?: unknown;
}

/** Tokens of a `tools/list` result's `tools` array as JSON. */
export function toolListTokens(tools: readonly ToolDefinitionLike[]): number {
  return countTokens(JSON.stringify(tools.map(definitionOf)));
}

/** Tokens of one tool definition as JSON. Summing these is within a few tokens of toolListTokens. */
export function toolTokens(tool: ToolDefinitionLike): number {
  return countTokens(JSON.stringify(definitionOf(tool)));
}

/**
 * Each server's own `tools/list` cost (its original tool names), remembered per server: the
 * catalog is rebuilt on every server's change, and only a server whose definitions changed
 * is tokenized again (the JSON is cheap, the tokenizer is not).
 */
export class ServerListTokens {
  private memo = new Map<string, ServerListCost>();

  /** Like `count`, but only when every count is known without counting (remembered); else undefined. */
  countKnown(tools: readonly CatalogTool[]): Map<string, number> | undefined {
    const out = new Map<string, number>();
    for (const [server, defs] of groupDefinitions(tools)) {
      const hash = contentHash(JSON.stringify(defs));
      const known = this.memo.get(server);
      const tokens = known?.hash === hash ? known.tokens : listCounts.get(hash);
      if (tokens === undefined) return undefined;
      out.set(server, tokens);
    }
    return out;
  }

  /** server → tokens of the tools/list it sends, for the servers that have tools here. */
  count(tools: readonly CatalogTool[]): Map<string, number> {
    return new Map([...this.costs(tools)].map(([server, c]) => [server, c.tokens]));
  }

  /** server → its tools/list JSON (original names), tool count and tokens. */
  costs(tools: readonly CatalogTool[]): Map<string, ServerListCost> {
    const byServer = groupDefinitions(tools);
    const memo = new Map<string, ServerListCost>();
    for (const [server, defs] of byServer) {
      const json = JSON.stringify(defs);
      const hash = contentHash(json);
      const known = this.memo.get(server);
      memo.set(server, { hash, tools: defs.length, tokens: known?.hash === hash ? known.tokens : countTokensRemembered(json, hash) });
    }
    this.memo = memo;
    return memo;
  }
}

/**
 * Each server's tools/list text (its definitions under their original names, as JSON), one at a
 * time: all of them at once are the whole catalog again as strings (65 MB at 100,000 tools).
 */
export function* serverListTexts(tools: readonly CatalogTool[]): Generator<string> {
  for (const defs of groupDefinitions(tools).values()) yield JSON.stringify(defs);
}

/** Each server's tool definitions under their original names, as its own tools/list has them. */
function groupDefinitions(tools: readonly CatalogTool[]): Map<string, ToolDefinitionLike[]> {
  const byServer = new Map<string, ToolDefinitionLike[]>();
  for (const t of tools) {
    let defs = byServer.get(t.server);
    if (!defs) byServer.set(t.server, (defs = []));
    defs.push(definitionOf({ ...t, name: t.originalName }));
  }
  return byServer;
}

export interface ServerListCost {
  /** Hash of the tools/list JSON (the text itself is not kept: it is the whole catalog again). */
  hash: string;
  tools: number;
  tokens: number;
}

function definitionOf(t: ToolDefinitionLike): ToolDefinitionLike {
  const d: ToolDefinitionLike = { name: t.name, inputSchema: t.inputSchema };
  if (t.title !== undefined) d.title = t.title;
  if (t.description !== undefined) d.description = t.description;
  if (t.outputSchema !== undefined) d.outputSchema = t.outputSchema;
  if (t.annotations !== undefined) d.annotations = t.annotations;
  return d;
}

/** Percentage saved going from `baseline` to `exposed`, one decimal; 0 when there is no baseline. */
export function savingsPercent(baseline: number, exposed: number): number {
  if (baseline <= 0) return 0;
  return Math.round(((baseline - exposed) / baseline) * 1000) / 10;
}
