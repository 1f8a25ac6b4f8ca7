/**
 * The dashboard's message maps, named by direction. The same page runs as a VS Code webview
 * (messages over postMessage, answered by client/src/dashboardPanel.ts) and in a browser
 * (POST /api/<method> and server-sent events at GET /api/events, answered by
 * server/src/gateway/dashboard/). Both hosts and the page import these types; nothing
 * re-declares them. Plain JSON-safe types only.
 */
import type {
  ConsentView,
  IndexStatus,
  LearnedSearchView,
  LensStats,
  SearchResponse,
  ServerStatus,
  ToolCallOutcome,
  UsageStats,
} from './model';

/** A request that needs no parameters. */
export type NoParams = Record<string, never>;

/** Outcome of an action that can be refused or fail without being an exception. */
export interface ActionResult {
  ok: boolean;
  error?: string;
}

/** webview → host requests: method name → params and result. */
export interface DashboardRequests {
  search: { params: { query: string; limit?: number; server?: string }; result: SearchResponse };
  listServers: { params: NoParams; result: ServerStatus[] };
  restartServer: { params: { name: string }; result: ActionResult };
  /**
   * Approves the definition the dashboard showed (`fingerprint`: ServerStatus.approval) of a
   * server that waits for approval (VS Code: through its modal prompt). Refused when the
   * definition changed since it was shown.
   */
  approveServer: { params: { name: string; fingerprint: string }; result: ActionResult };
  /**
   * Signs in to a remote server that needs an account (OAuth): the authorization page opens in
   * the browser; answers once the sign-in completed, failed or timed out.
   */
  signInServer: { params: { name: string }; result: ActionResult };
  stats: { params: NoParams; result: LensStats };
  indexStatus: { params: NoParams; result: IndexStatus };
  /** Tries a tool by its client-safe name. Tool errors come back as `isError`, not as a failed request. */
  callTool: { params: { name: string; arguments: Record<string, unknown> }; result: ToolCallOutcome };
  /** Starts pulling the embedding model; progress arrives as `pullProgress` events. */
  pullModel: { params: NoParams; result: ActionResult };
  /** `null` while usage learning is off or not available. */
  usage: { params: NoParams; result: UsageStats | null };
  /** What search learned from this workspace's use, per tool; `null` where it is not kept. */
  learnedSearch: { params: NoParams; result: LearnedSearchView | null };
  /** Forgets everything search learned (the command "MCP Lens: Forget Learned Search" sends this too). */
  forgetLearnedSearch: { params: NoParams; result: ActionResult };
  /** The consent level in force (mcpLens.consent) and the tools the user allowed always in this workspace. */
  consent: { params: NoParams; result: ConsentView };
  /**
   * Forgets one principal's "always" for one tool (RememberedConsentView.principal and .key): its
   * next call asks again.
   * There is no request that grants consent: only the user's answer to the question does.
   */
  revokeConsent: { params: { principal: string; key: string }; result: ActionResult };
  /**
   * The user vouches for what search learned for one tool (by its client-safe name, or the key
   * the view listed): its words count for every session, not only for the session that taught them.
   */
  shareLearnedSearch: { params: { tool: string }; result: ActionResult };
}

/** Why approveServer refused: the server's definition is no longer the one the dashboard showed. */
export function definitionChangedMessage(name: string): string {
  return `"${name}" was not approved: its definition changed since the dashboard showed it. Review the definition shown now and approve it again.`;
}

export type DashboardMethod = keyof DashboardRequests;
export type DashboardParams<K extends DashboardMethod> = DashboardRequests[K]['params'];
export type DashboardResult<K extends DashboardMethod> = DashboardRequests[K]['result'];

/** Everything that answers the dashboard's requests: one async function per method. */
export type DashboardHandlers = {
  [K in DashboardMethod]: (params: DashboardParams<K>) => Promise<DashboardResult<K>>;
};

/** host → webview pushed events: event name → payload. */
export interface DashboardEvents {
  /** Servers, index or stats changed. */
  state: { servers: ServerStatus[]; index: IndexStatus; stats: LensStats };
  pullProgress: { model: string; status: string; completed?: number; total?: number; done: boolean; error?: string };
}

export type DashboardEventName = keyof DashboardEvents;

/** One pushed event, discriminated by name. */
export type DashboardEvent = { [K in DashboardEventName]: { event: K; data: DashboardEvents[K] } }[DashboardEventName];

// The postMessage envelopes (VS Code webview only; HTTP uses one URL per method instead).

/** webview → host. */
export interface WebviewRequestMessage {
  kind: 'request';
  id: number;
  method: DashboardMethod;
  params: unknown;
}

/** host → webview. */
export type HostMessage =
  | { kind: 'response'; id: number; result: unknown }
  | { kind: 'error'; id: number; message: string }
  | ({ kind: 'event' } & DashboardEvent);

/** The HTTP paths: POST `${DASHBOARD_API_PREFIX}<method>` and GET `DASHBOARD_EVENTS_PATH`. */
export const DASHBOARD_API_PREFIX = '/api/';
export const DASHBOARD_EVENTS_PATH = '/api/events';

/** Every method name, for hosts that route by string (the HTTP routes). */
export const DASHBOARD_METHODS: readonly DashboardMethod[] = [
  'search',
  'listServers',
  'restartServer',
  'approveServer',
  'signInServer',
  'stats',
  'indexStatus',
  'callTool',
  'pullModel',
  'usage',
  'learnedSearch',
  'forgetLearnedSearch',
  'consent',
  'revokeConsent',
  'shareLearnedSearch',
];
