/**
 * Result shaping, in one place: what a model gets back from call_tool and run_code. `select` (a
 * JMESPath projection) keeps only the fields asked for; `max_output_tokens` bounds the rest
 * (o200k tokens of the text content), with a note saying what happened. A cut result is kept
 * whole and the note points to it, so nothing is lost. The two steps that are not pure are the
 * caller's (ShapeSteps): evaluating the projection (off the process, adapters/select) and keeping
 * the result (the gateway's ResultStore).
 *
 * JMESPath: the community edition (@jmespath-community/jmespath), maintained and a superset
 * of the original spec (let, arithmetic, more functions).
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { EXACT_COUNT_CHARS, countTokens, estimateTokens, tokenPrefix, type TokenEstimate } from './tokens';
import { errorMessage } from './errorMessage';
import { utf8Length } from './utf8Length';
import { jmespath } from './selectEvaluation';
import { selectInput, selectSubject, type SelectInput } from './selectSubject';
import { PLAIN_TEXT_PROBLEM, type SelectOutcome } from './selectEvaluation';

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
 * structuredContent is dropped from a cut result: it would carry the whole thing again; `_meta`
 * is kept.
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
  // No model reads _meta; a host does (an MCP App's view correlates results by it).
  if (result._meta !== undefined) cut._meta = result._meta;
  return { result: cut, fullTokens: full.tokens, exact: full.exact, keptTokens: maxTokens - budget };
}

/** The first `n` o200k tokens of a text (core/tokens.ts holds the tokenizer). */
export { tokenPrefix };

/** How to shape one result. */
export interface ShapeRequest {
  /** JMESPath projection (the meta-tool's schema checked it compiles). */
  select?: string;
  maxOutputTokens: number;
}

/** What shaping needs from outside the core. */
export interface ShapeSteps {
  /**
   * Evaluates a projection of `raw`, bounded (adapters/select runs it in a child process); or
   * refuses to hold `raw` while it waits for an evaluator (the session holds too many already).
   */
  select(raw: CallToolResult, input: SelectInput, expression: string): Promise<SelectOutcome | { refused: string }>;
  /** Keeps the whole result for the session; its URI, or undefined when it is too large to keep. */
  keep(result: CallToolResult, fullTokens: number): string | undefined;
  /** Why a result may not be kept, in words (the store's rule). */
  readonly keepRule: string;
}

export interface Shaped {
  result: CallToolResult;
  /** Whether select or a cut changed the result. */
  changed: boolean;
  /**
   * Tokens of the result before shaping. Counted when first read: a result that fits its
   * budget and is not narrowed is never tokenized on call_tool's way back.
   */
  readonly fullTokens: number;
  /** Tokens of what the model gets (the note included); counted when first read. */
  readonly returnedTokens: number;
  /** Where the whole result is kept, when it was cut. */
  keptAs?: string;
  /** The select projection as a value, when select applied and nothing was cut (for scripts). */
  projected?: { value: unknown };
}

/** `raw` as the model gets it back from `tool`: projected, cut, kept whole when cut, with a note saying so. */
export async function shapeResult(
  raw: CallToolResult,
  tool: string,
  request: ShapeRequest,
  steps: ShapeSteps,
): Promise<Shaped> {
  const full = once(() => resultTokenEstimate(raw));
  const fullTokens = () => full().tokens;
  const notes: string[] = [];
  let shaped = raw;
  let projected: { value: unknown } | undefined;
  // An error is never projected: its text is the message the model needs.
  if (request.select !== undefined && !raw.isError) {
    const selected = await applySelect(raw, request.select, steps);
    if ('dropped' in selected) return droppedResult(selected.dropped);
    if ('limit' in selected) return selectLimited(raw, tool, selected.limit, fullTokens, steps);
    if ('problem' in selected) notes.push(`${selected.problem}.`);
    else ((shaped = selected.result), (projected = { value: selected.projected }));
  }
  const cut = cutToTokens(shaped, request.maxOutputTokens, shaped === raw ? full : undefined);
  let keptAs: string | undefined;
  if (cut) {
    keptAs = steps.keep(shaped, cut.fullTokens);
    notes.push(cutNote(cut, request.maxOutputTokens, keptAs, steps.keepRule));
    shaped = cut.result;
  }
  if (notes.length === 0) {
    const kept = shaped;
    const whole = new LazyShaped(
      kept,
      kept !== raw,
      fullTokens,
      kept === raw ? fullTokens : once(() => resultTokens(kept)),
    );
    if (projected) whole.projected = projected;
    return whole;
  }
  const note = `[MCP Lens] ${notes.join(' ')}`;
  const result: CallToolResult = { ...shaped, content: [...(shaped.content ?? []), { type: 'text', text: note }] };
  const out = new LazyShaped(
    result,
    true,
    fullTokens,
    once(() => resultTokens(result)),
  );
  if (keptAs) out.keptAs = keptAs;
  return out;
}

