/**
 * call_tool's side of the one call path: the meta-tool's own arguments (tool_name, arguments,
 * select, max_output_tokens), already checked against their schema (metaToolArgs.ts), then
 * forwardCall → Lens.callTool (app/toolCalls.ts owns every limit, check and the timeout), then
 * shaping for the model (core/resultShaping.ts). run_code's call_tool() goes through shapedCall
 * too. Tool arguments are never logged.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { CallOptions, Lens } from '../app/lens';
import type { SelectRunner } from '../adapters/select/selectRunner';
import type { UpstreamCaller } from '../adapters/upstream/types';
import { approximateSize } from '../core/approximateSize';
import { shapeResult, type ShapeRequest, type ShapeSteps, type Shaped } from '../core/resultShaping';
import type { CallToolArgs, ShapeArgs } from './metaToolArgs';
import { EVICTION_RULE, type ResultStore } from './resultStore';
import type { SessionBudgets } from './sessionBudgets';
import type { TokenAccounting } from './savings';
import type { ToolView } from './toolView';
import type { CallAudit } from './callAudit';
import { resultTokens as resultTokensOf } from '../core/resultShaping';
import { unknownToolMessage } from '../core/nameSuggestions';
import { visibleTools } from './toolView';

export interface MetaToolContext {
  lens: Lens;
  accounting: TokenAccounting;
  /** This gateway's kept results (cut outputs), read per session. */
  results: ResultStore;
  /** Where this gateway evaluates select projections. */
  select: SelectRunner;
  /** What each session holds in flight; a result waiting for select counts against its session. */
  budgets?: SessionBudgets;
  sessionId: string;
  signal: AbortSignal;
  onProgress?: CallOptions['onProgress'];
  /** Which caller the usage log and the call log name (default: the gateway). */
  origin?: CallOptions['origin'];
  /** The client behind this call, for what the upstream asks back (sampling, elicitation, roots, logs). */
  caller?: UpstreamCaller;
  /** The host lists the tool called and confirmed the call itself (CallOptions.hostConfirms). */
  hostConfirms?: boolean;
  /** An agent chose an upstream tool (call_tool, or a direct call): exposure found lists it. */
  onChosen?: CallOptions['onChosen'];
  /** The host's own tools/call, which is also how MCP Apps' views call (CallOptions.hostCall). */
  hostCall?: CallOptions['hostCall'];
  /** What a signed-in person may see and call (toolView.ts); absent: everything. */
  view?: ToolView;
  /** Where this session's calls are audited (a team's gateway); absent: they are not. */
  audit?: CallAudit;
}

