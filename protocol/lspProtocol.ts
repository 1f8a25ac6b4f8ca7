/**
 * The sidecar's custom LSP messages, each declared once as a vscode-jsonrpc `RequestType` /
 * `NotificationType` (as vscode-eslint's customMessages.ts and rust-analyzer's lsp_ext.ts do):
 * method string `mcpLens/verb`, params, result, and which way it goes. The client and the
 * server both use these objects — `sendRequest(SearchRequest, params)`,
 * `onRequest(SearchRequest, handler)` — never a method string, so a payload that does not match
 * is a type error on both ends. A client → server message with params declares them as a zod
 * schema and is a CheckedRequest / CheckedNotification: the params type is the schema's, and the
 * sidecar checks every message against it before its handler runs (server/src/lsp/connection.ts).
 * Add a message here, list it in LSP_MESSAGES at the bottom, and test/unit/lspContract.test.ts
 * checks that both sides handle it.
 *
 * vscode-jsonrpc resolves to its Node build here (client and sidecar are Node); the webview
 * does not import this file (lint: webview imports only the plain-type protocol files).
 */
import { NotificationType, RequestType, RequestType0 } from 'vscode-jsonrpc';
import * as z from 'zod/mini';
import type {
  ConfigProblem,
  IndexStatus,
  LensStats,
  SearchResponse,
  ServerStatus,
  ToolCallOutcome,
  ToolSummary,
} from './model';
import type { McpLensSettings } from './settings';
import { ToolFilterLevelsSchema } from './settings';
import { DASHBOARD_METHODS } from './webviewProtocol';

/** A client → server request whose params the sidecar checks against `params` before its handler runs. */
export class CheckedRequest<S extends z.ZodMiniType, R> extends RequestType<z.output<S>, R, void> {
  constructor(
    method: string,
    readonly params: S,
  ) {
    super(method);
  }
}

/** A client → server notification whose params the sidecar checks against `params` before its handler runs. */
export class CheckedNotification<S extends z.ZodMiniType> extends NotificationType<z.output<S>> {
  constructor(
    method: string,
    readonly params: S,
  ) {
    super(method);
  }
}

const strings = () => z._default(z.record(z.string(), z.string()), {});

/**
 * The settings as the client sanitized them (protocol/settings.ts). The sidecar sanitizes them
 * again on arrival, with its own environment (OLLAMA_HOST), so any object passes here.
 */
const SettingsParam = z.custom<McpLensSettings>();

/** One folder of the open workspace, as the editor has it. */
const WorkspaceFolderInfo = z.object({
  /** Absolute path. */
  path: z.string().check(z.minLength(1)),
  /** Its name in the workspace: the basename, unless the `.code-workspace` file names it. */
  name: z.string(),
  /**
   * Multi-root workspaces: `mcpLens.servers` set in this folder's own settings
   * (`<folder>/.vscode/settings.json`), which the window's settings do not include; sanitized
   * as the settings are, on arrival.
   */
  servers: z.exactOptional(z.record(z.string(), z.unknown())),
});
export type WorkspaceFolderInfo = z.output<typeof WorkspaceFolderInfo>;

