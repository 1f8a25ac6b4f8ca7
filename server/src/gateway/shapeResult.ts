/**
 * What the model gets back from call_tool and run_code: the result narrowed by `select` and
 * cut to `max_output_tokens`, with a note saying what happened. A cut result is kept whole
 * in the session's ResultStore and the note points to it, so nothing is lost.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  MAX_OUTPUT_TOKENS,
  MIN_OUTPUT_TOKENS,
  cutToTokens,
  projectionResult,
  resultTokenEstimate,
  resultTokens,
  selectProblem,
} from '../core/resultShaping';
import { selectInput } from '../core/selectSubject';
import { PLAIN_TEXT_PROBLEM } from '../core/selectEvaluation';
import type { SelectRunner } from '../adapters/select/selectRunner';
import { approximateSize } from '../core/approximateSize';
import { EVICTION_RULE, type ResultStore } from './resultStore';
import type { SessionBudgets } from './sessionBudgets';

export interface ShapeRequest {
  /** JMESPath projection, already checked with selectProblem. */
  select?: string;
  maxOutputTokens: number;
}

/**
 * call_tool's shaping options (`select`, `max_output_tokens`), checked, in words a model can
 * fix; `defaultMax` applies when max_output_tokens is absent.
 */
export function parseShapeRequest(
  args: Record<string, unknown>,
  defaultMax: number,
): ShapeRequest | { problem: string } {
  const { select, max_output_tokens: max } = args;
  if (select !== undefined && typeof select !== 'string')
    return { problem: '"select" must be a JMESPath expression (a string), e.g. "items[].name".' };
  if (typeof select === 'string') {
    const problem = selectProblem(select);
    if (problem) return { problem };
  }
  if (
    max !== undefined &&
    !(typeof max === 'number' && Number.isInteger(max) && max >= MIN_OUTPUT_TOKENS && max <= MAX_OUTPUT_TOKENS)
  ) {
    return { problem: `"max_output_tokens" must be an integer from ${MIN_OUTPUT_TOKENS} to ${MAX_OUTPUT_TOKENS}.` };
  }
  const request: ShapeRequest = { maxOutputTokens: (max as number | undefined) ?? defaultMax };
  if (typeof select === 'string') request.select = select;
  return request;
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

export interface ShapeContext {
  results: ResultStore;
  sessionId: string;
  /** Where select runs: off this process, bounded (adapters/select). */
  select: SelectRunner;
  /** Holds a result waiting for its select against its session's limit (gateway/sessionBudgets.ts). */
  budgets?: SessionBudgets;
  signal?: AbortSignal;
}

export async function shapeResult(
  raw: CallToolResult,
  tool: string,
  request: ShapeRequest,
  ctx: ShapeContext,
): Promise<Shaped> {
  const full = once(() => resultTokenEstimate(raw));
  const fullTokens = () => full().tokens;
  const notes: string[] = [];
  let shaped = raw;
  let projected: { value: unknown } | undefined;
  // An error is never projected: its text is the message the model needs.
  if (request.select !== undefined && !raw.isError) {
    const selected = await applySelect(raw, tool, request.select, ctx);
    if ('dropped' in selected) return droppedResult(selected.dropped);
    if ('limit' in selected) return selectLimited(raw, tool, selected.limit, fullTokens, ctx);
    if ('problem' in selected) notes.push(`${selected.problem}.`);
    else ((shaped = selected.result), (projected = { value: selected.projected }));
  }
  const cut = cutToTokens(shaped, request.maxOutputTokens, shaped === raw ? full : undefined);
  let keptAs: string | undefined;
  if (cut) {
    keptAs = ctx.results.keep(ctx.sessionId, tool, shaped, cut.fullTokens);
    const pct = Math.round((1 - cut.keptTokens / cut.fullTokens) * 100);
    // The URI stands alone, quoted: a reader that copies it must not take punctuation along.
    const where = keptAs
      ? `The whole result is kept for this session as resource "${keptAs}". Read it with resources/read, or filter it in run_code with read_result("${keptAs}"), ` +
        'or call again with "select" (a JMESPath projection) or a larger max_output_tokens.'
      : `The whole result is too large to keep (${EVICTION_RULE}): call again with "select" (a JMESPath projection) or a larger max_output_tokens.`;
    notes.push(
      `Output cut at ${cut.keptTokens.toLocaleString('en-US')} of ${cut.exact ? '' : 'about '}${cut.fullTokens.toLocaleString('en-US')} tokens (${pct}% cut, max_output_tokens ${request.maxOutputTokens}). ${where}`,
    );
    shaped = cut.result;
  }
  if (notes.length === 0) {
    const kept = shaped;
    const whole = shapedResult(
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
  const shapedOut = shapedResult(
    result,
    true,
    fullTokens,
    once(() => resultTokens(result)),
  );
  if (keptAs) shapedOut.keptAs = keptAs;
  return shapedOut;
}

/**
 * The projection of a successful result; a problem (the result then comes back whole with it);
 * or a limit the expression broke (an error: the model has to change the expression).
 */
async function applySelect(
  raw: CallToolResult,
  tool: string,
  expression: string,
  ctx: ShapeContext,
): Promise<
  { result: CallToolResult; projected: unknown } | { problem: string } | { limit: string } | { dropped: string }
> {
  const input = selectInput(raw);
  if (!input) return { problem: PLAIN_TEXT_PROBLEM };
  // While it waits for an evaluator, the whole result is held: counted against its session.
  const held = ctx.budgets?.holdResult(ctx.sessionId, tool, approximateSize(raw));
  if (held && typeof held !== 'function') return { dropped: held.refused };
  try {
    const options: { signal?: AbortSignal; session: string } = { session: ctx.sessionId };
    if (ctx.signal) options.signal = ctx.signal;
    const outcome = await ctx.select.run(input, expression, options);
    if (outcome.ok) return projectionResult(outcome.json);
    return outcome.limit ? { limit: outcome.problem } : { problem: outcome.problem };
  } finally {
    held?.();
  }
}

/** A result dropped because its session holds too many waiting for select: an error naming the limit. */
function droppedResult(refused: string): Shaped {
  const result: CallToolResult = { content: [{ type: 'text', text: `[MCP Lens] ${refused}.` }], isError: true };
  const tokens = () => resultTokens(result);
  return shapedResult(result, true, tokens, tokens);
}

/** A select that broke a limit: an error naming it; the result the call returned is kept, so the call need not be repeated. */
function selectLimited(
  raw: CallToolResult,
  tool: string,
  problem: string,
  fullTokens: () => number,
  ctx: ShapeContext,
): Shaped {
  const keptAs = ctx.results.keep(ctx.sessionId, tool, raw, fullTokens());
  const where = keptAs
    ? `its whole result is kept for this session as ${keptAs}: read it with resources/read or read_result("${keptAs}") in run_code, or call again with a simpler "select".`
    : 'call again with a simpler "select".';
  const result: CallToolResult = {
    content: [{ type: 'text', text: `[MCP Lens] ${problem}. The call to ${tool} itself succeeded; ${where}` }],
    isError: true,
  };
  const shaped = shapedResult(result, true, fullTokens, () => resultTokens(result));
  if (keptAs) shaped.keptAs = keptAs;
  return shaped;
}

function shapedResult(
  result: CallToolResult,
  changed: boolean,
  fullTokens: () => number,
  returnedTokens: () => number,
): Shaped {
  return new LazyShaped(result, changed, fullTokens, returnedTokens);
}

/**
 * A class, not an object literal with getters: V8 builds such a literal on its slow path, which
 * shows in every call_tool's way back (a CPU profile of gatewayOverhead.ts finds it).
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
