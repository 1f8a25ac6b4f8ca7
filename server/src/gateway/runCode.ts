/**
 * The run_code meta-tool: one JavaScript program that chains tool calls in a WebAssembly
 * QuickJS sandbox on a worker thread (adapters/sandbox), where only the return value and the
 * logs come back to the model. Every call a script makes is a call_tool call by construction — the same
 * shapedCall → Lens.callTool → app/toolCalls.ts path — so exclusion, schema validation,
 * approval state (only running, approved servers have tools), usage recording without
 * argument values and the per-call timeout are the same as for call_tool.
 * What a script hands back (its return value, its console.log lines, the error that stopped
 * it) is cleaned as an upstream's reply is (protocol/untrustedText.ts) before anything else
 * sees it: a script can JSON.parse a reply's text, which turns `\u001b` or `\u202e` written as
 * JSON escapes into the characters the cleaned text did not hold.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { SandboxError, SandboxRun } from '../adapters/sandbox/quickjsSandbox';
import { ScriptWorkers, type ScriptRunner } from '../adapters/sandbox/scriptWorkers';
import { FairQueue, type Release } from '../core/fairQueue';
import { MAX_OUTPUT_TOKENS, resultJson, resultText, shapeResult } from '../core/resultShaping';
import { MAX_ARGUMENTS_BYTES } from '../app/toolCalls';
import { visibleTools } from './toolView';
import { errorText, shapeRequest, shapeSteps, shapedCall, type MetaToolContext } from './callTool';
import { EVICTION_RULE } from './resultStore';
import { RUN_CODE_LIMITS, ScriptCallArgs, parseArgs, type RunCodeArgs } from './metaToolArgs';
import { truncateDescription } from './findToolsResult';
import { cleanReplyInPlace } from '../../../protocol/untrustedText';

/**
 * Where a gateway's scripts run (worker threads, adapters/sandbox/scriptWorkers.ts) and whose
 * turn it is: RUN_CODE_LIMITS.maxConcurrent at once, perSession of them for one session, the
 * rest waiting round robin between sessions.
 */
export class CodeRuns {
  private readonly turns = new FairQueue({ slots: RUN_CODE_LIMITS.maxConcurrent, perKey: RUN_CODE_LIMITS.perSession });

  constructor(readonly sandbox: ScriptRunner = new ScriptWorkers({ maxWorkers: RUN_CODE_LIMITS.maxConcurrent })) {}

  /** Waits for the session's turn; undefined when the client cancelled first. */
  turn(sessionId: string, signal?: AbortSignal): Promise<Release | undefined> {
    return this.turns.acquire(sessionId, signal);
  }

  /** Starts a worker before the first script, so that script does not wait for one. */
  warm(): void {
    this.sandbox.warm();
  }

  close(): void {
    this.sandbox.close();
  }
}

