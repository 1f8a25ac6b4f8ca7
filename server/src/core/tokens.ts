/**
 * Token accounting with the real o200k_base tokenizer. "What a client pays" for a set of
 * tools is the tokens of the JSON `tools` array it receives in `tools/list`: that is what
 * ends up in every request's tool definitions.
 *
 * The counter is plugged in (`useTokenCounter`): the app installs the compact o200k counter
 * (adapters/tokens), which loads its table on first use. A count before one is installed is
 * a bug and throws: a second tokenizer to fall back on would hide it and cost tens of megabytes
 * (core/bpe/rankTable.ts). Counts of whole tools/list texts are remembered by content hash
 * (`rememberTokenCounts`), so a catalog counted in an earlier run is not counted again.
 */
import { createHash } from 'node:crypto';

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

/**
 * A text longer than this is counted on its first EXACT_COUNT_CHARS characters, the count scaled
 * to its whole length: counting a 10 MB result that no model reads, to report what was saved on
 * it, held the gateway's thread for about a second, every session with it, and a session can
 * make many such calls at once.
 */
export const EXACT_COUNT_CHARS = 128 * 1024;

/** Tokens of a text, and whether that is its count or an estimate (EXACT_COUNT_CHARS). */
export interface TokenEstimate {
  tokens: number;
  exact: boolean;
}

/** Tokens of a text: counted up to EXACT_COUNT_CHARS, estimated from its beginning past that. */
export function estimateTokens(text: string): TokenEstimate {
  if (text.length <= EXACT_COUNT_CHARS) return { tokens: countTokens(text), exact: true };
  // Not between the two halves of a surrogate pair.
  const end = /[\uD800-\uDBFF]/.test(text[EXACT_COUNT_CHARS - 1]!) ? EXACT_COUNT_CHARS - 1 : EXACT_COUNT_CHARS;
  return { tokens: Math.round((countTokens(text.slice(0, end)) * text.length) / end), exact: false };
}

/** The first `n` o200k tokens of a text, as text. */
export function tokenPrefix(text: string, n: number): string {
  return installed().prefix(text, n);
}

function installed(): TokenCounter {
  if (!counter)
    throw new Error(
      'no token counter: call useTokenCounter (with adapters/tokens/o200kCounter) before counting tokens',
    );
  return counter;
}

/** Counts of tools/list texts by content hash; kept across runs by the catalog cache. */
const listCounts = new Map<string, number>();
/**
 * One count per tool (toolListTokens.ts), and an organisation puts 100,000 tools behind a
 * gateway: with fewer entries than pieces, every whole-catalog count evicted the first tools'
 * counts before it reached them again and counted everything anew. An entry is a 22-character
 * key and a number.
 */
const MAX_LIST_COUNTS = 250_000;

/** A short content hash (22 characters of base64url SHA-256): the key of a remembered count. */
export function contentHash(text: string): string {
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
  for (const [k, n] of Object.entries(counts))
    if (Number.isInteger(n) && n >= 0 && !listCounts.has(k)) listCounts.set(k, n);
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

/** The fields a client receives, `name` first (toolListTokens.ts splits lists before each `name`). */
export function definitionOf(t: ToolDefinitionLike): ToolDefinitionLike {
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