/** Passed as `initializationOptions` when the client starts the sidecar. */
export const SidecarInitOptions = z.object({
  /** The extension's workspace storage folder (the tool index and usage live here). */
  storageDir: z.string().check(z.minLength(1)),
  /** Absolute paths of the workspace folders, in order. */
  workspaceFolders: z._default(z.array(z.string()), []),
  /**
   * The same folders with their names and own settings. With two or more, each folder's config
   * is read as its own and its servers are named `<folder>/<server>` (README "Multi-root
   * workspaces"). Absent: the folders' basenames, no folder settings.
   */
  folders: z.exactOptional(z.array(WorkspaceFolderInfo)),
  settings: SettingsParam,
  /**
   * Which of `settings.include`/`exclude` the user's own settings set and which the workspace's
   * files do: a workspace change that shows more tools waits for the user's approval.
   */
  toolFilterLevels: z.exactOptional(ToolFilterLevelsSchema),
  /** Whether the workspace is trusted; untrusted workspaces start no workspace-configured server. */
  trusted: z._default(z.boolean(), false),
  /**
   * Fingerprints of server definitions the user approved (server name, folder-qualified in a
   * multi-root workspace → fingerprint), and under TOOL_FILTER_APPROVAL_NAME the workspace's
   * include/exclude last accepted (what a restarted sidecar starts from).
   */
  approvals: strings(),
  /** `${input:id}` values from SecretStorage. */
  inputs: strings(),
  /**
   * The gateway's launch details, kept by the client across sidecar restarts so the MCP server
   * definition VS Code holds stays valid: the bearer token, and the port the last sidecar
   * listened on (tried first; any free port when it is taken).
   */
  gateway: z.exactOptional(
    z.object({ token: z.string(), port: z.exactOptional(z.int().check(z.minimum(1), z.maximum(65535))) }),
  ),
});
export type SidecarInitOptions = z.output<typeof SidecarInitOptions>;

// client → server requests

export const SearchParams = z.object({
  query: z.string(),
  limit: z.exactOptional(z.int().check(z.minimum(1))),
  server: z.exactOptional(z.string()),
});
export type SearchParams = z.output<typeof SearchParams>;
export type SearchResult = SearchResponse;
/** The palette's live search (the same ranking find_tools uses). */
export const SearchRequest = new CheckedRequest<typeof SearchParams, SearchResult>('mcpLens/search', SearchParams);

export type ListToolsResult = ToolSummary[];
/** Every tool of the catalog, with its schema. */
export const ListToolsRequest = new RequestType0<ListToolsResult, void>('mcpLens/listTools');

export const CallToolParams = z.object({ name: z.string(), arguments: z.record(z.string(), z.unknown()) });
export type CallToolParams = z.output<typeof CallToolParams>;
export type CallToolResultPayload = ToolCallOutcome;
/** A tool call a person makes from the palette ("Try it"); tool errors come back as `isError`. */
export const CallToolRequest = new CheckedRequest<typeof CallToolParams, CallToolResultPayload>(
  'mcpLens/callTool',
  CallToolParams,
);

export type ServersResult = ServerStatus[];
export const ServersRequest = new RequestType0<ServersResult, void>('mcpLens/servers');

/**
 * One dashboard request (protocol/webviewProtocol.ts), relayed from the webview panel; its
 * params are the dashboard handlers' to check, as they are for the browser's.
 */
export const DashboardCall = z.object({ method: z.enum(DASHBOARD_METHODS), params: z.exactOptional(z.unknown()) });
export type DashboardCall = z.output<typeof DashboardCall>;
/**
 * The dashboard's requests, answered in the sidecar by the same handlers as the browser
 * dashboard's HTTP routes; the result is that method's DashboardResult.
 */
export const DashboardRequest = new CheckedRequest<typeof DashboardCall, unknown>('mcpLens/dashboard', DashboardCall);

export interface GatewayInfo {
  url: string;
  token: string;
  /** Changes whenever the set of exposed tools changes. */
  catalogVersion: string;
}
/** The gateway's URL and token, asked for once the sidecar runs (later ones come with stateChanged). */
export const GatewayInfoRequest = new RequestType0<GatewayInfo, void>('mcpLens/gatewayInfo');

/** A server by its name (restart, sign in, sign out). */
export const ServerNameParams = z.object({ name: z.string() });
export type RestartServerParams = z.output<typeof ServerNameParams>;
export const RestartServerRequest = new CheckedRequest<typeof ServerNameParams, null>(
  'mcpLens/restartServer',
  ServerNameParams,
);

/** Reloads the configuration and re-syncs the index. */
export const ReindexRequest = new RequestType0<null, void>('mcpLens/reindex');
/** Pulls the embedding model; progress comes as PullProgressNotification, the answer when it ends. */
export const PullModelRequest = new RequestType0<null, void>('mcpLens/pullModel');
export const ClearUsageRequest = new RequestType0<null, void>('mcpLens/clearUsage');