export async function runCode(
  { code, timeout_ms: timeout }: RunCodeArgs,
  ctx: MetaToolContext & { codeRuns: CodeRuns },
): Promise<CallToolResult> {
  const settings = ctx.lens.settings();
  // Types, the length cap and the 1000 ms floor are the schema's (metaToolArgs.ts); blank code and the user's ceiling are not.
  if (code.trim() === '') {
    return errorText(
      'run_code needs "code": the body of an async JavaScript function, e.g. `const r = await call_tool("x_list", {}); return r.items.length;`',
    );
  }
  const maxTimeout = settings.codeMode.maxTimeoutMs;
  if (timeout !== undefined && timeout > maxTimeout) {
    return errorText(`"timeout_ms" must be an integer from 1000 to ${maxTimeout} (mcpLens.codeMode.maxTimeoutMs).`);
  }
  const release = await ctx.codeRuns.turn(ctx.sessionId, ctx.signal);
  if (!release) return errorText('run_code was cancelled before the script started.');
  let innerTokens = 0;
  let run: SandboxRun;
  try {
    const wallTimeMs = timeout ?? Math.min(RUN_CODE_LIMITS.defaultTimeoutMs, maxTimeout);
    run = await ctx.codeRuns.sandbox.run(
      code,
      {
        toolNames: visibleTools(ctx.lens.tools(), ctx.view).map((t) => t.name),
        callTool: async (name, toolArgs, options, signal) => {
          const call = parseArgs(`call_tool("${truncateDescription(name, 100)}")`, ScriptCallArgs, {
            ...(isRecord(options) ? options : {}),
            tool_name: name,
            arguments: toolArgs,
          });
          if (!call.ok) throw new Error(call.problem);
          const { tool_name: tool, arguments: callArgs = {} } = call.args;
          // The script's own signal: its wall time or a cancel ends the calls it has in flight.
          const shaped = await shapedCall(tool, callArgs, shapeRequest(call.args, MAX_OUTPUT_TOKENS), {
            ...ctx,
            signal,
            origin: 'run_code',
          });
          // What this result would have cost through call_tool, one step at a time.
          innerTokens += Math.min(shaped.fullTokens, settings.maxOutputTokens);
          if (shaped.result.isError) throw new Error(resultText(shaped.result));
          return shaped.projected ? shaped.projected.value : scriptValue(shaped.result);
        },
        readResult: async (uri) => {
          const kept = ctx.results.get(ctx.sessionId, uri);
          if (!kept) throw new Error(`Result "${uri.slice(0, 120)}" is not kept for this session (${EVICTION_RULE}).`);
          return scriptValue(kept.result);
        },
      },
      {
        wallTimeMs,
        memoryBytes: RUN_CODE_LIMITS.memoryBytes,
        maxCalls: RUN_CODE_LIMITS.maxCalls,
        maxOutputChars: RUN_CODE_LIMITS.maxOutputChars,
        maxLogChars: RUN_CODE_LIMITS.maxLogChars,
        maxArgsChars: MAX_ARGUMENTS_BYTES,
      },
      ctx.signal,
    );
  } finally {
    release();
  }
  // Every string in the run: value (parsed from the sandbox's JSON, keys too), logs, error.
  cleanReplyInPlace(run);
  const raw = run.ok ? successResult(run) : failureResult(run.error!, run.logs, maxTimeout);
  const shaped = await shapeResult(
    raw,
    'run_code',
    { maxOutputTokens: settings.maxOutputTokens },
    shapeSteps(ctx, 'run_code'),
  );
  ctx.accounting.recordRunCode(ctx.sessionId, run.calls, innerTokens, shaped.returnedTokens);
  return shaped.result;
}

/**
 * What call_tool() gives a script: structuredContent when the tool has it (its output schema
 * describes it), else the text — parsed when it is JSON — else the content items.
 */
export function scriptValue(result: CallToolResult): unknown {
  const json = resultJson(result);
  if (json) return json.value;
  const content = result.content ?? [];
  if (content.every((c) => c.type === 'text')) return resultText(result);
  return content;
}

function successResult(run: SandboxRun): CallToolResult {
  const value =
    run.value === undefined
      ? 'undefined (the script returned nothing)'
      : typeof run.value === 'string'
        ? run.value
        : JSON.stringify(run.value);
  const content: CallToolResult['content'] = [{ type: 'text', text: value }];
  if (run.logs.length) content.push({ type: 'text', text: `console.log:\n${run.logs.join('\n')}` });
  return { content };
}

const LIMIT_HINTS: Partial<Record<SandboxError['kind'], (maxTimeout: number) => string>> = {
  'wall-time': (max) =>
    `Pass a larger timeout_ms (at most ${max}, mcpLens.codeMode.maxTimeoutMs) or do less in one run.`,
  memory: () =>
    `The limit is ${RUN_CODE_LIMITS.memoryBytes / (1024 * 1024)} MB: keep fewer or smaller values (use select in call_tool to fetch less).`,
  calls: () => `Split the work into several run_code calls of at most ${RUN_CODE_LIMITS.maxCalls} tool calls each.`,
  output: () => 'Return a summary, a count or the fields you need instead.',
  'never-settles': () => 'Await only tool calls: a script has no timers or events.',
};

function failureResult(error: SandboxError, logs: string[], maxTimeout: number): CallToolResult {
  const where = error.line !== undefined ? ` (line ${error.line}, column ${error.column})` : '';
  const label = error.kind === 'syntax' || error.kind === 'runtime' ? `${error.kind} error` : `${error.kind} limit`;
  const hint = LIMIT_HINTS[error.kind]?.(maxTimeout);
  const lines = [`run_code failed, ${label}${where}: ${error.message}.${hint ? ` ${hint}` : ''}`];
  if (logs.length) lines.push(`console.log before it stopped:\n${logs.join('\n')}`);
  return errorText(lines.join('\n'));
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
