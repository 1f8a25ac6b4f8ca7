/**
 * Result shaping: what a model sees of a tool result. `select` (a JMESPath projection) keeps
 * only the fields asked for; `max_output_tokens` bounds the rest (o200k tokens of the text
 * content). Pure: the caller keeps the full result (as a session resource) and builds the
 * note that points to it, so nothing is lost.
 *
 * JMESPath: the community edition (@jmespath-community/jmespath), maintained and a superset
 * of the original spec (let, arithmetic, more functions).
 */
import type * as Jmespath from '@jmespath-community/jmespath' with { 'resolution-mode': 'import' };
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { countTokens, tokenPrefix } from './tokens';
import { errorMessage } from './errorMessage';
import { selectSubject } from './selectSubject';

// The package's "types" condition names its ESM typings although it ships a CommonJS build
// too; TypeScript would refuse a value import from this CommonJS module, so require that build,
// on the first `select` (most sessions never use one).
let jmespathModule: typeof Jmespath | undefined;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const jmespath = (): typeof Jmespath => (jmespathModule ??= require('@jmespath-community/jmespath') as typeof Jmespath);
type JSONValue = Jmespath.JSONValue;

/** Bounds for max_output_tokens, whoever sets it (the argument or mcpLens.maxOutputTokens). */
export const MIN_OUTPUT_TOKENS = 100;
export const MAX_OUTPUT_TOKENS = 1_000_000;
/** Longest select expression accepted. */
export const MAX_SELECT_CHARS = 2000;

/** A select expression that cannot run, in words a model can fix; undefined when it compiles. */
export function selectProblem(expression: string): string | undefined {
  if (expression.length > MAX_SELECT_CHARS) return `"select" is ${expression.length} characters; the limit is ${MAX_SELECT_CHARS}.`;
  try {
    jmespath().compile(expression);
    return undefined;
  } catch (err) {
    return `"select" is not a valid JMESPath expression: ${errorMessage(err)}. Example: "items[?state=='open'].{id: id, size: size}".`;
  }
}

/**
 * The JSON a result carries: its structuredContent, else its text content parsed as JSON
 * (one value per text item; several become an array). Undefined for plain text.
 */
export function resultJson(result: CallToolResult): { value: unknown } | undefined {
  if (result.structuredContent !== undefined) return { value: result.structuredContent };
  const values: unknown[] = [];
  for (const item of result.content ?? []) {
    if (item.type !== 'text') continue;
    const parsed = parseJson(item.text);
    if (!parsed) return undefined;
    values.push(parsed.value);
  }
  if (values.length === 0) return undefined;
  return { value: values.length === 1 ? values[0] : values };
}

/**
 * Applies `select` to a successful result, on what the agent reads (core/selectSubject.ts:
 * JSON in text, or structuredContent with JSON strings opened). The projection replaces the content (compact
 * JSON text, and structuredContent when it is an object); when the result carries no JSON or
 * the expression fails on it, the result comes back whole with the reason.
 */
export function applySelect(result: CallToolResult, expression: string): { result: CallToolResult; projected?: unknown; problem?: string } {
  const json = selectSubject(result);
  if (!json) return { result, problem: 'select was not applied: the result is plain text, not JSON' };
  let projected: unknown;
  try {
    projected = jmespath().search(json.value as JSONValue, expression);
  } catch (err) {
    return { result, problem: `select was not applied: ${errorMessage(err)}` };
  }
  const shaped: CallToolResult = { content: [{ type: 'text', text: JSON.stringify(projected ?? null) }] };
  if (projected !== null && typeof projected === 'object' && !Array.isArray(projected)) shaped.structuredContent = projected as Record<string, unknown>;
  return { result: shaped, projected: projected ?? null };
}

/** Tokens of the text a model reads from a result (text items, or structuredContent when there is none). */
export function resultTokens(result: CallToolResult): number {
  return countTokens(resultText(result));
}

/**
 * UTF-8 length of a text, an upper bound of its o200k tokens: every token is at least one
 * byte. A text this many bytes long or shorter fits a token budget of that size uncounted.
 */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) ((bytes += 4), i++);
    // The rest of the BMP; a lone surrogate is written as U+FFFD, also 3 bytes.
    else bytes += 3;
  }
  return bytes;
}

/** A result's text content joined; its structuredContent as JSON when it has no text. */
export function resultText(result: CallToolResult): string {
  const texts = (result.content ?? []).filter((c) => c.type === 'text').map((c) => (c as { text: string }).text);
  if (texts.length === 0 && result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  return texts.join('\n');
}

export interface CutResult {
  result: CallToolResult;
  /** Tokens of the whole text. */
  fullTokens: number;
  /** Tokens of the text kept. */
  keptTokens: number;
}

/**
 * Cuts a result's text to `maxTokens` o200k tokens, in order: text items fit whole until the
 * budget runs out, the one that crosses it is cut at a token boundary, later ones are dropped.
 * Images and other non-text items pass through (clients do not read them as text).
 * structuredContent is dropped from a cut result: it would carry the whole thing again.
 * Undefined when the result fits; a text no longer in bytes than the budget is not tokenized
 * at all. `fullTokensOf` counts the whole result (a caller that needs the count too passes
 * one that counts once for both); without it, the text is counted here.
 */
export function cutToTokens(result: CallToolResult, maxTokens: number, fullTokensOf?: () => number): CutResult | undefined {
  const text = resultText(result);
  if (text.length <= maxTokens && utf8Length(text) <= maxTokens) return undefined;
  const items = result.content ?? [];
  const texts = items.filter((c) => c.type === 'text');
  const source: CallToolResult['content'] =
    texts.length === 0 && result.structuredContent !== undefined ? [...items, { type: 'text', text: JSON.stringify(result.structuredContent) }] : items;
  const fullTokens = fullTokensOf ? fullTokensOf() : countTokens(text);
  if (fullTokens <= maxTokens) return undefined;
  let budget = maxTokens;
  const content: CallToolResult['content'] = [];
  for (const item of source) {
    if (item.type !== 'text') {
      content.push(item);
      continue;
    }
    if (budget <= 0) continue;
    const tokens = countTokens(item.text);
    if (tokens <= budget) {
      content.push(item);
      budget -= tokens;
      continue;
    }
    content.push({ ...item, text: tokenPrefix(item.text, budget) });
    budget = 0;
  }
  const cut: CallToolResult = { content };
  if (result.isError) cut.isError = true;
  return { result: cut, fullTokens, keptTokens: maxTokens - budget };
}

/** The first `n` o200k tokens of a text (core/tokens.ts holds the tokenizer). */
export { tokenPrefix };

function parseJson(text: string): { value: unknown } | undefined {
  const t = text.trim();
  // Only objects and arrays: "42" or "true" as a whole text is prose more often than data.
  if (!(t.startsWith('{') || t.startsWith('['))) return undefined;
  try {
    return { value: JSON.parse(t) };
  } catch {
    return undefined;
  }
}