/**
 * Hold reloads of config files while the client edits several of them as one change ("Move
 * into MCP Lens" writes settings and .vscode/mcp.json), then apply the result once on release,
 * so no half-edited state (a server declared twice) is ever loaded. A hold the client never
 * releases ends by itself after a few seconds.
 */
export const HoldReloadsParams = z.object({ hold: z.boolean() });
export type HoldReloadsParams = z.output<typeof HoldReloadsParams>;
export const HoldReloadsRequest = new CheckedRequest<typeof HoldReloadsParams, null>(
  'mcpLens/holdReloads',
  HoldReloadsParams,
);

export type SignInParams = z.output<typeof ServerNameParams>;
/**
 * Signs in to a remote server that needs an account (OAuth): the sidecar runs the flow and asks
 * the extension to open the authorization page (OpenAuthorizationRequest); answers once signed
 * in, or fails with the reason (refused, timed out, not a server that signs in).
 */
export const SignInRequest = new CheckedRequest<typeof ServerNameParams, null>('mcpLens/signIn', ServerNameParams);
/** Forgets a remote server's tokens and registered client; it then needs signing in again. */
export const SignOutRequest = new CheckedRequest<typeof ServerNameParams, null>('mcpLens/signOut', ServerNameParams);

// client → server notifications

/** As in SidecarInitOptions. */
export const UpdateSettingsParams = z.object({
  settings: SettingsParam,
  approvals: strings(),
  inputs: strings(),
  trusted: z._default(z.boolean(), false),
  /** The workspace folders with their own settings now (a folder's `mcpLens.servers` changed). */
  folders: z.exactOptional(z.array(WorkspaceFolderInfo)),
  toolFilterLevels: z.exactOptional(ToolFilterLevelsSchema),
});
export type UpdateSettingsParams = z.output<typeof UpdateSettingsParams>;
/** Settings, approvals, inputs or trust changed in the editor. */
export const UpdateSettingsNotification = new CheckedNotification<typeof UpdateSettingsParams>(
  'mcpLens/updateSettings',
  UpdateSettingsParams,
);

// server → client requests: signing in to remote servers (OAuth). The sidecar runs the flow and
// the upstream connections; the extension owns the browser and VS Code's SecretStorage.

export interface OAuthSecretReadParams {
  /** `oauth.<32 hex>`: one record per server definition (adapters/upstream/auth/oauthStore.ts); the extension refuses other keys. */
  key: string;
}
export interface OAuthSecretReadResult {
  /** The record as JSON, or null when there is none. */
  value: string | null;
}
/** Reads one OAuth record (tokens, registered client) from SecretStorage: the sidecar never keeps them on disk. */
export const OAuthSecretReadRequest = new RequestType<OAuthSecretReadParams, OAuthSecretReadResult, void>(
  'mcpLens/oauthSecretRead',
);

export interface OAuthSecretWriteParams {
  key: string;
  /** The record as JSON; null deletes it. */
  value: string | null;
}
/** Stores (or deletes) one OAuth record in SecretStorage. */
export const OAuthSecretWriteRequest = new RequestType<OAuthSecretWriteParams, null, void>('mcpLens/oauthSecretWrite');

export interface ExternalRedirectParams {
  /** The sidecar's loopback redirect URI, `http://127.0.0.1:<port>/callback`. */
  uri: string;
}
export interface ExternalRedirectResult {
  /** The same address as the user's browser reaches it (`vscode.env.asExternalUri`: forwarded in a remote window or code-server). */
  uri: string;
}
/** Maps the sign-in's loopback redirect URI to one the user's browser can reach. */
export const ExternalRedirectRequest = new RequestType<ExternalRedirectParams, ExternalRedirectResult, void>(
  'mcpLens/externalRedirect',
);

