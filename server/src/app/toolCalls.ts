/**
 * One upstream tool call, from a client-safe name to an MCP result. Everything that can go
 * wrong before or during the call becomes an `isError` result whose text names the tool and
 * server and says what to do, because the caller is usually a model that can correct itself.
 * The upstream's own result, error or not, is returned untouched.
 */
import { createHash } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { CatalogTool } from '../core/catalog';
import type { ArgsValidator } from '../core/argsValidation';
import { closestNames } from '../core/nameSuggestions';
import type { Logger } from '../core/logger';
import { UpstreamCallError, type UpstreamPool } from '../adapters/upstream/pool';
import type { CallOptions } from './lens';
import { errorMessage } from '../core/errorMessage';

/** Arguments above this size are refused before anything is sent upstream. */
export const MAX_ARGUMENTS_BYTES = 1024 * 1024;

/**
 * Results above this size are replaced by an error: no model can use 10 MB of tool output, and
 * passing it on would make every client hold it. Stdio servers cannot even send more (the
 * SDK's read limit, see inFlightCalls.ts); this covers HTTP upstreams the same way.
 */
const MAX_RESULT_BYTES = 10 * 1024 * 1024;

export type CallOutcome = 'ok' | 'error' | 'timeout' | 'cancelled' | 'invalid';

export interface CallRecord {
  tool: CatalogTool | undefined;
  outcome: CallOutcome;
  startedAt: number;
  durationMs: number;
}

function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

export interface ToolCallDeps {
  pool: UpstreamPool;
  validator: ArgsValidator;
  log: Logger;
  findTool(name: string): CatalogTool | undefined;
  allNames(): string[];
  defaultTimeoutMs: number;
}

export async function callTool(
  deps: ToolCallDeps,
  name: string,
  args: Record<string, unknown>,
  options: CallOptions,
): Promise<{ result: CallToolResult; record: CallRecord }> {
  const startedAt = Date.now();
  const done = (result: CallToolResult, outcome: CallOutcome, tool?: CatalogTool) => ({
    result,
    record: { tool, outcome, startedAt, durationMs: Date.now() - startedAt },
  });
  const tool = deps.findTool(name);
  if (!tool) {
    const near = closestNames(name, deps.allNames());
    const hint = near.length ? ` Did you mean: ${near.join(', ')}?` : ' Use find_tools to search for the right tool.';
    return done(errorResult(`Unknown tool "${truncate(name, 100)}".${hint}`), 'invalid');
  }
  const size = Buffer.byteLength(JSON.stringify(args ?? {}), 'utf8');
  if (size > MAX_ARGUMENTS_BYTES) {
    return done(errorResult(`Arguments for "${tool.name}" are ${size} bytes; the limit is ${MAX_ARGUMENTS_BYTES} bytes (1 MB).`), 'invalid', tool);
  }
  const check = deps.validator.check(`${tool.key}#${schemaHash(tool.inputSchema)}`, tool.inputSchema, args ?? {});
  if (check.ok === false) {
    const lines = check.problems.map((p) => `- ${p}`).join('\n');
    return done(
      errorResult(`Invalid arguments for "${tool.name}" (server "${tool.server}"):\n${lines}\nCall get_tool_schema("${tool.name}") for the full schema.`),
      'invalid',
      tool,
    );
  }
  if (check.ok === 'unchecked') deps.log.debug(`${tool.server}/${tool.originalName}: arguments not validated (${check.reason})`);
  const timeoutMs = options.timeoutMs ?? deps.defaultTimeoutMs;
  try {
    const callOptions: Parameters<UpstreamPool['callTool']>[3] = { timeoutMs };
    if (options.signal) callOptions.signal = options.signal;
    if (options.onProgress) callOptions.onProgress = options.onProgress;
    const result = await deps.pool.callTool(tool.server, tool.originalName, args ?? {}, callOptions);
    const bytes = approximateSize(result, MAX_RESULT_BYTES);
    if (bytes > MAX_RESULT_BYTES) {
      const mb = (n: number) => (n / (1024 * 1024)).toFixed(1);
      const text = `The result of "${tool.originalName}" on server "${tool.server}" is over ${mb(bytes)} MB; the limit is ${mb(MAX_RESULT_BYTES)} MB, so it was dropped. Ask the tool for less (a smaller range, a filter, a page).`;
      return done(errorResult(text), 'error', tool);
    }
    return done(result, result.isError ? 'error' : 'ok', tool);
  } catch (err) {
    return done(errorResult(describeCallError(tool, err, timeoutMs)), outcomeOf(err), tool);
  }
}

function describeCallError(tool: CatalogTool, err: unknown, timeoutMs: number): string {
  const where = `"${tool.originalName}" on server "${tool.server}"`;
  if (err instanceof UpstreamCallError) {
    switch (err.kind) {
      case 'timeout':
        return `The call to ${where} timed out after ${Math.round(timeoutMs / 1000)} s. The server may still be working; try again or with smaller input.`;
      case 'cancelled':
        return `The call to ${where} was cancelled.`;
      case 'not-ready':
        return `Server "${tool.server}" is not ready (${err.message}). Use list_servers to see its state.`;
      case 'disconnected':
        return `Server "${tool.server}" stopped during the call to ${where}: ${err.message}. MCP Lens is restarting it; retry shortly.`;
      case 'upstream-error':
        return `Server "${tool.server}" answered the call to ${where} with an error: ${err.message}`;
    }
  }
  return `The call to ${where} failed: ${errorMessage(err)}`;
}

function outcomeOf(err: unknown): CallOutcome {
  if (err instanceof UpstreamCallError) {
    if (err.kind === 'timeout') return 'timeout';
    if (err.kind === 'cancelled') return 'cancelled';
  }
  return 'error';
}

function schemaHash(schema: unknown): string {
  return createHash('sha1').update(JSON.stringify(schema)).digest('hex').slice(0, 12);
}

/** Bytes of the strings in a value (what dominates its JSON size); stops counting past `cap`. */
function approximateSize(value: unknown, cap: number): number {
  let total = 0;
  const stack: unknown[] = [value];
  while (stack.length && total <= cap) {
    const v = stack.pop();
    if (typeof v === 'string') total += v.length;
    else if (Array.isArray(v)) stack.push(...v);
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) (total += k.length), stack.push(x);
    else total += 8;
  }
  return total;
}

function truncate(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n)}…` : s;
}
