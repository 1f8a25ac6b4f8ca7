/**
 * The one facade the front doors use: the MCP gateway, the LSP connection, the CLI and the
 * dashboard's HTTP routes all drive the core through this interface and nothing else, so
 * none of them knows which other front door is in use. The two that own a Lens (the sidecar
 * session and the CLI) also steer it through `LensControl` (lensControl.ts).
 */
import type {
  CallToolResult,
  CompleteRequest,
  CompleteResult,
  GetPromptResult,
  LoggingLevel,
  ReadResourceResult,
} from '@modelcontextprotocol/sdk/types.js';
import type {
  ConsentView,
  IndexStatus,
  LearnedSearchView,
  SearchResponse,
  ServerStatus,
  UsageStats,
} from '../../../protocol/model';
import type { McpLensSettings } from '../../../protocol/settings';
import type { CatalogPrompt, CatalogResource, CatalogResourceTemplate, CatalogTool } from '../core/catalog';
import type { CallProgress, UpstreamCaller } from '../adapters/upstream/types';
import type { Principal } from '../core/principal';

export interface SearchRequest {
  query: string;
  keywords?: string[];
  server?: string;
  limit?: number;
  /** Gateway session, so usage prediction can use the session's history. */
  sessionId?: string;
  /** Only what the asker may see (a signed-in person's view, gateway/toolView.ts); absent: everything. */
  visible?: Visibility;
}

/** What one asker may see of the servers and tools (a signed-in person's team policy). */
export interface Visibility {
  seesServer(server: string): boolean;
  seesTool(tool: Pick<CatalogTool, 'server' | 'originalName'>): boolean;
}

/**
 * How a front door calls. There is no timeout here on purpose: the per-call timeout is the
 * mcpLens.callTimeoutSeconds setting, decided in one place (app/toolCalls.ts); a caller that
 * must stop sooner (a client's cancel, run_code's wall time) aborts `signal`.
 */
export interface CallOptions {
  signal?: AbortSignal;
  /** Upstream progress, passed through to the caller. */
  onProgress?: (progress: CallProgress) => void;
  sessionId?: string;
  /** Which front door made the call (recorded in usage, never the arguments). */
  origin?: 'gateway' | 'run_code' | 'dashboard' | 'palette' | 'cli';
  /**
   * The downstream client's side of this call: whom it acts for (which upstream connection the
   * call takes), and where the upstream's sampling, elicitation and roots requests and its log
   * messages go while it runs (app/upstreamRequests.ts). Absent: the workspace's call (the
   * dashboard, the palette, the terminal), which no one answers requests for.
   */
  caller?: UpstreamCaller;
  /**
   * The host listed this tool itself and confirmed the call by its own per-tool rules (a direct
   * call in the pinned, all, predictive and found modes): MCP Lens does not ask the user again.
   * Absent (call_tool, run_code): a session's call of a destructive tool asks (toolConsent.ts).
   */
  hostConfirms?: boolean;
  /**
   * Called once the agent's choice of tool and arguments passed the checks, before consent is
   * asked: exposure found lists the tool for the session from then on.
   */
  onChosen?: (tool: CatalogTool) => void;
  /**
   * Set on the host's own tools/call (a tool it lists, or an MCP App's view calling its server),
   * never on call_tool or run_code: it may name a tool only views call, or a tool by its server's
   * own name (core/hostCalls.ts). `viewUris`: the `ui://` views this session read. A call by a
   * name only views use is the user acting in the app: it is never asked about (toolConsent.ts).
   */
  hostCall?: { viewUris: readonly string[] };
}

/** What a server lists: tools, prompts or resources. */
export type ListKind = 'tools' | 'prompts' | 'resources';

/**
 * A downstream client session (one per gateway session), as upstream requests reach it outside
 * any one call; its `principal` is whom it acts for, decided by the front door.
 */
export type DownstreamClient = UpstreamCaller;

/**
 * The downstream side of what upstreams ask and send unasked: the gateway attaches each session
 * and passes on what its clients say about logging, roots and subscriptions.
 */
export interface DownstreamClients {
  /**
   * A session joined; the returned Disposable is called when it closes. When the last session of
   * a principal other than the workspace closes, the server processes it ran are stopped.
   */
  attach(client: DownstreamClient): Disposable;
  /** logging/setLevel of one session: its principal's upstreams get the most verbose level its sessions asked for. */
  setLogLevel(sessionId: string, level: LoggingLevel): void;
  /** The session's client sent notifications/roots/list_changed. */
  rootsChanged(sessionId: string): void;
  /** resources/subscribe of one of our resource URIs; the update notifications come to this session. */
  subscribe(sessionId: string, uri: string): Promise<void>;
  unsubscribe(sessionId: string, uri: string): Promise<void>;
}