function cutNote(cut: CutResult, maxOutputTokens: number, keptAs: string | undefined, keepRule: string): string {
  const pct = Math.round((1 - cut.keptTokens / cut.fullTokens) * 100);
  // The URI stands alone, quoted: a reader that copies it must not take punctuation along.
  const where = keptAs
    ? `The whole result is kept for this session as resource "${keptAs}". Read it with resources/read, or filter it in run_code with read_result("${keptAs}"), ` +
      'or call again with "select" (a JMESPath projection) or a larger max_output_tokens.'
    : `The whole result is too large to keep (${keepRule}): call again with "select" (a JMESPath projection) or a larger max_output_tokens.`;
  return `Output cut at ${cut.keptTokens.toLocaleString('en-US')} of ${cut.exact ? '' : 'about '}${cut.fullTokens.toLocaleString('en-US')} tokens (${pct}% cut, max_output_tokens ${maxOutputTokens}). ${where}`;
}

/**
 * The projection of a successful result; a problem (the result then comes back whole with it);
 * or a limit the expression broke (an error: the model has to change the expression).
 */
async function applySelect(
  raw: CallToolResult,
  expression: string,
  steps: ShapeSteps,
): Promise<
  { result: CallToolResult; projected: unknown } | { problem: string } | { limit: string } | { dropped: string }
> {
  const input = selectInput(raw);
  if (!input) return { problem: PLAIN_TEXT_PROBLEM };
  const outcome = await steps.select(raw, input, expression);
  if ('refused' in outcome) return { dropped: outcome.refused };
  if (outcome.ok) {
    const projection = projectionResult(outcome.json);
    // The host's part of the result (an MCP App's view correlates by it) is not the model's to project.
    if (raw._meta !== undefined) projection.result._meta = raw._meta;
    return projection;
  }
  return outcome.limit ? { limit: outcome.problem } : { problem: outcome.problem };
}

/** A result dropped because its session holds too many waiting for select: an error naming the limit. */
function droppedResult(refused: string): Shaped {
  const result: CallToolResult = { content: [{ type: 'text', text: `[MCP Lens] ${refused}.` }], isError: true };
  const tokens = () => resultTokens(result);
  return new LazyShaped(result, true, tokens, tokens);
}

/** A select that broke a limit: an error naming it; the result the call returned is kept, so the call need not be repeated. */
function selectLimited(
  raw: CallToolResult,
  tool: string,
  problem: string,
  fullTokens: () => number,
  steps: ShapeSteps,
): Shaped {
  const keptAs = steps.keep(raw, fullTokens());
  const where = keptAs
    ? `its whole result is kept for this session as ${keptAs}: read it with resources/read or read_result("${keptAs}") in run_code, or call again with a simpler "select".`
    : 'call again with a simpler "select".';
  const result: CallToolResult = {
    content: [{ type: 'text', text: `[MCP Lens] ${problem}. The call to ${tool} itself succeeded; ${where}` }],
    isError: true,
  };
  const shaped = new LazyShaped(result, true, fullTokens, () => resultTokens(result));
  if (keptAs) shaped.keptAs = keptAs;
  return shaped;
}

/**
 * A class, not an object literal with getters: V8 builds such a literal on its slow path, on
 * every call_tool's way back (a CPU profile of bench/gatewayOverhead.ts shows it).
 */
class LazyShaped implements Shaped {
  declare keptAs?: string;
  declare projected?: { value: unknown };

  constructor(
    readonly result: CallToolResult,
    readonly changed: boolean,
    private readonly countFull: () => number,
    private readonly countReturned: () => number,
  ) {}

  get fullTokens(): number {
    return this.countFull();
  }

  get returnedTokens(): number {
    return this.countReturned();
  }
}

function once<T>(count: () => T): () => T {
  let n: T | undefined;
  return () => (n ??= count());
}
