/**
 * What upstreams ask and send unasked, taken to the downstream client it belongs to. The
 * connection says what it knows of the call behind it (adapters/upstream/inFlightCalls.ts): the
 * exact call when the transport stream that carried it belongs to one; else the sessions with
 * calls in flight on that upstream. The causing call is then:
 *
 * - the exact one (streamable HTTP, a server that relates its request to the call: always right);
 * - else the latest call in flight on that upstream: with one session calling (the common case)
 *   that is its call; with calls from several sessions overlapping on a server that does not
 *   relate its requests (stdio, or a standalone SSE stream) it is the likeliest, since a tool
 *   asks as it starts, but can be the wrong one — nothing on the wire tells them apart, and
 *   refusing instead broke every overlap, such as a call a client abandoned still running;
 * - with no call in flight: for sampling and elicitation, the only connected session if there
 *   is exactly one, else the upstream gets an error at once; for roots, the roots of every
 *   session whose client lists them, merged (servers ask right after they start, before any
 *   client is there, and again on roots/list_changed, which sessions coming and going with roots
 *   send to every upstream).
 *
 * Their text is cleaned as replies are (protocol/untrustedText.ts). The causing client answers, or refuses at once with -32601 when it did not declare the
 * capability (`missingCapability`): an upstream never waits on a client that cannot answer.
 * Log messages are logged here at their level, server named, and sent to the causing call's
 * session (filtered by the level it set), or with no call to the sessions that set a level that
 * admits them; resource updates go to the sessions subscribed, under the URI each subscribed with.
 */
