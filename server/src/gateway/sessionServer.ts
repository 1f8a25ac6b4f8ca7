/**
 * One MCP `Server` per client session, wired to the gateway: tools (meta-tools and, by
 * exposure mode, direct tools), prompts and resources under their prefixed names. The
 * low-level Server is used because every list here is dynamic and the schemas are the
 * upstreams' own JSON Schemas.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  RootsListChangedNotificationSchema,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type CallToolRequest,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { Lens } from '../app/lens';
import { listedPrompt, listedResource, listedTemplate } from '../core/catalog';
import type { Logger } from '../core/logger';
import type { Principal } from '../core/principal';
import { gatewayInstructions } from './instructions';
import { RESULT_URI_PREFIX, type ResultStore } from './resultStore';
import { keptResourceList, readKeptResource } from './keptResources';
import { runMetaTool } from './metaTools';
import { directCall, type MetaToolContext } from './callTool';
import type { CallAudit } from './callAudit';
import { callCaller, type CallExtra } from './downstreamClient';
import type { CodeRuns } from './runCode';
import type { SessionBudgets } from './sessionBudgets';
import type { SelectRunner } from '../adapters/select/selectRunner';
import { recordAgentRequest, type TokenAccounting } from './savings';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { CatalogTool } from '../core/catalog';
import { errorMessage } from '../core/errorMessage';
import { cleanReplyText } from '../../../protocol/untrustedText';
import type { ListKind } from '../app/lens';
import { SessionViews } from './sessionViews';
import { listsUpstreamTools } from './exposure';
import type { ToolView } from './toolView';
import { parseResourceUri } from '../core/resourceUris';
import { MODERN_ERROR } from '../core/revision/revisions';
import { isUiUri, rendersApps, toolViewUri } from '../core/mcpApps';

export interface SessionDeps {
  lens: Lens;
  /** Whom this session acts for (the front door decides: gateway.ts): its upstream connections and roots. */
  principal: Principal;
  /** What a signed-in person may see (toolView.ts); absent: everything. */
  view?: ToolView;
  /** Where the session's tool calls are audited (a team's gateway). */
  audit?: CallAudit;
  accounting: TokenAccounting;
  /** Cut results kept whole, listed and read as this session's own resources. */
  results: ResultStore;
  /** Where select projections run (off this process, bounded). */
  select: SelectRunner;
  /** run_code scripts running in this gateway. */
  codeRuns: CodeRuns;
  /** What each session holds in flight (calls, results waiting for select), against its limits. */
  budgets: SessionBudgets;
  log: Logger;
  version: string;
  /** This session's tools/list (depends on exposure mode and, for predictive, on the session). */
  /** `rendersApps`: the client renders MCP Apps (it gets what their views call: exposure.ts). */
  toolsFor(sessionId: string, rendersApps: boolean): Tool[];
  /** Called after each tool call (predictive mode may change the list). */
  afterCall(sessionId: string): void;
  /** Whether this session's tools/list holds this upstream tool (the host confirms its calls itself). */
  lists(sessionId: string, name: string): boolean;
  /** An agent chose an upstream tool to call (found mode lists it). */
  chosen(sessionId: string, tool: CatalogTool): void;
  /** A client asked for what the servers give: a list, or a tool call (`serve` starts them then). */
  askedForTools(): void;
}

/** `sessionId()` is read lazily: streamable HTTP assigns the id while handling initialize. */
export function createSessionServer(deps: SessionDeps, sessionId: () => string): Server {
  const { lens, view } = deps;
  const sees = (server: string) => !view || view.seesServer(server);
  const server = new Server(
    { name: 'mcp-lens', version: deps.version },
    {
      capabilities: {
        tools: { listChanged: true },
        prompts: { listChanged: true },
        resources: { listChanged: true, subscribe: true },
        logging: {},
        completions: {},
      },
      instructions: gatewayInstructions(
        lens
          .servers()
          .map((s) => s.name)
          .filter(sees),
        lens.settings().codeMode.enabled,
      ),
    },
  );
  // The MCP Apps views this session read: whose views its host's calls can come from (core/hostCalls.ts).
  const views = new SessionViews();
  registerTools(server, deps, sessionId, views);
  registerPrompts(server, deps, sessionId);
  registerResources(server, deps, sessionId, views);
  registerClientFeatures(server, deps, sessionId);
  return server;
}

