/**
 * The contract of the upstream pool: one MCP client per configured server, what it lists,
 * what state each connection is in, and the one error type calls throw.
 */
import type { ClientCapabilities, Prompt, Resource, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import type { RestartPolicy } from '../../core/backoff';
import type { Logger } from '../../core/logger';
import type { OAuthEnvironment } from './auth/types';
import type { Principal } from '../../core/principal';

export interface UpstreamPoolOptions {
  log: Logger;
  /** Budget for spawn/connect + `initialize`; past it the server is 'error' and its process killed. */
  connectTimeoutMs: number;
  /** Timeout for list/prompt/resource requests (callTool has its own). Default 60 s. */
  requestTimeoutMs?: number;
  restart?: RestartPolicy;
  clientInfo?: { name: string; version: string };
  /** Servers launching at once (launchWindow.ts); default two per core, at least four. */
  launchWindow?: number;
  /** Signing in to remote servers that need an account (OAuth): the token store and how the user sees the page. */
  oauth?: OAuthEnvironment;
  /**
   * Where what an upstream sends us unasked goes (sampling, elicitation and roots requests, log
   * messages, resource updates). With it, every upstream is told MCP Lens's client can sample,
   * elicit (form and URL) and list roots; without it (one-shot CLI commands), nothing is
   * declared and such requests get -32601.
   */
  inbound?: UpstreamInbound;
  /**
   * Server processes one principal other than the workspace may run at once (its own, started
   * on its first use: principalConnections.ts); default DEFAULT_PROCESSES_PER_PRINCIPAL.
   */
  processesPerPrincipal?: number;
  /**
   * Stdio servers every principal shares (one process, the workspace's), as a team's
   * configuration marks those that keep no per-client state; any other stdio server runs once
   * per principal that uses it.
   */
  sharedServers?: ReadonlySet<string>;
  /**
   * No process is spawned and no connection opened before this settles (`serve` answers its
   * client's first tools/list and indexes the cached catalog first: twenty starting servers on
   * a small machine would otherwise take the CPU that answer needs). Absent: at once.
   */
  launchAfter?: Promise<unknown>;
}

/** A JSON-RPC params or result object, passed on as it came. */
export type JsonObject = Record<string, unknown>;

/**
 * The downstream client behind one of our calls to an upstream: who answers what the upstream
 * asks back while the call runs (the gateway's session that made the call, bound to that call).
 */
export interface UpstreamCaller {
  /** The downstream session: several calls of one session are one caller. */
  readonly sessionId: string;
  /** Whom the session acts for: its calls and requests take that principal's connection (pool.ts). */
  readonly principal: Principal;
  /**
   * The client's protocol revision when it speaks 2026-07-28 or later (a stateless request); a
   * dual-era server is then spoken to in that era (dualEra.ts). Absent for a 2025-era session.
   */
  readonly revision?: string | undefined;
  /** What the client declared (at initialize, or in a 2026 request's envelope); undefined before it did. */
  capabilities(): ClientCapabilities | undefined;
  /**
   * Sends a server-to-client request (sampling/createMessage, elicitation/create, roots/list) on
   * to the client; rejects with the protocol's error (an McpError) when the client cannot answer.
   */
  request(method: string, params: JsonObject | undefined, signal: AbortSignal): Promise<JsonObject>;
  /** A notification about this call (a log message, an URL elicitation's completion). */
  notify(method: string, params: JsonObject | undefined): void;
}

/** The connection something an upstream sent came on. */
export interface UpstreamSource {
  server: string;
  /** The principal the connection runs for: what arrives outside a call belongs to it. */
  principal: string;
  /** A connection every principal calls through (a remote server): only a call's own stream names its caller. */
  shared: boolean;
}

/**
 * What the connection knows of the call behind something an upstream sent
 * (adapters/upstream/inFlightCalls.ts): `exact` when the transport stream that carried it
 * belongs to one call; always every call in flight on that connection, in order of start, each
 * by its caller (undefined for a call no session made: the dashboard's, the terminal's).
 */
export interface Attribution {
  exact?: UpstreamCaller;
  calls: readonly (UpstreamCaller | undefined)[];
}

/** What the pool hands up of what upstreams send unasked (implemented by app/upstreamRequests.ts). */
export interface UpstreamInbound {
  /** A server-to-client request; resolves with the result or rejects with an McpError, never hangs on a client that cannot answer. */
  request(
    source: UpstreamSource,
    method: string,
    params: JsonObject | undefined,
    attribution: Attribution,
    signal: AbortSignal,
  ): Promise<JsonObject>;
  /** A notification other than list_changed and progress (logging, resources/updated, elicitation/complete). */
  notification(source: UpstreamSource, method: string, params: JsonObject | undefined, attribution: Attribution): void;
  /**
   * What a principal's sessions declared at initialize, merged: what its own connections declare
   * upstream (followUps.ts). Undefined when it has no session (gone, or not initialized yet):
   * nothing is started for it then.
   */
  capabilities(principal: string): ClientCapabilities | undefined;
}

export interface UpstreamTool {
  server: string;
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  icons?: unknown[];
  _meta?: Record<string, unknown>;
}

/**
 * A prompt, resource or template as its server lists it, and whose it is. The SDK's own types:
 * its client parses every listing with the protocol's schemas, which keep the fields the
 * protocol knows and drop any other, so what is passed on is what MCP defines.
 */
export type UpstreamPrompt = Prompt & { server: string };
export type UpstreamResource = Resource & { server: string };
export type UpstreamResourceTemplate = ResourceTemplate & { server: string };

/** `needs-sign-in`: a remote server that wants an account (OAuth) and has no usable token; it waits for a sign-in. */
export type UpstreamState = 'starting' | 'ready' | 'error' | 'stopped' | 'needs-sign-in';

export interface UpstreamStatus {
  name: string;
  transport: 'stdio' | 'http' | 'sse';
  /**
   * 'starting' also covers the wait before an automatic restart; `error` then holds the
   * reason of the last exit.
   */
  state: UpstreamState;
  error?: string;
  /** Last ~20 lines of a stdio server's stderr (empty for remote servers). */
  stderrTail: string[];
  /** Restarts performed so far (automatic and manual). */
  restarts: number;
  /** Epoch ms of the last time the server became ready. */
  readyAt?: number;
  toolCount: number;
  promptCount: number;
  resourceCount: number;
  /** Process id of a running stdio server (additive to the brief's contract: for diagnostics and tests). */
  pid?: number;
  /** A remote server MCP Lens signs in to when it asks (OAuth). */
  signIn?: boolean;
}

export type UpstreamChange = { server: string; kind: 'state' | 'tools' | 'prompts' | 'resources' };

/** `over-limit`: the caller's principal already runs as many server processes as it may (pool.ts). */
export type UpstreamCallErrorKind =
  'not-ready' | 'needs-sign-in' | 'timeout' | 'cancelled' | 'disconnected' | 'upstream-error' | 'over-limit';

/** Why a call to an upstream did not produce a result. Upstream `isError` results are not errors. */
export class UpstreamCallError extends Error {
  constructor(
    readonly kind: UpstreamCallErrorKind,
    readonly server: string,
    message: string,
    readonly tool?: string,
    /** JSON-RPC error code when the upstream answered with an error. */
    readonly code?: number,
    /** The upstream error's data, kept only where a protocol error carries it on (missingCapability.ts). */
    readonly data?: unknown,
  ) {
    super(`${tool === undefined ? server : `${server}/${tool}`}: ${message}`);
    this.name = 'UpstreamCallError';
  }
}

/** A progress notification of an upstream call, as the SDK gives it. */
export interface CallProgress {
  progress: number;
  total?: number | undefined;
  message?: string | undefined;
}

/** Options for one tool call. */
export interface CallToolOptions {
  signal?: AbortSignal;
  timeoutMs: number;
  onProgress?: (p: CallProgress) => void;
  /** The downstream call behind this one, for what the upstream asks back while it runs. */
  caller?: UpstreamCaller;
}