export interface OpenAuthorizationParams {
  server: string;
  /** The authorization server's page (http or https only; the extension refuses anything else). */
  url: string;
}
export interface OpenAuthorizationResult {
  opened: boolean;
}
/** Opens a server's authorization page in the user's browser (`vscode.env.openExternal`). */
export const OpenAuthorizationRequest = new RequestType<OpenAuthorizationParams, OpenAuthorizationResult, void>(
  'mcpLens/openAuthorization',
);

// server → client notifications

export interface StateChangedParams {
  servers: ServerStatus[];
  index: IndexStatus;
  stats: LensStats;
  gateway?: GatewayInfo;
}
/** Servers, index or stats changed (debounced). */
export const StateChangedNotification = new NotificationType<StateChangedParams>('mcpLens/stateChanged');

export interface ApprovalNeededParams {
  /**
   * `details`: every field of the definition, one per line, already escaped (what the prompt
   * shows). `kind: 'tool-filter'`: not a server but the workspace's include/exclude, changed so
   * that it would show more tools (`details`: each change); approving records `fingerprint`
   * under `name` (TOOL_FILTER_APPROVAL_NAME) like a server's.
   */
  servers: {
    kind?: 'tool-filter';
    name: string;
    fingerprint: string;
    summary: string;
    details: string[];
    sourceFile: string;
  }[];
}
/** A server needs the user's approval before it may start (new or changed definition), or a wider tool filter before it applies. */
export const ApprovalNeededNotification = new NotificationType<ApprovalNeededParams>('mcpLens/approvalNeeded');

export interface AcceptedToolFilterParams {
  /** The workspace's include/exclude the sidecar accepted (toolFilterValue in protocol/settings.ts). */
  value: string;
}
/**
 * The workspace's include/exclude now in force as accepted: narrowing changes are accepted at
 * once. The extension records it under TOOL_FILTER_APPROVAL_NAME with its approvals and hands it
 * back at every start, so restarting the sidecar never accepts a change that was waiting.
 */
export const AcceptedToolFilterNotification = new NotificationType<AcceptedToolFilterParams>(
  'mcpLens/acceptedToolFilter',
);

export interface InputsNeededParams {
  inputs: { id: string; description?: string; password: boolean }[];
}
/** `${input:id}` values the config refers to and the client has not supplied. */
export const InputsNeededNotification = new NotificationType<InputsNeededParams>('mcpLens/inputsNeeded');

export interface PullProgressParams {
  model: string;
  status: string;
  completed?: number;
  total?: number;
  done: boolean;
  error?: string;
}
export const PullProgressNotification = new NotificationType<PullProgressParams>('mcpLens/pullProgress');

export type ConfigProblemInfo = ConfigProblem;
export interface ConfigProblemsParams {
  problems: ConfigProblemInfo[];
}
/**
 * Problems found in configuration files, each with the character offset and length of the
 * offending JSON where known, for editor diagnostics. Each notification replaces the previous
 * set; an empty list clears them.
 */
export const ConfigProblemsNotification = new NotificationType<ConfigProblemsParams>('mcpLens/configProblems');

/** Every custom message by direction; the contract test checks each is handled on its far end. */
export const LSP_MESSAGES = {
  clientToServer: {
    requests: [
      SearchRequest,
      ListToolsRequest,
      CallToolRequest,
      ServersRequest,
      DashboardRequest,
      GatewayInfoRequest,
      RestartServerRequest,
      ReindexRequest,
      PullModelRequest,
      ClearUsageRequest,
      HoldReloadsRequest,
      SignInRequest,
      SignOutRequest,
    ],
    notifications: [UpdateSettingsNotification],
  },
  serverToClient: {
    requests: [OAuthSecretReadRequest, OAuthSecretWriteRequest, ExternalRedirectRequest, OpenAuthorizationRequest],
    notifications: [
      StateChangedNotification,
      ApprovalNeededNotification,
      InputsNeededNotification,
      PullProgressNotification,
      ConfigProblemsNotification,
      AcceptedToolFilterNotification,
    ],
  },
} as const;