export type LensChange = 'servers' | 'tools' | 'index' | 'usage' | 'settings' | 'consent';

export interface Disposable {
  dispose(): void;
}

export interface Lens {
  readonly workspaceFolder: string;
  settings(): McpLensSettings;
  /** Every configured server, including disabled and not-yet-approved ones. */
  servers(): ServerStatus[];
  /** Tools that pass include/exclude; excluded tools are not here at all. */
  tools(): CatalogTool[];
  /** Resolves a client-safe name; undefined for unknown or excluded tools. */
  findTool(name: string): CatalogTool | undefined;
  /**
   * Tools only an MCP App's view calls (`_meta.ui.visibility` without "model"): in no `tools()`,
   * search or agent's call; a host's own tools/call reaches them (CallOptions.hostCall).
   */
  appTools(): CatalogTool[];
  search(request: SearchRequest): Promise<SearchResponse>;
  /**
   * Calls an upstream tool by client-safe name. Unknown or excluded names, invalid
   * arguments, upstream errors and timeouts all come back as `isError` results.
   */
  callTool(name: string, args: Record<string, unknown>, options?: CallOptions): Promise<CallToolResult>;
  prompts(): CatalogPrompt[];
  /**
   * `principal`: whom the request is made for (its upstream connection); absent: the workspace.
   * `caller`: the client it is for, who answers what the upstream asks back meanwhile.
   */
  getPrompt(
    name: string,
    args: Record<string, string>,
    principal?: Principal,
    caller?: UpstreamCaller,
  ): Promise<GetPromptResult>;
  resources(): CatalogResource[];
  /** Every upstream's resource templates under MCP Lens's URI scheme. */
  resourceTemplates(): CatalogResourceTemplate[];
  /** Reads one of our resource URIs (listed, a template's expansion, or encoded whole). */
  readResource(uri: string, principal?: Principal, caller?: UpstreamCaller): Promise<ReadResourceResult>;
  /** completion/complete routed by its reference (our prompt name or resource template URI). */
  complete(params: CompleteRequest['params'], principal?: Principal): Promise<CompleteResult>;
  /** Whether the catalog is behind its servers (their changes are still being gathered): lists read now are about to change. */
  catalogBehind(): boolean;
  /** The shortest time an upstream says its list (`tools/list`, …) may be reused; undefined when none said. */
  upstreamListTtl(method: string): number | undefined;
  /** Where server-to-client requests and notifications meet the downstream sessions. */
  readonly clients: DownstreamClients;
  indexStatus(): IndexStatus;
  usageStats(): UsageStats | undefined;
  /** Client-safe names the session likely needs next (predictive exposure); none on a cold start or with usage off. */
  predictedTools(sessionId: string): string[];
  /** Deletes every recorded call (and what search learned from them). */
  clearUsage(): Promise<void>;
  /** What search learned from this workspace's use, per tool (mcpLens.search.learnFromUsage). */
  learnedSearch(): LearnedSearchView;
  /** Forgets everything search learned, in memory and on disk. */
  forgetLearnedSearch(): Promise<void>;
  /** The consent level in force and the tools the user allowed always in this workspace (app/toolConsent.ts). */
  consent(): ConsentView;
  /**
   * Forgets a principal's "always" for one tool (its catalog key): its next call asks again.
   * Only ever narrows what runs unasked; nothing grants consent but the user's answer to the
   * question itself.
   */
  revokeConsent(principal: string, key: string): Promise<void>;
  /** The user vouches for what search learned for a tool (its name, or the key the view listed): it counts for every session. */
  shareLearnedSearch(tool: string): Promise<void>;
  restartServer(name: string): Promise<void>;
  /**
   * Signs in to a remote server that needs an account (OAuth): the front door shows the
   * authorization page; resolves once signed in and reconnecting, rejects with the reason.
   */
  signIn(name: string, signal?: AbortSignal): Promise<void>;
  /** Forgets a remote server's tokens. */
  signOut(name: string): Promise<void>;
  reindex(): Promise<void>;
  updateSettings(settings: McpLensSettings): Promise<void>;
  onDidChange(listener: (change: LensChange) => void): Disposable;
  /**
   * Resolves once no server is starting, or once the bound on that wait has passed (a server
   * that hangs): what no one asked for waits for it (app/startupQuiet.ts).
   */
  whenServersStarted(): Promise<void>;
  /**
   * Resolves once no server that has not yet listed `kind` since MCP Lens started (and, for tools,
   * has none in the catalog cache either) is starting, or once the connect timeout has passed: a
   * client that asks once (a one-shot CLI) gets the whole first answer (app/firstListings.ts).
   */
  whenListed(kind: ListKind): Promise<void>;
  close(): Promise<void>;
}