/**
 * The servers a resource URI reads from: its server under MCP Lens's scheme, or an MCP App's view,
 * by the URI hosts read it by (the catalog's tools and resources name each view's one server).
 */
function uriServers(lens: Lens, uri: string): string[] {
  const target = parseResourceUri(uri);
  if (target) return [target.server];
  if (!isUiUri(uri)) return [];
  const servers = new Set<string>();
  for (const t of [...lens.tools(), ...lens.appTools()]) if (toolViewUri(t._meta) === uri) servers.add(t.server);
  for (const r of lens.resources()) if (r.uri === uri) servers.add(r.server);
  return [...servers];
}

/** A first answer holds what servers still starting for the first time list (app/firstListings.ts). */
async function listed<T>(deps: SessionDeps, kind: ListKind, list: () => T): Promise<T> {
  deps.askedForTools();
  if (kind !== 'tools' || listsUpstreamTools(deps.lens.settings())) await deps.lens.whenListed(kind);
  return list();
}

function registerTools(server: Server, deps: SessionDeps, sessionId: () => string, views: SessionViews): void {
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: await listed(deps, 'tools', () => deps.toolsFor(sessionId(), rendersApps(server.getClientCapabilities()))),
  }));
  const callTool = toolCallHandler(deps, server, sessionId, views);
  server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    callTool(request.params, extra as unknown as CallExtra),
  );
}

/** Prompts under their client-safe names, in the protocol's shape (the SDK's); a failure names the prompt. */
function registerPrompts(server: Server, deps: SessionDeps, sessionId: () => string): void {
  const { lens, principal, view } = deps;
  const sees = (server: string) => !view || view.seesServer(server);
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: (await listed(deps, 'prompts', () => lens.prompts())).filter((p) => sees(p.server)).map(listedPrompt),
  }));
  server.setRequestHandler(GetPromptRequestSchema, async (request, extra) => {
    const prompt = lens.prompts().find((p) => p.name === request.params.name);
    if (prompt && !sees(prompt.server))
      throw new McpError(ErrorCode.InvalidParams, `prompt "${request.params.name}": unknown prompt`);
    try {
      const caller = callCaller(server, sessionId(), principal, extra as unknown as CallExtra);
      return await lens.getPrompt(request.params.name, request.params.arguments ?? {}, principal, caller);
    } catch (err) {
      if (isProtocolRefusal(err)) throw err;
      // The reason may be the upstream's own error text: cleaned as its replies are (app/lensApp.ts).
      throw new McpError(
        ErrorCode.InvalidParams,
        `prompt "${request.params.name}": ${cleanReplyText(errorMessage(err))}`,
      );
    }
  });
}

/** The upstreams' resources and templates under mcp-lens:// URIs, and this session's kept results. */
function registerResources(server: Server, deps: SessionDeps, sessionId: () => string, views: SessionViews): void {
  const { lens, view } = deps;
  const sees = (server: string) => !view || view.seesServer(server);
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: [
      ...(await listed(deps, 'resources', () => lens.resources())).filter((r) => sees(r.server)).map(listedResource),
      ...keptResourceList(deps.results, sessionId()),
    ],
  }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: lens
      .resourceTemplates()
      .filter((t) => sees(t.server))
      .map(listedTemplate),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    if (request.params.uri.startsWith(RESULT_URI_PREFIX))
      return readKeptResource(deps.results, sessionId(), request.params.uri);
    const servers = uriServers(lens, request.params.uri);
    if (view && (servers.length === 0 || !servers.every(sees)))
      throw new McpError(ErrorCode.InvalidParams, `resource "${request.params.uri}": unknown resource`);
    try {
      const read = await lens.readResource(
        request.params.uri,
        deps.principal,
        callCaller(server, sessionId(), deps.principal, extra as unknown as CallExtra),
      );
      views.read(request.params.uri);
      return read;
    } catch (err) {
      if (isProtocolRefusal(err)) throw err;
      throw new McpError(
        ErrorCode.InvalidParams,
        `resource "${request.params.uri}": ${cleanReplyText(errorMessage(err))}`,
      );
    }
  });
}

/**
 * What a session does with a tools/call: meta-tools, or a direct tool (pinned, all, predictive)
 * forwarded through the Lens, with what the upstream asks back related to this call.
 */
