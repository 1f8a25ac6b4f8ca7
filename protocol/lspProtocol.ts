/**
 * The sidecar's custom LSP messages: method strings `mcpLens/verb`, their params and results,
 * and which way each goes. The client and the server import these; nothing re-declares them.
 * Plain string constants and types only, so both vscode-languageclient and
 * vscode-languageserver can wrap them in their own RequestType objects.
 */
import type {
  ConfigProblem,
  IndexStatus,
  LensStats,
  SearchResponse,
  ServerStatus,
  ToolCallOutcome,
  ToolSummary,
} from './model';
import { RequestType } from 'vscode-languageserver-protocol';
import type { McpLensSettings } from './settings';

/** Passed as `initializationOptions` when the client starts the sidecar. */
export interface SidecarInitOptions {
  /** The extension's workspace storage folder (the tool index and usage live here). */
  storageDir: string;
  workspaceFolders: string[];
  settings: McpLensSettings;
  /** Whether the workspace is trusted; untrusted workspaces start no workspace-configured server. */
  trusted: boolean;
  /** Fingerprints of server definitions the user approved (server name → fingerprint). */
  approvals: Record<string, string>;
  /** `${input:id}` values from SecretStorage. */
  inputs: Record<string, string>;
  /**
   * The gateway's launch details, kept by the client across sidecar restarts so the MCP server
   * definition VS Code holds stays valid: the bearer token, and the port the last sidecar
   * listened on (tried first; any free port when it is taken).
   */
  gateway?: { token: string; port?: number };
}

// client → server requests
export const SearchRequestMethod = 'mcpLens/search';
export interface SearchParams {
  query: string;
  limit?: number;
  server?: string;
}
export type SearchResult = SearchResponse;

export const ListToolsRequestMethod = 'mcpLens/listTools';
export type ListToolsResult = ToolSummary[];

export const CallToolRequestMethod = 'mcpLens/callTool';
export interface CallToolParams {
  name: string;
  arguments: Record<string, unknown>;
}
export type CallToolResultPayload = ToolCallOutcome;

export const StatsRequestMethod = 'mcpLens/stats';
export type StatsResult = LensStats;

export const ServersRequestMethod = 'mcpLens/servers';
export type ServersResult = ServerStatus[];

export const IndexStatusRequestMethod = 'mcpLens/indexStatus';
export type IndexStatusResult = IndexStatus;

export const GatewayInfoRequestMethod = 'mcpLens/gatewayInfo';
export interface GatewayInfo {
  url: string;
  token: string;
  /** Changes whenever the set of exposed tools changes. */
  catalogVersion: string;
}

export const RestartServerRequestMethod = 'mcpLens/restartServer';
export interface RestartServerParams {
  name: string;
}

export const ReindexRequestMethod = 'mcpLens/reindex';
export const PullModelRequestMethod = 'mcpLens/pullModel';
export const ClearUsageRequestMethod = 'mcpLens/clearUsage';

export const UpdateSettingsNotificationMethod = 'mcpLens/updateSettings';
export interface UpdateSettingsParams {
  settings: McpLensSettings;
  approvals: Record<string, string>;
  inputs: Record<string, string>;
  trusted: boolean;
}

// server → client notifications
export const StateChangedNotificationMethod = 'mcpLens/stateChanged';
export interface StateChangedParams {
  servers: ServerStatus[];
  index: IndexStatus;
  stats: LensStats;
  gateway?: GatewayInfo;
}

/** A server needs the user's approval before it may start (new or changed definition). */
export const ApprovalNeededNotificationMethod = 'mcpLens/approvalNeeded';
export interface ApprovalNeededParams {
  servers: { name: string; fingerprint: string; summary: string; sourceFile: string }[];
}

/** `${input:id}` values the config refers to and the client has not supplied. */
export const InputsNeededNotificationMethod = 'mcpLens/inputsNeeded';
export interface InputsNeededParams {
  inputs: { id: string; description?: string; password: boolean }[];
}

export const PullProgressNotificationMethod = 'mcpLens/pullProgress';
export interface PullProgressParams {
  model: string;
  status: string;
  completed?: number;
  total?: number;
  done: boolean;
  error?: string;
}

/**
 * Problems found in configuration files (server → client), each with the character offset and
 * length of the offending JSON where known, for editor diagnostics. Each notification replaces
 * the previous set; an empty list clears them.
 */
export const ConfigProblemsNotificationMethod = 'mcpLens/configProblems';
export type ConfigProblemInfo = ConfigProblem;
export interface ConfigProblemsParams {
  problems: ConfigProblemInfo[];
}

/**
 * client → server: hold reloads of config files while the client edits several of them as one
 * change ("Move into MCP Lens" writes settings and .vscode/mcp.json), then apply the result
 * once on release, so no half-edited state (a server declared twice) is ever loaded. A hold
 * the client never releases ends by itself after a few seconds.
 */
export interface HoldReloadsParams {
  hold: boolean;
}
export const HoldReloadsRequest = new RequestType<HoldReloadsParams, null, void>('mcpLens/holdReloads');
