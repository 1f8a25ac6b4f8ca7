/**
 * Plain, JSON-safe model types that cross between the sidecar, the extension and the
 * dashboard. Internal types stay internal; adapters convert to these at the edge.
 */

/**
 * Lifecycle of one upstream MCP server. `idle`: not running, started by its first call (lazy
 * startup, or stopped after being idle). `needs-sign-in`: a remote server that wants an account
 * (OAuth) and has no usable token; "Sign in" (the editor) or `mcp-lens login` gives it one.
 */
export type ServerState =
  'starting' | 'ready' | 'error' | 'stopped' | 'idle' | 'disabled' | 'awaiting-approval' | 'needs-sign-in';

/**
 * Where a server's definition came from. `cursor`: the workspace's `.cursor/mcp.json`;
 * `cursor-user`: the user's own `~/.cursor/mcp.json`.
 */
export type ConfigSourceKind =
  'vscode-mcp-json' | 'mcp-json' | 'claude-desktop' | 'cursor' | 'cursor-user' | 'settings' | 'cli-config';

/** One upstream server as the user sees it: state, tool count, last error and stderr tail. */
export interface ServerStatus {
  name: string;
  transport: 'stdio' | 'http' | 'sse';
  state: ServerState;
  source: ConfigSourceKind;
  /** Absolute path of the file that declared it (settings.json for mcpLens.servers). */
  sourceFile: string;
  toolCount: number;
  promptCount: number;
  resourceCount: number;
  /** Human-readable reason, set when state is 'error', 'disabled' or 'awaiting-approval'. */
  error?: string;
  /** Last lines of a stdio server's stderr (never forwarded to our stdout). */
  stderrTail: string[];
  restarts: number;
  /** Epoch ms of the last time the server became ready. */
  readyAt?: number;
  /** True when VS Code itself also starts this server from .vscode/mcp.json. */
  alsoStartedByEditor?: boolean;
  /**
   * Multi-root workspaces: a server one folder declares is named `<folder>/<localName>`;
   * `localName` is its name in that folder's file or settings.
   */
  localName?: string;
  /** Tokens (o200k_base) of this server's tools/list as a client would receive it. */
  tokens?: number;
  /** Its tools come from the catalog it listed last time: it is not connected (yet). */
  fromCache?: boolean;
  /** A remote server MCP Lens can sign in to (OAuth): Sign in and Sign out apply to it. */
  signIn?: boolean;
  /**
   * A server awaiting approval: what approving it approves. `details` are every field of the
   * definition, one per line, escaped (server, command, each argument, cwd, env file, each env
   * name with its value's source or literal value; URL and header names), as the approval
   * prompts show them; `fingerprint` names exactly that definition. The dashboard sends it back
   * with Approve, and the host refuses when the definition changed since it was shown.
   */
  approval?: { fingerprint: string; details: string[] };
  /**
   * Not a server: a configuration file that cannot be used (a JSON syntax error, unreadable),
   * named by `name` (the path as shown) with the reason in `error` (its line and column first,
   * where known) and what MCP Lens does meanwhile in `note`.
   */
  configFile?: boolean;
  note?: string;
}