function toolCallHandler(
  deps: SessionDeps,
  server: Server,
  sessionId: () => string,
  views: SessionViews,
): (params: CallToolRequest['params'], extra: CallExtra) => Promise<CallToolResult> {
  const { lens } = deps;
  return async (params, extra) => {
    const { name } = params;
    const args = params.arguments ?? {};
    const progressToken = params._meta?.progressToken;
    deps.askedForTools();
    const entered = deps.budgets.enterCall(sessionId());
    if (typeof entered !== 'function') return { content: [{ type: 'text', text: entered.refused }], isError: true };
    const ctx: MetaToolContext & { codeRuns: CodeRuns } = {
      lens,
      accounting: deps.accounting,
      results: deps.results,
      select: deps.select,
      budgets: deps.budgets,
      codeRuns: deps.codeRuns,
      ...(deps.view && { view: deps.view }),
      ...(deps.audit && { audit: deps.audit }),
      sessionId: sessionId(),
      signal: extra.signal,
      // What the upstream asks back while this call runs comes to this client, related to this call.
      caller: callCaller(server, sessionId(), deps.principal, extra),
      onChosen: (tool) => deps.chosen(sessionId(), tool),
    };
    if (progressToken !== undefined) {
      ctx.onProgress = (p) => {
        const params: { progressToken: string | number; progress: number; total?: number; message?: string } = {
          progressToken,
          progress: p.progress,
        };
        if (p.total !== undefined) params.total = p.total;
        if (p.message !== undefined) params.message = p.message;
        extra.sendNotification({ method: 'notifications/progress', params }).catch(() => undefined);
      };
    }
    try {
      // Direct calls (pinned, all, predictive, found) go straight to the Lens, which answers unknown
      // names with the closest real ones. The host confirmed a call of a tool it lists by its own
      // rules; a view's own call (a name only views use) is the user acting in the app; any other
      // is asked about as call_tool's are (app/toolConsent.ts).
      const result =
        (await runMetaTool(name, args, ctx)) ??
        (await directCall(name, args, {
          ...ctx,
          hostConfirms: deps.lists(sessionId(), name),
          hostCall: { viewUris: views.uris() },
        }));
      recordAgentRequest(
        deps.accounting,
        () => deps.accounting.catalogCost(lens.tools())?.baselineTokens,
        ctx.sessionId,
        name,
        result,
      );
      return result;
    } catch (err) {
      if (isProtocolRefusal(err)) throw err;
      // The Lens turns failures into results; anything else is a bug, reported with context.
      deps.log.error(`gateway: tools/call ${name} failed: ${errorMessage(err)}`);
      return {
        content: [{ type: 'text', text: `MCP Lens failed to run "${name}": ${errorMessage(err)}` }],
        isError: true,
      };
    } finally {
      entered();
      deps.afterCall(sessionId());
    }
  };
}

/** An upstream's refusal only the client can fix (a capability it must declare): passed on as that error. */
function isProtocolRefusal(err: unknown): boolean {
  return err instanceof McpError && err.code === MODERN_ERROR.missingClientCapability;
}

/** Logging, completions, subscriptions and roots: passed on through the Lens to the upstreams. */
function registerClientFeatures(server: Server, { lens, principal }: SessionDeps, sessionId: () => string): void {
  const upstreamError = (what: string, err: unknown) =>
    err instanceof McpError
      ? err
      : new McpError(ErrorCode.InvalidParams, `${what}: ${cleanReplyText(errorMessage(err))}`);

  server.setRequestHandler(SetLevelRequestSchema, async (request) => {
    lens.clients.setLogLevel(sessionId(), request.params.level);
    return {};
  });

  server.setRequestHandler(CompleteRequestSchema, async (request) => {
    try {
      return await lens.complete(request.params, principal);
    } catch (err) {
      throw upstreamError('completion', err);
    }
  });

  server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    if (request.params.uri.startsWith(RESULT_URI_PREFIX)) return {}; // kept results never change
    try {
      await lens.clients.subscribe(sessionId(), request.params.uri);
      return {};
    } catch (err) {
      throw upstreamError(`resource "${request.params.uri}"`, err);
    }
  });

  server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
    if (request.params.uri.startsWith(RESULT_URI_PREFIX)) return {};
    try {
      await lens.clients.unsubscribe(sessionId(), request.params.uri);
      return {};
    } catch (err) {
      throw upstreamError(`resource "${request.params.uri}"`, err);
    }
  });

  server.setNotificationHandler(RootsListChangedNotificationSchema, async () => lens.clients.rootsChanged(sessionId()));
}
