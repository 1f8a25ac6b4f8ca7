/**
 * What upstreams ask and send unasked, taken to the downstream client it belongs to. The pool
 * says which call caused it (adapters/upstream/inFlightCalls.ts); this decides, per method:
 *
 * - sampling/createMessage, elicitation/create: the causing call's client, which refuses at
 *   once with -32601 when it lacks the capability (gateway/downstreamClient.ts). With no call in
 *   flight, the only connected session if there is exactly one; otherwise (no session, or calls
 *   from several sessions in flight) the upstream gets an error at once: guessing could show one
 *   client's question to another client's user.
 * - roots/list: the causing call's client; with no call (a server asks right after it
 *   started, before any client connected, or on roots/list_changed) the roots of every session
 *   whose client lists roots, merged; -32601 when none does. Sessions coming and going with
 *   roots send notifications/roots/list_changed to the upstreams, so they ask again.
 * - notifications/message: logged here at its level, server named; sent to the causing call's
 *   session, or with no call to the sessions that asked for a level that admits it.
 * - notifications/resources/updated: to the sessions subscribed to that resource, under the URI
 *   each subscribed with. notifications/elicitation/complete: to the causing call's session, or
 *   to the session the URL elicitation with that id was sent to.
 */
import { ErrorCode, McpError, type LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import type { Attribution, JsonObject, UpstreamInbound } from '../adapters/upstream/types';
import type { UpstreamPool } from '../adapters/upstream/pool';
import type { Logger } from '../core/logger';
import { capLength } from '../../../protocol/untrustedText';
import type { Disposable, DownstreamClient, DownstreamClients } from './lens';

const LEVELS: readonly LoggingLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];
const rank = (level: unknown): number => {
  const i = LEVELS.indexOf(level as LoggingLevel);
  return i < 0 ? LEVELS.indexOf('info') : i;
};
/** An upstream's log line in our own log is cut here: the full message goes to the client. */
const MAX_LOG_CHARS = 500;

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

  async request(server: string, method: string, params: JsonObject | undefined, attribution: Attribution, signal: AbortSignal): Promise<JsonObject> {
    if (method === 'roots/list') return attribution.caller ? attribution.caller.request(method, params, signal) : this.allRoots(server, signal);
    if (method !== 'sampling/createMessage' && method !== 'elicitation/create') {
      throw new McpError(ErrorCode.MethodNotFound, `MCP Lens does not pass "${capLength(method, 100)}" requests on to its clients`);
    }
    const client = attribution.caller ?? this.onlySession(attribution);
    if (!client) {
      const why =
        attribution.caller === undefined && attribution.reason === 'ambiguous'
          ? `calls from several of MCP Lens's clients are in flight on "${server}" and its transport does not say which one this request belongs to`
          : this.sessions.size === 0
            ? 'no client is connected to MCP Lens'
            : `no call to "${server}" is in flight and ${this.sessions.size} clients are connected to MCP Lens`;
      throw new McpError(ErrorCode.InvalidRequest, `MCP Lens cannot tell which client should answer ${method}: ${why}`);
    }
    if (method === 'elicitation/create' && params?.mode === 'url' && typeof params.elicitationId === 'string') {
      this.urlElicitations.set(params.elicitationId, client.sessionId);
    }
    return client.request(method, params, signal);
  }

  private onlySession(attribution: Attribution): DownstreamClient | undefined {
    if (attribution.caller || attribution.reason !== 'no-call' || this.sessions.size !== 1) return undefined;
    return [...this.sessions.values()][0];
  }

  /** roots/list outside any call: the roots of every session that lists them, merged by URI. */
  private async allRoots(server: string, signal: AbortSignal): Promise<JsonObject> {
    const listing = [...this.sessions.values()].filter((s) => s.capabilities()?.roots);
    if (listing.length === 0) throw new McpError(ErrorCode.MethodNotFound, `No client of MCP Lens lists roots (asked by "${server}")`);
    const answers = await Promise.allSettled(listing.map((s) => s.request('roots/list', undefined, signal)));
    const roots = new Map<string, unknown>();
    for (const a of answers) {
      if (a.status !== 'fulfilled' || !Array.isArray(a.value.roots)) continue;
      for (const root of a.value.roots as { uri?: unknown }[]) if (typeof root?.uri === 'string' && !roots.has(root.uri)) roots.set(root.uri, root);
    }
    if (roots.size === 0 && answers.every((a) => a.status === 'rejected')) throw (answers[0] as PromiseRejectedResult).reason;
    return { roots: [...roots.values()] };
  }

  notification(server: string, method: string, params: JsonObject | undefined, attribution: Attribution): void {
    switch (method) {
      case 'notifications/message':
        return this.logMessage(server, params ?? {}, attribution);
      case 'notifications/resources/updated':
        return this.resourceUpdated(server, params ?? {});
      case 'notifications/elicitation/complete': {
        const id = params?.elicitationId;
        const session = typeof id === 'string' ? this.sessions.get(this.urlElicitations.get(id) ?? '') : undefined;
        if (typeof id === 'string') this.urlElicitations.delete(id);
        return (attribution.caller ?? session)?.notify(method, params);
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
    if (attribution.caller) {
      if (admits(attribution.caller.sessionId)) attribution.caller.notify('notifications/message', params);
      return;
    }
    for (const [id, session] of this.sessions) if (this.levels.has(id) && admits(id)) session.notify('notifications/message', params);
  }

  private resourceUpdated(server: string, params: JsonObject): void {
    if (typeof params.uri !== 'string') return;
    const sub = this.subscriptions.get(`${server}\0${params.uri}`);
    for (const [sessionId, uri] of sub?.sessions ?? []) this.sessions.get(sessionId)?.notify('notifications/resources/updated', { ...params, uri });
  }
}
