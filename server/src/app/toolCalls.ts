/**
 * THE one call path to an upstream tool: every front door (call_tool, direct calls in the
 * pinned/all/predictive modes, run_code's inner calls, the dashboard's "Try it", the palette)
 * ends here, so each rule of a call is decided once, in this order:
 *   name → catalog tool (unknown and excluded names are the same "unknown tool"; a name not in
 *   the catalog waits for servers still listing for the first time, app/firstListings.ts; a tool
 *   only MCP Apps' views call, core/mcpApps.ts, is refused to all but the host's own call, which
 *   may also name a tool by its server's own name, core/hostCalls.ts)
 *   → argument size (MAX_ARGUMENTS_BYTES) → schema validation → the user's consent, for a tool
 *   the host never showed them (toolConsent.ts; never for a view's own call: the user acts in
 *   the app) → the session's turn (round robin between sessions, UPSTREAM_CALL_TURNS) → timeout
 *   (the setting) → upstream → result size (MAX_RESULT_BYTES) → usage record (no argument
 *   values) and log.
 * Everything that can go wrong becomes an `isError` result whose text names the tool and
 * server and says what to do, because the caller is usually a model that can correct itself.
 * The upstream's own result, error or not, is returned as it came, but for one thing: every
 * string in it (text content, structuredContent, error messages) loses terminal escapes,
 * control characters other than tab/newline/CR, bidi controls and tag characters
 * (protocol/untrustedText.ts cleanReplyText), here, once, for every front door.
 */