import { ErrorCode, McpError, type ClientCapabilities, type LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import type { Attribution, JsonObject, UpstreamCaller, UpstreamInbound } from '../adapters/upstream/types';
import type { UpstreamPool } from '../adapters/upstream/pool';
import type { Logger } from '../core/logger';
import { capLength, cleanReplyInPlace } from '../../../protocol/untrustedText';
import type { Disposable, DownstreamClient, DownstreamClients } from './lens';

const LEVELS: readonly LoggingLevel[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];
const rank = (level: unknown): number => {
  const i = LEVELS.indexOf(level as LoggingLevel);
  return i < 0 ? LEVELS.indexOf('info') : i;
};
/** An upstream's log line in our own log is cut here: the full message goes to the client. */
const MAX_LOG_CHARS = 500;

/** Why a client with these capabilities cannot answer `method`, or undefined when it can. */
export function missingCapability(
  caps: ClientCapabilities | undefined,
  method: string,
  params: JsonObject | undefined,
): string | undefined {
  switch (method) {
    case 'sampling/createMessage':
      if (!caps?.sampling) return 'sampling';
      return params?.tools !== undefined && !caps.sampling.tools ? 'sampling with tools' : undefined;
    case 'elicitation/create': {
      if (!caps?.elicitation) return 'elicitation';
      const modes = caps.elicitation as { form?: unknown; url?: unknown };
      if (params?.mode === 'url') return modes.url ? undefined : 'URL elicitation';
      // An empty elicitation capability means form mode (the 2025-06-18 shape).
      return modes.form || !modes.url ? undefined : 'form elicitation';
    }
    case 'roots/list':
      return caps?.roots ? undefined : 'roots';
    default:
      return 'this request';
  }
}

/** The call behind what an upstream sent: the exact one, else the latest in flight (see the file comment). */
function causing(attribution: Attribution): UpstreamCaller | undefined {
  return attribution.exact ?? attribution.inFlight.at(-1);
}

export interface UpstreamRequestsDeps {
  log: Logger;
  /** Where one of our resource URIs points (a listed resource, a template's expansion). */
  resolveUri(uri: string): { server: string; originalUri: string } | undefined;
}

interface Subscription {
  server: string;
  originalUri: string;
  /** Session id → the URI it subscribed with (the one its updates are sent under). */
  sessions: Map<string, string>;
}

export class UpstreamRequests implements UpstreamInbound, DownstreamClients {
  private readonly sessions = new Map<string, DownstreamClient>();
  private readonly levels = new Map<string, LoggingLevel>();
  private readonly subscriptions = new Map<string, Subscription>();
  /** URL elicitations sent on: elicitationId → session, for their completion notice. */
  private readonly urlElicitations = new Map<string, string>();
  private pool: UpstreamPool | undefined;
  private upstreamLevel: LoggingLevel | undefined;

  constructor(private readonly deps: UpstreamRequestsDeps) {}

  /** The pool is built with this as its inbound side, so it is handed over afterwards. */
  usePool(pool: UpstreamPool): void {
    this.pool = pool;
  }

  attach(client: DownstreamClient): Disposable {
    this.sessions.set(client.sessionId, client);
    if (client.capabilities()?.roots) this.pool?.rootsChanged();
    return { dispose: () => this.detach(client) };
  }

  private detach(client: DownstreamClient): void {
    if (this.sessions.get(client.sessionId) !== client) return;
    this.sessions.delete(client.sessionId);
    this.levels.delete(client.sessionId);
    for (const [key, sub] of this.subscriptions) {
      if (!sub.sessions.delete(client.sessionId) || sub.sessions.size) continue;
      this.subscriptions.delete(key);
      this.pool?.unsubscribe(sub.server, sub.originalUri).catch(() => undefined);
    }
    for (const [id, session] of this.urlElicitations) if (session === client.sessionId) this.urlElicitations.delete(id);
    if (client.capabilities()?.roots) this.pool?.rootsChanged();
  }

  setLogLevel(sessionId: string, level: LoggingLevel): void {
    this.levels.set(sessionId, level);
    const most = [...this.levels.values()].reduce((a, b) => (rank(b) < rank(a) ? b : a));
    if (most === this.upstreamLevel) return;
    this.upstreamLevel = most;
    this.pool?.setLogLevel(most);
  }

  rootsChanged(_sessionId: string): void {
    this.pool?.rootsChanged();
  }

  async subscribe(sessionId: string, uri: string): Promise<void> {
    const target = this.target(uri);
    const key = `${target.server}\0${target.originalUri}`;
    const known = this.subscriptions.get(key);
    if (known) {
      known.sessions.set(sessionId, uri);
      return;
    }
    await this.pool!.subscribe(target.server, target.originalUri);
    const sub = this.subscriptions.get(key) ?? { ...target, sessions: new Map<string, string>() };
    sub.sessions.set(sessionId, uri);
    this.subscriptions.set(key, sub);
  }

  async unsubscribe(sessionId: string, uri: string): Promise<void> {
    const target = this.target(uri);
    const key = `${target.server}\0${target.originalUri}`;
    const sub = this.subscriptions.get(key);
    if (!sub?.sessions.delete(sessionId) || sub.sessions.size) return;
    this.subscriptions.delete(key);
    await this.pool!.unsubscribe(target.server, target.originalUri);
  }

  private target(uri: string): { server: string; originalUri: string } {
    const target = this.deps.resolveUri(uri);
    if (!target || !this.pool) throw new McpError(ErrorCode.InvalidParams, `Unknown resource "${capLength(uri, 200)}"`);
    return target;
  }

  async request(
    server: string,
    method: string,
    rawParams: JsonObject | undefined,
    attribution: Attribution,
    signal: AbortSignal,
  ): Promise<JsonObject> {
    // What an upstream asks a person or a model is untrusted text, as its replies are (app/toolCalls.ts).
    const params = cleanReplyInPlace(rawParams);
    const caller = causing(attribution);
    if (method === 'roots/list') return caller ? caller.request(method, params, signal) : this.allRoots(server, signal);
    if (method !== 'sampling/createMessage' && method !== 'elicitation/create') {
      throw new McpError(
        ErrorCode.MethodNotFound,
        `MCP Lens does not pass "${capLength(method, 100)}" requests on to its clients`,
      );
    }
    const client = caller ?? (this.sessions.size === 1 ? [...this.sessions.values()][0] : undefined);
    if (!client) {
      const why =
        this.sessions.size === 0
          ? 'no client is connected to MCP Lens'
          : `${this.sessions.size} clients are connected and none has a call to "${server}" in flight`;
      throw new McpError(ErrorCode.InvalidRequest, `MCP Lens cannot tell which client should answer ${method}: ${why}`);
    }
    if (method === 'elicitation/create' && params?.mode === 'url' && typeof params.elicitationId === 'string') {
      this.urlElicitations.set(params.elicitationId, client.sessionId);
    }
    return client.request(method, params, signal);
  }

  /** roots/list outside any call: the roots of every session that lists them, merged by URI. */
  private async allRoots(server: string, signal: AbortSignal): Promise<JsonObject> {
    const listing = [...this.sessions.values()].filter((s) => s.capabilities()?.roots);
    if (listing.length === 0)
      throw new McpError(ErrorCode.MethodNotFound, `No client of MCP Lens lists roots (asked by "${server}")`);
    const answers = await Promise.allSettled(listing.map((s) => s.request('roots/list', undefined, signal)));
    const roots = new Map<string, unknown>();
    for (const a of answers) {
      if (a.status !== 'fulfilled' || !Array.isArray(a.value.roots)) continue;
      for (const root of a.value.roots as { uri?: unknown }[])
        if (typeof root?.uri === 'string' && !roots.has(root.uri)) roots.set(root.uri, root);
    }
    if (roots.size === 0 && answers.every((a) => a.status === 'rejected'))
      throw (answers[0] as PromiseRejectedResult).reason;
    return { roots: [...roots.values()] };
  }

  notification(server: string, method: string, rawParams: JsonObject | undefined, attribution: Attribution): void {
    const params = cleanReplyInPlace(rawParams);
    switch (method) {
      case 'notifications/message':
        return this.logMessage(server, params ?? {}, attribution);
      case 'notifications/resources/updated':
        return this.resourceUpdated(server, params ?? {});
      case 'notifications/elicitation/complete': {
        const id = params?.elicitationId;
        const session = typeof id === 'string' ? this.sessions.get(this.urlElicitations.get(id) ?? '') : undefined;
        if (typeof id === 'string') this.urlElicitations.delete(id);
        return (causing(attribution) ?? session)?.notify(method, params);
      }
      default:
        this.deps.log.debug(`[${server}] ${capLength(method, 100)}: not passed on`);
    }
  }

  private logMessage(server: string, params: JsonObject, attribution: Attribution): void {
    const level = rank(params.level);
    const data = typeof params.data === 'string' ? params.data : JSON.stringify(params.data);
    const logger = typeof params.logger === 'string' ? `${capLength(params.logger, 100)}: ` : '';
    const line = `[${server}] ${logger}${capLength(data ?? '', MAX_LOG_CHARS)}`;
    if (level >= rank('error')) this.deps.log.error(line);
    else if (level >= rank('warning')) this.deps.log.warn(line);
    else if (level >= rank('info')) this.deps.log.info(line);
    else this.deps.log.debug(line);
    const admits = (sessionId: string) => {
      const asked = this.levels.get(sessionId);
      return asked === undefined || level >= rank(asked);
    };
    const caller = causing(attribution);
    if (caller) {
      if (admits(caller.sessionId)) caller.notify('notifications/message', params);
      return;
    }
    for (const [id, session] of this.sessions)
      if (this.levels.has(id) && admits(id)) session.notify('notifications/message', params);
  }

  private resourceUpdated(server: string, params: JsonObject): void {
    if (typeof params.uri !== 'string') return;
    const sub = this.subscriptions.get(`${server}\0${params.uri}`);
    for (const [sessionId, uri] of sub?.sessions ?? [])
      this.sessions.get(sessionId)?.notify('notifications/resources/updated', { ...params, uri });
  }
}