/** One tool behind MCP Lens. `name` is client-safe (^[a-zA-Z0-9_-]{1,64}$) and unique. */
export interface ToolSummary {
  name: string;
  server: string;
  originalName: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

/** Which signal put a tool in the results. */
export type MatchSignal = 'keyword' | 'meaning' | 'usage';

export interface SearchHit {
  name: string;
  server: string;
  originalName: string;
  description: string;
  score: number;
  signals: MatchSignal[];
  /** Short human text: matched words, semantic similarity, usage reason. */
  why: string;
  inputSchema?: Record<string, unknown>;
}

/** e.g. `hybrid (ollama: nomic-embed-text)` or `keyword only: Ollama unreachable at http://…`. */
export interface SearchModeInfo {
  kind: 'hybrid' | 'keyword';
  label: string;
}

export interface SearchResponse {
  query: string;
  hits: SearchHit[];
  mode: SearchModeInfo;
  tookMs: number;
  tokenMetrics?: TokenMetrics;
  /** Set only when nothing matched: where to look instead. */
  noMatch?: NoMatchHint;
  /**
   * Servers still starting that have never listed their tools (no catalog is known for their
   * definition): their tools are missing from this answer. The answer does not wait for them.
   */
  starting?: string[];
}

/** Why a search found nothing and what to try next, for the palette and the dashboard. */
export interface NoMatchHint {
  /** Tools whose name is close to a word of the query (a typo, a half-remembered name), best first. */
  closeNames: SearchHit[];
  /** Servers whose tools cannot be found now (starting, failed, awaiting approval, disabled, stopped). */
  unavailable: { name: string; state: ServerState; error?: string }[];
  /**
   * Servers not connected now (starting, idle until their first call) whose tools WERE
   * searched, as they listed them last: what they list once up may differ.
   */
  lastKnown?: { name: string; state: ServerState }[];
  /** What each searchable server's tools are about, in the words they use most: words to search with. */
  servers: { name: string; tools: number; words: string[] }[];
}

export interface TokenMetrics {
  baseline_tokens: number;
  returned_tokens: number;
  savings_percent: number;
}

export interface IndexStatus {
  state: 'idle' | 'indexing' | 'ready' | 'error';
  mode: SearchModeInfo;
  toolsTotal: number;
  toolsEmbedded: number;
  /** 0..1 while indexing. */
  progress?: number;
  lastRefresh?: number;
  embedder?: {
    kind: 'ollama' | 'none';
    model?: string;
    host?: string;
    reachable: boolean;
    modelMissing?: boolean;
    error?: string;
  };
  error?: string;
}

/**
 * One agent request in the savings history: a tool call (it saved the baseline less the tool list
 * its request carried, plus any result tokens kept out) or a search (it cost its request's tool
 * list and its answer: negative).
 */
export interface SavingsPoint {
  at: number;
  kind: 'call' | 'search';
  /** A search's answer tokens; 0 for a call. */
  returnedTokens: number;
  savedTokens: number;
}

/**
 * Tokens, with one meaning of "saved": what the agent's model did not read, against connecting
 * every server directly (server/src/gateway/savings.ts). Per request: baselineTokens −
 * exposedTokens. In total (savedTokensTotal): what the tool calls' requests saved, less what the
 * searches cost, plus the result tokens kept out (shaping, code mode).
 */
export interface TokenStats {
  /** Tokens of the tools/list all upstream servers would send: in every request without MCP Lens. */
  baselineTokens: number;
  /** Tokens of the tools/list MCP Lens sends in the current exposure mode: in every request with it. */
  exposedTokens: number;
  savingsPercent: number;
  findToolsCalls: number;
  /** Tokens of every find_tools answer. */
  returnedTokensTotal: number;
  /** requests.toolCallSavedTokens − requests.searchTokens + shaping and code mode savedTokens. */
  savedTokensTotal: number;
  /**
   * The agent requests behind the total: tool calls (call_tool, run_code, a tool listed
   * directly), each made by a request that carried MCP Lens's tool list instead of every
   * server's (toolCallSavedTokens: baseline − exposed, summed); searches (find_tools,
   * get_tool_schema, list_servers), requests needed only with MCP Lens (searchTokens: their tool
   * list and answer, summed).
   */
  requests: { toolCalls: number; toolCallSavedTokens: number; searches: number; searchTokens: number };
  history: SavingsPoint[];
  perServer: { server: string; tokens: number; tools: number }[];
  /** Results narrowed by `select` or cut to `max_output_tokens`, and the tokens kept out of the context. */
  shaping?: { results: number; savedTokens: number };
  /**
   * run_code scripts, the tool calls inside them, and the tokens saved: what those calls'
   * results would have cost passing through the model one by one, less what the scripts returned.
   */
  codeMode?: { runs: number; innerCalls: number; savedTokens: number };
  /** Cut results kept whole for their session as `mcp-lens://results/<id>` (never their content). */
  keptResults?: { uri: string; tool: string; tokens: number; bytes: number; createdAt: number }[];
}

export interface UsageStats {
  enabled: boolean;
  /** Tool calls in the usage log (mcpLens.usage.retentionDays): agents', the dashboard's and the palette's. */
  callsRecorded: number;
  /** Of those, the calls agents made through the gateway (the ones search quality judges). */
  agentCalls?: number;
  predictedHitRate?: number;
  /** How well find_tools answers led agents to the tool they called; absent before any agent call. */
  retrieval?: RetrievalStats;
  topTools: { name: string; server: string; calls: number }[];
  pairs: { a: string; b: string; count: number }[];
}

/**
 * What search learning (mcpLens.search.learnFromUsage) has learned in this workspace: for each
 * tool, the words of past find_tools requests that led an agent to call it. Words are shown as
 * the agent typed them (lowercased; never the request's text, never tool arguments; values,
 * markup, numbers and filler are not kept): untrusted text, shown escaped.
 */
export interface LearnedSearchView {
  enabled: boolean;
  /** Past requests kept, and the most that are kept (the oldest go first past it). */
  requests: number;
  maxRequests: number;
  /** Tools with something learned, most weight first (at most 100). */
  tools: LearnedToolSummary[];
}

export interface LearnedToolSummary {
  /** The client-safe name, or the catalog key for a tool the catalog does not hold now. */
  name: string;
  server: string;
  /** Past requests that led to it, and that are known not to have (a wrong call found out). */
  requests: number;
  against: number;
  /** Net weight of what was learned for it (each request 1 at most, less when in doubt). */
  weight: number;
  /** How many sessions taught it (a session's words count for it alone until another session, or the user, agrees). */
  sessions: number;
  /**
   * Its learned words, most weight first (at most 12): weight summed over the requests that hold
   * it; `everyone`: it counts for every session (two sessions taught it, or the user shared it),
   * else only for the session that taught it.
   */
  words: { word: string; weight: number; requests: number; everyone: boolean }[];
  /** When it was last taught (epoch ms). */
  lastAt: number;
}

/**
 * Agent calls of some gateway sessions, each judged against its session's most recent
 * find_tools answer. Counts, not rates, so every reader sees the sample size.
 */
export interface RetrievalWindow {
  /** Sessions with at least one agent call. */
  sessions: number;
  /** Agent calls (call_tool, or a tool called directly) in those sessions. */
  calls: number;
  /** Calls that were the first after a find_tools answer: the tool the agent picked from it. */
  picks: number;
  /** Picks whose tool was the answer's first match. */
  top1: number;
  /** Picks whose tool was among the answer's first five. */
  top5: number;
  /** Picks whose tool was not in the answer at all. */
  missed: number;
  /** Calls with no find_tools before them in their session. */
  unsearched: number;
  /** Epoch ms of the window's first and last call. */
  firstAt?: number;
  lastAt?: number;
}

/** `falling`: the recent sessions' hit rate is at least 10 points below the sessions before. */
export type RetrievalTrend = 'falling' | 'steady' | 'rising';

export interface RetrievalStats {
  /** The most recent sessions (10). */
  recent: RetrievalWindow;
  /** The sessions before those (10), when there are any. */
  earlier?: RetrievalWindow;
  /** Absent while either window has too few picks to tell. */
  trend?: RetrievalTrend;
}

export interface LensStats {
  tools: number;
  servers: number;
  exposure: ExposureMode;
  tokens: TokenStats;
  usage?: UsageStats;
  gateway?: { url: string; catalogVersion: string };
}

/** Which tools the gateway lists (the mcpLens.exposure setting). */
export const EXPOSURE_MODES = ['search', 'pinned', 'all', 'predictive', 'found'] as const;
export type ExposureMode = (typeof EXPOSURE_MODES)[number];

/** Result of trying a tool from the dashboard or palette. */
export interface ToolCallOutcome {
  isError: boolean;
  content: unknown[];
  structuredContent?: unknown;
  durationMs: number;
}

/** A problem in a configuration file, with where it is, for messages and editor diagnostics. */
export interface ConfigProblem {
  severity: 'error' | 'warning';
  /** Absolute path of the file. */
  file: string;
  /** JSON path, e.g. `servers.github.command`; empty for the whole file. */
  path: string;
  message: string;
  /** The server this problem concerns, if any; an 'error' with it set disabled that server. */
  server?: string;
  /** Character offset and length in the file, for editor diagnostics. */
  offset?: number;
  length?: number;
  /** 1-based line and column of `offset`, where known (a syntax error), for a terminal's `file:line:column`. */
  line?: number;
  column?: number;
  /**
   * What MCP Lens does meanwhile ("MCP Lens keeps running the servers of its last valid
   * version"), kept apart from `message` so that the message, what is wrong, fits one line where
   * a line is all there is (a Problems row, a List Servers row).
   */
  note?: string;
}

/** A tool the user allowed always (mcpLens.consent), as the dashboard lists it. */
export interface RememberedConsentView {
  /** The catalog key, `server/tool` (compared whole): what revokeConsent names. */
  key: string;
  /** Whom the answer was given for (core/principal.ts Principal.id; never a secret): what revokeConsent names. */
  principal: string;
  /** The principal as a person reads it ("this workspace", a client session). */
  principalLabel: string;
  server: string;
  /** The tool's name on its server (untrusted text). */
  tool: string;
  /** When the user allowed it (epoch ms). */
  allowedAt: number;
  /** False when the tool's definition changed since, or it is gone: its next call asks again. */
  current: boolean;
}

/** The consent setting in force and what was allowed always in this workspace, by whom, newest first. */
export interface ConsentView {
  level: 'off' | 'destructive' | 'notReadOnly';
  tools: RememberedConsentView[];
  /** At most this many are kept; the oldest go first. */
  max: number;
}