import { createHash } from 'node:crypto';
import { McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { missingCapabilityMessage, requiredCapabilities } from '../core/revision/missingCapability';
import { MODERN_ERROR } from '../core/revision/revisions';
import type { CatalogTool } from '../core/catalog';
import { ArgsValidator } from '../core/argsValidation';
import type { CallOutcome } from '../core/usage/types';
import { unknownToolMessage } from '../core/nameSuggestions';
import type { Logger } from '../core/logger';
import type { UsageTracker } from '../usage/usageTracker';
import { UpstreamCallError, type UpstreamPool } from '../adapters/upstream/pool';
import type { CallOptions, Lens } from './lens';
import type { ToolConsent } from './toolConsent';
import { errorMessage } from '../core/errorMessage';
import { approximateSize } from '../core/approximateSize';
import { FairQueue } from '../core/fairQueue';
import { UPSTREAM_CALL_TURNS } from '../core/sessionLimits';
import { cleanReplyInPlace } from '../../../protocol/untrustedText';
import { resolveHostCall, type HostCallTarget } from '../core/hostCalls';
import type { Catalog } from './catalogBuilder';

/** Arguments above this size (as JSON) are refused before anything is sent upstream. */
export const MAX_ARGUMENTS_BYTES = 1024 * 1024;

/**
 * Results above this size are replaced by an error: no model can use 10 MB of tool output, and
 * passing it on would make every client hold it. Stdio servers cannot even send more (the
 * read limit, see adapters/upstream/stdioReader.ts); this covers HTTP upstreams the same way.
 */
const MAX_RESULT_BYTES = 10 * 1024 * 1024;

export interface ToolCallDeps {
  /**
   * `findTool` resolves a client-safe name, undefined for unknown AND excluded tools (exclude
   * is a boundary); the per-call timeout is read from `settings()` at each call, so a settings
   * change applies to the next one.
   */
  lens: Pick<Lens, 'findTool' | 'tools' | 'settings' | 'whenListed'>;
  /** The catalog in force: its tools only views call and its `ui://` views. */
  catalog(): Catalog;
  pool: UpstreamPool;
  log: Logger;
  /** Records each call that reached a real tool (usage learning hashes the arguments, never keeps them). */
  usage: Pick<UsageTracker, 'record'>;
  /** Asks the calling session's user before a tool the host never showed them runs. */
  consent: Pick<ToolConsent, 'check'>;
}

function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

export class ToolCalls {
  private readonly validator = new ArgsValidator();
  /** Upstream calls in flight, handed out round robin between sessions (UPSTREAM_CALL_TURNS). */
  private readonly turns = new FairQueue(UPSTREAM_CALL_TURNS);

  constructor(private readonly deps: ToolCallDeps) {}

  async call(name: string, args: Record<string, unknown>, options: CallOptions = {}): Promise<CallToolResult> {
    const startedAt = Date.now();
    const origin = options.origin ?? 'gateway';
    const target = await this.target(name, options);
    if ('problem' in target) {
      this.deps.log.info(`call unknown tool: invalid (${origin})`);
      return errorResult(target.problem);
    }
    const { tool, view } = target;
    const { result, outcome } = await this.run(tool, args, options, view === true);
    // Upstream replies are untrusted text on their way to an agent or a person.
    cleanReplyInPlace(result);
    const durationMs = Date.now() - startedAt;
    const sessionId = options.sessionId ?? `${origin}-default`;
    // Only an agent's calls through the gateway are judged against its find_tools answers (a
    // view's, by a name only views use, are not).
    const fromAgent = origin === 'gateway' && !view;
    this.deps.usage.record({
      sessionId,
      toolKey: tool.key,
      server: tool.server,
      startedAt,
      durationMs,
      outcome,
      args,
      fromAgent,
    });
    // A line per call is a trace (debug), not news (info: starts, stops, approvals). It goes
    // out once the reply is on its way: the CLI writes its log to stderr synchronously, and a
    // pipe write before the reply would hold every reply up.
    setImmediate(() =>
      this.deps.log.debug(`call ${tool.server}/${tool.originalName}: ${outcome} in ${durationMs} ms (${origin})`),
    );
    return result;
  }

  /** The tool `name` names for this caller, or why there is none (see the file comment). */
  private async target(name: string, options: CallOptions): Promise<HostCallTarget> {
    let found = this.lookup(name, options);
    if (!found && this.deps.lens.whenListed) {
      // A server still starting on a first run may list it: a one-shot client calls once.
      await this.deps.lens.whenListed('tools');
      found = this.lookup(name, options);
    }
    if (found) return found;
    const appOnly = this.deps.catalog().appTools.find((t) => t.name === name);
    if (appOnly)
      return {
        problem: `"${appOnly.name}" (server "${appOnly.server}") is called by its app's view only (_meta.ui.visibility "app"), never by an agent.`,
      };
    return {
      problem: unknownToolMessage(
        name,
        this.deps.lens.tools().map((t) => t.name),
      ),
    };
  }

  private lookup(name: string, options: CallOptions): HostCallTarget | undefined {
    if (!options.hostCall) {
      const tool = this.deps.lens.findTool(name);
      return tool && { tool };
    }
    const catalog = this.deps.catalog();
    return resolveHostCall(name, options.hostCall.viewUris, {
      findTool: (n) => this.deps.lens.findTool(n),
      tools: catalog.tools,
      appTools: catalog.appTools,
      viewServer: (uri) => catalog.ui.resolve(uri)?.server,
    });
  }

  private async run(
    tool: CatalogTool,
    args: Record<string, unknown>,
    options: CallOptions,
    viewCall: boolean,
  ): Promise<{ result: CallToolResult; outcome: CallOutcome }> {
    const refused = this.refusal(tool, args);
    if (refused) return { result: errorResult(refused), outcome: 'invalid' };
    // A view's own call (by a name only views use) is the user acting in the app the host shows:
    // the agent did not choose the tool, so found mode does not list it, and nobody is asked.
    if (!viewCall) options.onChosen?.(tool);
    const denied = viewCall ? undefined : await this.deps.consent.check(tool, args, options);
    if (denied) return { result: errorResult(denied), outcome: 'cancelled' };
    const timeoutMs = this.deps.lens.settings().callTimeoutSeconds * 1000;
    // The session's turn: its other calls may be ahead of this one, another session's never all.
    const release = await this.turns.acquire(
      options.sessionId ?? `${options.origin ?? 'gateway'}-default`,
      options.signal,
    );
    if (!release)
      return {
        result: errorResult(`The call to "${tool.originalName}" on server "${tool.server}" was cancelled.`),
        outcome: 'cancelled',
      };
    try {
      const callOptions: Parameters<UpstreamPool['callTool']>[3] = { timeoutMs };
      if (options.signal) callOptions.signal = options.signal;
      if (options.onProgress) callOptions.onProgress = options.onProgress;
      if (options.caller) callOptions.caller = options.caller;
      const result = await this.deps.pool.callTool(tool.server, tool.originalName, args, callOptions);
      const bytes = approximateSize(result, MAX_RESULT_BYTES);
      if (bytes > MAX_RESULT_BYTES) {
        const mb = (n: number) => (n / (1024 * 1024)).toFixed(1);
        const text = `The result of "${tool.originalName}" on server "${tool.server}" is over ${mb(bytes)} MB; the limit is ${mb(MAX_RESULT_BYTES)} MB, so it was dropped. Ask the tool for less (a smaller range, a filter, a page).`;
        return { result: errorResult(text), outcome: 'error' };
      }
      return { result, outcome: result.isError ? 'error' : 'ok' };
    } catch (err) {
      passOnMissingCapability(err, `"${tool.originalName}" on server "${tool.server}"`);
      return { result: errorResult(describeCallError(tool, err, timeoutMs)), outcome: outcomeOf(err) };
    } finally {
      release();
    }
  }

  /** Why these arguments never reach the server, or undefined when they may. */
  private refusal(tool: CatalogTool, args: Record<string, unknown>): string | undefined {
    let size: number;
    try {
      size = Buffer.byteLength(JSON.stringify(args), 'utf8');
    } catch {
      return `Arguments for "${tool.name}" cannot be serialized as JSON.`;
    }
    if (size > MAX_ARGUMENTS_BYTES)
      return `Arguments for "${tool.name}" are ${size} bytes; the limit is ${MAX_ARGUMENTS_BYTES} bytes (1 MB).`;
    const check = this.validator.check(`${tool.key}#${schemaHash(tool.inputSchema)}`, tool.inputSchema, args);
    if (check.ok === false) {
      const lines = check.problems.map((p) => `- ${p}`).join('\n');
      return `Invalid arguments for "${tool.name}" (server "${tool.server}"):\n${lines}\nCall get_tool_schema("${tool.name}") for the full schema.`;
    }
    if (check.ok === 'unchecked')
      this.deps.log.debug(`${tool.server}/${tool.originalName}: arguments not validated (${check.reason})`);
    return undefined;
  }
}

/**
 * A server that refused for want of a client capability (-32021): the caller's client gets that
 * protocol error, not a result, since only the client can fix it (core/revision/missingCapability.ts).
 */
export function passOnMissingCapability(err: unknown, what: string): void {
  if (!(err instanceof UpstreamCallError)) return;
  const required = requiredCapabilities(err.code, err.data);
  if (required)
    throw new McpError(MODERN_ERROR.missingClientCapability, missingCapabilityMessage(what, required), {
      requiredCapabilities: required,
    });
}

function describeCallError(tool: CatalogTool, err: unknown, timeoutMs: number): string {
  const where = `"${tool.originalName}" on server "${tool.server}"`;
  if (err instanceof UpstreamCallError) {
    switch (err.kind) {
      case 'timeout':
        return `The call to ${where} timed out after ${Math.round(timeoutMs / 1000)} s (mcpLens.callTimeoutSeconds). The server may still be working; try again or with smaller input.`;
      case 'cancelled':
        return `The call to ${where} was cancelled.`;
      case 'not-ready':
        return `Server "${tool.server}" is not ready (${err.message}). Use list_servers to see its state.`;
      case 'needs-sign-in':
        // No transport error, no URL, no token: what the agent can tell the user to do.
        return `Sign in to ${tool.server} first: the server needs an account. Ask the user to sign in (VS Code: "MCP Lens: Sign In to a Server" or Sign in in the status bar; terminal: \`mcp-lens login ${tool.server}\`), then call again.`;
      case 'disconnected':
        return `Server "${tool.server}" stopped during the call to ${where}: ${err.message}. MCP Lens is restarting it; retry shortly.`;
      case 'upstream-error':
        return `Server "${tool.server}" answered the call to ${where} with an error: ${err.message}`;
      case 'over-limit':
        return `The call to ${where} was refused: ${err.message}.`;
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

/** Per schema object: a catalog keeps its tools' schema objects until they change. */
const schemaHashes = new WeakMap<object, string>();

function schemaHash(schema: Record<string, unknown>): string {
  let hash = schemaHashes.get(schema);
  if (hash === undefined)
    schemaHashes.set(schema, (hash = createHash('sha1').update(JSON.stringify(schema)).digest('hex').slice(0, 12)));
  return hash;
}