export function errorText(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

export async function callToolMetaTool(args: CallToolArgs, ctx: MetaToolContext): Promise<CallToolResult> {
  const shape = shapeRequest(args, ctx.lens.settings().maxOutputTokens);
  const shaped = await shapedCall(args.tool_name, args.arguments ?? {}, shape, ctx);
  // A result passed on as it came costs no count: nothing was saved on it.
  if (shaped.changed && shaped.returnedTokens !== shaped.fullTokens)
    ctx.accounting.recordShaping(ctx.sessionId, shaped.fullTokens, shaped.returnedTokens);
  return shaped.result;
}

/** call_tool's shaping arguments as a request; `defaultMax` applies when max_output_tokens is absent. */
export function shapeRequest(args: ShapeArgs, defaultMax: number): ShapeRequest {
  const request: ShapeRequest = { maxOutputTokens: args.max_output_tokens ?? defaultMax };
  if (args.select !== undefined) request.select = args.select;
  return request;
}

/** Where this session's shaping evaluates projections and keeps cut results. */
export function shapeSteps(
  ctx: Pick<MetaToolContext, 'results' | 'sessionId' | 'select' | 'budgets'> & { signal?: AbortSignal },
  tool: string,
): ShapeSteps {
  return {
    select: async (raw, input, expression) => {
      // While it waits for an evaluator, the whole result is held: counted against its session.
      const held = ctx.budgets?.holdResult(ctx.sessionId, tool, approximateSize(raw));
      if (held && typeof held !== 'function') return held;
      try {
        const options: { signal?: AbortSignal; session: string } = { session: ctx.sessionId };
        if (ctx.signal) options.signal = ctx.signal;
        return await ctx.select.run(input, expression, options);
      } finally {
        held?.();
      }
    },
    keep: (result, fullTokens) => ctx.results.keep(ctx.sessionId, tool, result, fullTokens),
    keepRule: EVICTION_RULE,
  };
}

/** One call as call_tool makes it, for call_tool and for run_code's call_tool(): the call, then shaping. */
export async function shapedCall(
  toolName: string,
  args: Record<string, unknown>,
  shape: ShapeRequest,
  ctx: MetaToolContext,
): Promise<Shaped> {
  const startedAt = Date.now();
  const { result: raw, refused } = await checkedCall(toolName, args, ctx);
  const shaped = await shapeResult(raw, toolName, shape, shapeSteps(ctx, toolName));
  const via = ctx.origin === 'run_code' ? 'run_code' : 'call_tool';
  await ctx.audit?.record({
    via,
    name: toolName,
    args,
    result: shaped.result,
    refused,
    startedAt,
    resultTokens: shaped.returnedTokens,
  });
  return shaped;
}

/** A tool exposed directly (pinned, all, predictive modes), called by its own name: forwarded as it is. */
export async function directCall(
  toolName: string,
  args: Record<string, unknown>,
  ctx: MetaToolContext,
): Promise<CallToolResult> {
  const startedAt = Date.now();
  const { result, refused } = await checkedCall(toolName, args, ctx);
  if (ctx.audit) {
    const resultTokens = resultTokensOf(result);
    await ctx.audit.record({ via: 'tools/call', name: toolName, args, result, refused, startedAt, resultTokens });
  }
  return result;
}

/** The person's view first (toolView.ts): what it refuses never leaves MCP Lens. */
async function checkedCall(
  toolName: string,
  args: Record<string, unknown>,
  ctx: MetaToolContext,
): Promise<{ result: CallToolResult; refused: boolean }> {
  const refused = ctx.view && (ctx.hostCall ? hostCallRefusal : viewRefusal)(toolName, ctx.view, ctx.lens);
  if (refused) return { result: errorText(refused), refused: true };
  return { result: await forwardCall(toolName, args, ctx), refused: false };
}

/**
 * A call, once the person's view let it through: straight into the one call path,
 * Lens.callTool → app/toolCalls.ts.
 */
function forwardCall(toolName: string, args: Record<string, unknown>, ctx: MetaToolContext): Promise<CallToolResult> {
  const options: CallOptions = { signal: ctx.signal, sessionId: ctx.sessionId, origin: ctx.origin ?? 'gateway' };
  if (ctx.onProgress) options.onProgress = ctx.onProgress;
  if (ctx.caller) options.caller = ctx.caller;
  if (ctx.hostConfirms) options.hostConfirms = true;
  // What a run_code script runs is not listed as the host's own (gateway/foundTools.ts).
  if (ctx.onChosen && options.origin === 'gateway') options.onChosen = ctx.onChosen;
  if (ctx.hostCall) options.hostCall = ctx.hostCall;
  return ctx.lens.callTool(toolName, args, options);
}

/**
 * Why a signed-in person's call never leaves MCP Lens: a tool they may not see is unknown to them,
 * named with suggestions from what they see; a tool they see may still refuse them (toolView.ts).
 */
function viewRefusal(toolName: string, view: ToolView, lens: Lens): string | undefined {
  const tool = lens.findTool(toolName);
  if (!tool || !view.seesTool(tool))
    return unknownToolMessage(
      toolName,
      visibleTools(lens.tools(), view).map((t) => t.name),
    );
  return view.callRefusal(tool);
}

/**
 * A host's own tools/call may name what only a view calls (an app-only tool, a tool by its server's
 * own name: core/hostCalls.ts), which the call path resolves later: every tool it could resolve to
 * must be one the person sees, so a hidden server's same-named tool refuses the call rather than
 * let the call path pick between them.
 */
function hostCallRefusal(toolName: string, view: ToolView, lens: Lens): string | undefined {
  const named = lens.findTool(toolName) ?? lens.appTools().find((t) => t.name === toolName);
  const candidates = named ? [named] : [...lens.tools(), ...lens.appTools()].filter((t) => t.originalName === toolName);
  if (candidates.length === 0 || candidates.some((t) => !view.seesTool(t)))
    return unknownToolMessage(
      toolName,
      visibleTools(lens.tools(), view).map((t) => t.name),
    );
  for (const tool of candidates) {
    const refused = view.callRefusal(tool);
    if (refused) return refused;
  }
  return undefined;
}
