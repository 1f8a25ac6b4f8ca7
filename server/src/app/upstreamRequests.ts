/**
 * What upstreams ask and send unasked, taken to the downstream session it belongs to, within the
 * principal the upstream's connection runs for (core/principal.ts: a stdio server runs once per
 * principal that uses it, adapters/upstream/principalConnections.ts). Who answers a sampling or
 * elicitation request is decided in serverRequestTarget.ts, without guessing: a request no one
 * session can be told apart for is refused. roots/list is answered with the roots of the
 * principal the connection runs for (or, inside one call on a remote server, the caller's),
 * never another's.
 *
 * Their text is cleaned as replies are (protocol/untrustedText.ts), and a sampling or elicitation
 * request names the upstream that asks (core/askingServer.ts). The answering client answers,
 * or refuses at once with -32601 when it did not declare the capability (`missingCapability`):
 * an upstream never waits on a client that cannot answer. Log messages are logged here at their
 * level, server named, and sent to the one session whose calls are in flight, or else to the
 * sessions of that principal that set a level admitting them; resource updates go to the
 * sessions subscribed through that connection, under the URI each subscribed with.
 */
import { ErrorCode, McpError, type ClientCapabilities, type LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import type { Attribution, JsonObject, UpstreamInbound, UpstreamSource } from '../adapters/upstream/types';
import type { UpstreamPool } from '../adapters/upstream/pool';
import type { Logger } from '../core/logger';
import type { Principal } from '../core/principal';
import { capLength, cleanReplyInPlace } from '../../../protocol/untrustedText';
import { namingAskingServer } from '../core/askingServer';
import { DownstreamSessions, levelRank } from './downstreamSessions';
import { requestTarget, soleCaller } from './serverRequestTarget';
import type { Disposable, DownstreamClient, DownstreamClients } from './lens';

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

export interface UpstreamRequestsDeps {
  log: Logger;
  /** Where one of our resource URIs points (a listed resource, a template's expansion). */
  resolveUri(uri: string): { server: string; originalUri: string } | undefined;
}

/** The pool as the inbound side steers it (UpstreamPool). */
export type InboundPool = Pick<
  UpstreamPool,
  'setLogLevel' | 'rootsChanged' | 'subscribe' | 'unsubscribe' | 'dropPrincipal' | 'connectionOwner'
>;

interface Subscription {
  server: string;
  originalUri: string;
  /** The principal whose connection holds it (pool.connectionOwner), and one that asked, to reach it. */
  owner: string;
  principal: Principal;
  /** Session id → the URI it subscribed with (the one its updates are sent under). */
  sessions: Map<string, string>;
}

export class UpstreamRequests implements UpstreamInbound, DownstreamClients {
  private readonly sessions = new DownstreamSessions();
  private readonly subscriptions = new Map<string, Subscription>();
  /** URL elicitations sent on: elicitationId → session, for their completion notice. */
  private readonly urlElicitations = new Map<string, string>();
  /** The level each principal's upstreams were last told. */
  private readonly upstreamLevels = new Map<string, LoggingLevel>();
  private pool: InboundPool | undefined;

  constructor(private readonly deps: UpstreamRequestsDeps) {}

  /** The pool is built with this as its inbound side, so it is handed over afterwards. */
  usePool(pool: InboundPool): void {
    this.pool = pool;
  }

  attach(client: DownstreamClient): Disposable {
    this.sessions.add(client);
    if (client.capabilities()?.roots) this.pool?.rootsChanged(client.principal);
    return { dispose: () => this.detach(client) };
  }

  capabilities(principal: string): ClientCapabilities | undefined {
    return this.sessions.capabilities(principal);
  }

  private detach(client: DownstreamClient): void {
    if (this.sessions.get(client.sessionId) !== client) return;
    const gone = this.sessions.remove(client);
    for (const [key, sub] of this.subscriptions) {
      if (!sub.sessions.delete(client.sessionId) || sub.sessions.size) continue;
      this.subscriptions.delete(key);
      this.pool?.unsubscribe(sub.server, sub.originalUri, sub.principal).catch(() => undefined);
    }
    for (const [id, session] of this.urlElicitations) if (session === client.sessionId) this.urlElicitations.delete(id);
    if (gone && client.principal.kind !== 'workspace') {
      // The principal went: what it ran stops (no process outlives its principal).
      this.upstreamLevels.delete(client.principal.id);
      this.pool?.dropPrincipal(client.principal).catch(() => undefined);
    } else if (client.capabilities()?.roots) this.pool?.rootsChanged(client.principal);
  }

  setLogLevel(sessionId: string, level: LoggingLevel): void {
    const client = this.sessions.get(sessionId);
    if (!client) return;
    const most = this.sessions.setLevel(client, level);
    if (most === this.upstreamLevels.get(client.principal.id)) return;
    this.upstreamLevels.set(client.principal.id, most);
    this.pool?.setLogLevel(most, client.principal);
  }

  rootsChanged(sessionId: string): void {
    const client = this.sessions.get(sessionId);
    if (client) this.pool?.rootsChanged(client.principal);
  }

  async subscribe(sessionId: string, uri: string): Promise<void> {
    const { target, principal, key, owner } = this.subscriptionKey(sessionId, uri);
    const known = this.subscriptions.get(key);
    if (known) {
      known.sessions.set(sessionId, uri);
      return;
    }
    await this.pool!.subscribe(target.server, target.originalUri, principal);
    const sub = this.subscriptions.get(key) ?? { ...target, owner, principal, sessions: new Map<string, string>() };
    sub.sessions.set(sessionId, uri);
    this.subscriptions.set(key, sub);
  }

  async unsubscribe(sessionId: string, uri: string): Promise<void> {
    const { target, principal, key } = this.subscriptionKey(sessionId, uri);
    const sub = this.subscriptions.get(key);
    if (!sub?.sessions.delete(sessionId) || sub.sessions.size) return;
    this.subscriptions.delete(key);
    await this.pool!.unsubscribe(target.server, target.originalUri, principal);
  }

  /** One upstream subscription per connection and URI: sessions whose requests share a connection share it. */
  private subscriptionKey(sessionId: string, uri: string) {
    const target = this.deps.resolveUri(uri);
    const principal = this.sessions.get(sessionId)?.principal;
    if (!target || !this.pool || !principal)
      throw new McpError(ErrorCode.InvalidParams, `Unknown resource "${capLength(uri, 200)}"`);
    const owner = this.pool.connectionOwner(target.server, principal);
    return { target, principal, owner, key: `${target.server}\0${owner}\0${target.originalUri}` };
  }

  async request(
    source: UpstreamSource,
    method: string,
    rawParams: JsonObject | undefined,
    attribution: Attribution,
    signal: AbortSignal,
  ): Promise<JsonObject> {
    // What an upstream asks a person or a model is untrusted text, as its replies are (app/toolCalls.ts).
    const params = cleanReplyInPlace(rawParams);
    if (method === 'roots/list') {
      // Inside one call on a remote server the caller's principal; else the one the connection runs for.
      const principal = attribution.exact?.principal.id ?? source.principal;
      return this.sessions.roots(principal, source.server, signal, soleCaller(attribution, this.sessions));
    }
    if (method !== 'sampling/createMessage' && method !== 'elicitation/create') {
      throw new McpError(
        ErrorCode.MethodNotFound,
        `MCP Lens does not pass "${capLength(method, 100)}" requests on to its clients`,
      );
    }
    const target = requestTarget(source, attribution, this.sessions);
    if ('refused' in target)
      throw new McpError(
        ErrorCode.InvalidRequest,
        `MCP Lens cannot tell which of its clients should answer ${method}: ${target.refused}`,
      );
    const { client } = target;
    if (method === 'elicitation/create' && params?.mode === 'url' && typeof params.elicitationId === 'string') {
      this.urlElicitations.set(params.elicitationId, client.sessionId);
    }
    // The client sees MCP Lens as the asking server: the request says which upstream asks.
    return client.request(method, namingAskingServer(source.server, method, params) as JsonObject | undefined, signal);
  }

  notification(
    source: UpstreamSource,
    method: string,
    rawParams: JsonObject | undefined,
    attribution: Attribution,
  ): void {
    const params = cleanReplyInPlace(rawParams);
    switch (method) {
      case 'notifications/message':
        return this.logMessage(source, params ?? {}, attribution);
      case 'notifications/resources/updated':
        return this.resourceUpdated(source, params ?? {});
      case 'notifications/elicitation/complete': {
        // To the session its elicitation went to, or the call that carried it: never a guess.
        const id = params?.elicitationId;
        const session = typeof id === 'string' ? this.sessions.get(this.urlElicitations.get(id) ?? '') : undefined;
        if (typeof id === 'string') this.urlElicitations.delete(id);
        return (session ?? attribution.exact)?.notify(method, params);
      }
      default:
        this.deps.log.debug(`[${source.server}] ${capLength(method, 100)}: not passed on`);
    }
  }

  private logMessage(source: UpstreamSource, params: JsonObject, attribution: Attribution): void {
    const level = levelRank(params.level);
    const data = typeof params.data === 'string' ? params.data : JSON.stringify(params.data);
    const logger = typeof params.logger === 'string' ? `${capLength(params.logger, 100)}: ` : '';
    const line = `[${source.server}] ${logger}${capLength(data ?? '', MAX_LOG_CHARS)}`;
    if (level >= levelRank('error')) this.deps.log.error(line);
    else if (level >= levelRank('warning')) this.deps.log.warn(line);
    else if (level >= levelRank('info')) this.deps.log.info(line);
    else this.deps.log.debug(line);
    const caller = soleCaller(attribution, this.sessions);
    if (caller) {
      if (this.sessions.admits(caller.sessionId, params.level)) caller.notify('notifications/message', params);
      return;
    }
    // Calls of several sessions, or none: the sessions of the principal it runs for that asked for logs.
    for (const session of this.sessions.of(source.principal))
      if (this.sessions.setALevel(session.sessionId) && this.sessions.admits(session.sessionId, params.level))
        session.notify('notifications/message', params);
  }

  private resourceUpdated(source: UpstreamSource, params: JsonObject): void {
    if (typeof params.uri !== 'string') return;
    const sub = this.subscriptions.get(`${source.server}\0${source.principal}\0${params.uri}`);
    for (const [sessionId, uri] of sub?.sessions ?? [])
      this.sessions.get(sessionId)?.notify('notifications/resources/updated', { ...params, uri });
  }
}
