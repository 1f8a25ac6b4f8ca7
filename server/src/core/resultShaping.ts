/**
 * Result shaping: what a model sees of a tool result. `select` (a JMESPath projection) keeps
 * only the fields asked for; `max_output_tokens` bounds the rest (o200k tokens of the text
 * content). Pure: the caller keeps the full result (as a session resource) and builds the
 * note that points to it, so nothing is lost.
 *
 * JMESPath: the community edition (@jmespath-community/jmespath), maintained and a superset
 * of the original spec (let, arithmetic, more functions).
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { EXACT_COUNT_CHARS, countTokens, estimateTokens, tokenPrefix, type TokenEstimate } from './tokens';
import { errorMessage } from './errorMessage';
import { utf8Length } from './utf8Length';
import { jmespath } from './selectEvaluation';
import { selectInput, selectSubject } from './selectSubject';

export { utf8Length };

/** Bounds for max_output_tokens, whoever sets it (the argument or mcpLens.maxOutputTokens). */
export const MIN_OUTPUT_TOKENS = 100;
export const MAX_OUTPUT_TOKENS = 1_000_000;
/** Longest select expression accepted. */
export const MAX_SELECT_CHARS = 2000;

/**
 * What one `select` may take. It runs in a child process (adapters/select/selectRunner.ts):
 * JMESPath's functions build values far larger than their input and its interpreter cannot be
 * stopped from inside, so the process is stopped from outside.
 */
export const SELECT_LIMITS = {
  /**
   * The projection as JSON: no more than one upstream result may be (app/toolCalls.ts), since
   * a projection meant to narrow a result has no business being larger than any result.
   */
  maxOutputBytes: 10 * 1024 * 1024,
  /**
   * Time for one evaluation, from when the evaluator is ready: the CPU time the evaluator
   * spends where it can be read (Linux), so a loaded machine does not turn a heap-limit case
   * into a deadline one; wall time elsewhere. A filter over 100,000 objects (6 MB of JSON),
   * sent, evaluated and sent back, took ~1 s on two loaded cores.
   */
  deadlineMs: 5000,
  /** However little CPU it got, an evaluation ends this long after it started. */
  wallDeadlineMs: 20_000,
  /** Heap of the evaluating process: room to parse a 10 MB result several times over. */
  memoryMb: 256,
  /** Evaluations at once (each its own process); more wait their turn, round robin between sessions. */
  maxConcurrent: 2,
  /** Of those, at once for one session: one session's slow selects never take every evaluator. */
  perSession: 1,
} as const;

/** A select expression that cannot run, in words a model can fix; undefined when it compiles. */
export function selectProblem(expression: string): string | undefined {
  if (expression.length > MAX_SELECT_CHARS)
    return `"select" is ${expression.length} characters; the limit is ${MAX_SELECT_CHARS}.`;
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
  const input = selectInput(result);
  return input && selectSubject({ texts: input.texts });
}

/**
 * A projection (its JSON text, as the evaluator wrote it) as the result the model gets:
 * compact JSON text, and structuredContent when it is an object.
 */
export function projectionResult(json: string): { result: CallToolResult; projected: unknown } {
  const projected: unknown = JSON.parse(json);
  const result: CallToolResult = { content: [{ type: 'text', text: json }] };
  if (projected !== null && typeof projected === 'object' && !Array.isArray(projected))
    result.structuredContent = projected as Record<string, unknown>;
  return { result, projected };
}

/** Tokens of the text a model reads from a result (text items, or structuredContent when there is none). */
export function resultTokens(result: CallToolResult): number {
  return resultTokenEstimate(result).tokens;
}

/** Tokens of a result's text, estimated past EXACT_COUNT_CHARS (core/tokens.ts). */
export function resultTokenEstimate(result: CallToolResult): TokenEstimate {
  return estimateTokens(resultText(result));
}

/** A result's text content joined; its structuredContent as JSON when it has no text. */
export function resultText(result: CallToolResult): string {
  const texts = (result.content ?? []).filter((c) => c.type === 'text').map((c) => (c as { text: string }).text);
  if (texts.length === 0 && result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  return texts.join('\n');
}

export interface CutResult {
  result: CallToolResult;
  /** Tokens of the whole text (an estimate past EXACT_COUNT_CHARS: see `exact`). */
  fullTokens: number;
  exact: boolean;
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
export function cutToTokens(
  result: CallToolResult,
  maxTokens: number,
  fullTokensOf?: () => TokenEstimate,
): CutResult | undefined {
  const text = resultText(result);
  if (text.length <= maxTokens && utf8Length(text) <= maxTokens) return undefined;
  const items = result.content ?? [];
  const texts = items.filter((c) => c.type === 'text');
  const source: CallToolResult['content'] =
    texts.length === 0 && result.structuredContent !== undefined
      ? [...items, { type: 'text', text: JSON.stringify(result.structuredContent) }]
      : items;
  const full = fullTokensOf ? fullTokensOf() : estimateTokens(text);
  if (full.exact && full.tokens <= maxTokens) return undefined;
  let budget = maxTokens;
  const content: CallToolResult['content'] = [];
  for (const item of source) {
    if (item.type !== 'text') {
      content.push(item);
      continue;
    }
    if (budget <= 0) continue;
    // A long text is only read as far as the budget: its prefix, then its count.
    const kept = item.text.length > EXACT_COUNT_CHARS ? tokenPrefix(item.text, budget) : item.text;
    const tokens = countTokens(kept);
    if (kept === item.text && tokens <= budget) {
      content.push(item);
      budget -= tokens;
      continue;
    }
    content.push({ ...item, text: kept === item.text ? tokenPrefix(item.text, budget) : kept });
    budget = 0;
  }
  // An estimate said it might not fit; it did.
  if (budget > 0 && !full.exact) return undefined;
  const cut: CallToolResult = { content };
  if (result.isError) cut.isError = true;
  return { result: cut, fullTokens: full.tokens, exact: full.exact, keptTokens: maxTokens - budget };
}

/** The first `n` o200k tokens of a text (core/tokens.ts holds the tokenizer). */
export { tokenPrefix };
