/**
 * The gateway over streamable HTTP on 127.0.0.1: stateful sessions at `/mcp` (one MCP Server
 * and transport per session, closed on DELETE, on shutdown or after being idle), an
 * authenticated `GET /stats`, and every other path handed to `routes` (the dashboard).
 * Used by `mcp-lens serve --http` and in-process by the LSP sidecar.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { LensStats } from '../../../protocol/model';
import { clientPrincipal, type Principal } from '../core/principal';
import { Gateway } from './gateway';
import {
  BodyTooLargeError,
  MAX_BODY_BYTES,
  bearerOf,
  endpointUrl,
  gatewayProof,
  hostAllowed,
  originAllowed,
  readBody,
  sendJsonError,
  tokensEqual,
} from './httpGuards';
import { errorMessage } from '../core/errorMessage';
import type { TeamDoor } from './teamDoor';
import type { Identity } from '../adapters/auth/accessTokens';
import type { GatewayHttpOptions } from './httpOptions';
import { HttpDrain } from './httpDrain';
import { claimsModern, serveModernPost } from './modern/modernHttp';
import { principalContext, tokenPrincipal, type ModernContext } from './modern/modernContext';

interface HttpSession {
  transport: StreamableHTTPServerTransport;
  /** Whom it acts for: with a team, only that person's tokens may use it. */
  principal: Principal;
  /** The person's latest token, whose groups the session's view reads (team only). */
  identity?: Identity;
  lastSeen: number;
  /** Requests in flight, including a client's long-lived GET stream: such a session is not idle. */
  active: number;
}

export const DEFAULT_SESSION_IDLE_MS = 30 * 60 * 1000;

/**
 * Sessions one gateway serves at once. An abandoned session lives until it has been idle
 * DEFAULT_SESSION_IDLE_MS, so without a cap a client that opens sessions without end grows the
 * gateway without bound (each holds heap even empty, more with its token accounting and MCP
 * Server state in use; test/faults/gatewayAbuse.test.ts). 64 is far more than the handful of
 * clients one person runs (an editor window, an agent CLI or two, their subagents; the load
 * bench uses 20), and little memory. Past it, sessions idle for longer than the idle time are
 * closed first; then the answer is 503.
 */
export const MAX_HTTP_SESSIONS = 64;

export class GatewayHttpServer {
  readonly gateway: Gateway;
  private readonly options: GatewayHttpOptions;
  private readonly sessions = new Map<string, HttpSession>();
  private readonly idleMs: number;
  private readonly now: () => number;
  private server: HttpServer | undefined;
  private sweeper: NodeJS.Timeout | undefined;
  private port = 0;
  /** Sessions whose initialize is being handled: counted against the cap before they have an id. */
  private opening = 0;
  /** Whom a modern request acts for when the front door does not say: the principal the bearer token names. */
  private readonly tokenContext: ModernContext;
  /** Each signed-in person's latest token, whose groups their stateless requests' view reads. */
  private readonly latestIdentity = new Map<string, Identity>();
  private readonly drainer = new HttpDrain();

  constructor(options: GatewayHttpOptions) {
    this.options = options;
    this.tokenContext = principalContext(tokenPrincipal(options.token));
    this.idleMs = options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS;
    this.now = options.now ?? Date.now;
    this.gateway = new Gateway({
      lens: options.lens,
      log: options.log,
      ...(options.audit && { audit: options.audit }),
    });
  }

  async start(): Promise<{ url: string; port: number }> {
    const handler = (req: IncomingMessage, res: ServerResponse) => {
      this.handle(req, res).catch((err: unknown) => {
        this.options.log.error(`gateway http: ${req.method} ${req.url?.split('?')[0]}: ${errorMessage(err)}`);
        sendJsonError(res, 500, -32603, 'Internal error in MCP Lens');
      });
    };
    const tls = this.options.tls;
    const server = tls ? createTlsServer({ cert: tls.cert, key: tls.key }, handler) : createServer(handler);
    this.server = server;
    const host = this.options.host ?? '127.0.0.1';
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.options.port ?? 0, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.port = (server.address() as AddressInfo).port;
    const url = endpointUrl(host, this.port, tls !== undefined);
    this.gateway.setUrl(url);
    const every = Math.max(10, Math.min(60_000, Math.floor(this.idleMs / 2)));
    this.sweeper = setInterval(() => this.expireIdle(), every);
    this.sweeper.unref();
    return { url, port: this.port };
  }

  stats(): LensStats {
    return this.gateway.stats();
  }

  /** Open HTTP sessions (initialized, not yet closed or expired). */
  sessionCount(): number {
    return this.sessions.size;
  }

  /**
   * Stops taking work and waits, at most `maxMs`, for the POSTs being answered to finish (a pod
   * told to stop by SIGTERM): /readyz says 503 at once, so a load balancer sends no more, and a
   * new session or request is refused with 503 and Retry-After, so its client goes to another
   * replica. Resolves true when nothing was left in flight. Call close() after.
   */
  drain(maxMs: number): Promise<boolean> {
    return this.drainer.drain(maxMs);
  }

  async close(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    const transports = [...this.sessions.values()].map((s) => s.transport);
    this.sessions.clear();
    await Promise.all(transports.map((t) => t.close().catch(() => undefined)));
    await this.gateway.close();
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Before the Host check: a Kubernetes probe names the pod's address, and a probe reveals nothing.
    if (this.drainer.answerProbe(req, res)) return;
    const door = this.options.team?.door;
    if (!hostAllowed(req.headers.host, this.port) && req.headers.host !== door?.publicHost) {
      const also = door ? `, ${door.publicHost}` : '';
      sendJsonError(res, 403, -32000, `Forbidden: Host must be 127.0.0.1:${this.port}, localhost:${this.port}${also}`);
      return;
    }
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${this.port}`);
    if (door?.serveMetadata(url.pathname, res)) return;
    if (url.pathname === '/mcp' || url.pathname === '/stats') {
      if (door) return this.handleSignedIn(door, req, res, url.pathname);
      if (!this.authorized(req, res)) return;
      if (url.pathname === '/stats') return this.handleStats(req, res);
      return this.handleMcp(req, res);
    }
    if (url.pathname === '/proof') return this.handleProof(url, res);
    if (this.options.routes && (await this.options.routes(req, res, { token: this.options.token, url }))) return;
    sendJsonError(res, 404, -32000, `Not found: ${url.pathname}. The MCP endpoint is /mcp.`);
  }

  /** A team's /mcp and /stats: Origin, then the person's token; /stats is for admins. */
  private async handleSignedIn(door: TeamDoor, req: IncomingMessage, res: ServerResponse, path: string) {
    const origin = req.headers.origin;
    if (!originAllowed(origin, this.port) && origin !== door.publicOrigin) {
      sendJsonError(res, 403, -32000, 'Forbidden: requests from other origins are refused');
      return;
    }
    const identity = await door.authenticate(req, res);
    if (!identity) return;
    if (path !== '/stats') return this.handleMcp(req, res, identity);
    if (this.options.team!.viewFor(() => identity.groups).isAdmin()) return this.handleStats(req, res);
    sendJsonError(res, 403, -32003, 'Forbidden: /stats is for the team admins');
  }

  /** Origin, then token; answers the refusal itself. */
  private authorized(req: IncomingMessage, res: ServerResponse): boolean {
    const origin = req.headers.origin;
    if (!originAllowed(origin, this.port)) {
      sendJsonError(res, 403, -32000, 'Forbidden: requests from other origins are refused');
      return false;
    }
    const given = bearerOf(req);
    if (given === undefined || !tokensEqual(given, this.options.token)) {
      const why = given === undefined ? 'missing Authorization: Bearer <token> header' : 'wrong bearer token';
      sendJsonError(
        res,
        401,
        -32001,
        `Unauthorized: ${why}. The token is in <workspace>/.mcp-lens/token or MCP_LENS_TOKEN.`,
        {
          'www-authenticate': 'Bearer realm="mcp-lens"',
        },
      );
      return false;
    }
    return true;
  }

  /** GET /proof?nonce=<32..128 hex>: HMAC of the nonce under the token (httpGuards.gatewayProof); no token needed. */
  private handleProof(url: URL, res: ServerResponse): void {
    const nonce = url.searchParams.get('nonce') ?? '';
    if (!/^[0-9a-f]{32,128}$/.test(nonce)) {
      sendJsonError(res, 400, -32000, 'Bad Request: /proof needs nonce=<32 to 128 hex digits>');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify({ proof: gatewayProof(this.options.token, nonce) }));
  }

  private handleStats(req: IncomingMessage, res: ServerResponse): void {
    if (req.method !== 'GET') {
      sendJsonError(res, 405, -32000, 'Method not allowed: GET /stats', { allow: 'GET' });
      return;
    }
    const body = JSON.stringify(this.gateway.stats());
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(body);
  }

  private async handleMcp(req: IncomingMessage, res: ServerResponse, identity?: Identity): Promise<void> {
    const header = req.headers['mcp-session-id'];
    const sessionId = typeof header === 'string' ? header : undefined;
    if (req.method === 'POST')
      return this.drainer.admit(res) ? this.handlePost(req, res, sessionId, identity) : undefined;
    if (req.method === 'GET' || req.method === 'DELETE') {
      if (!sessionId) {
        sendJsonError(res, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');
        return;
      }
      const session = this.sessions.get(sessionId);
      if (!session) {
        sendJsonError(res, 404, -32001, 'Session not found (expired or closed): initialize a new session');
        return;
      }
      if (!this.samePerson(session, identity, res)) return;
      return this.forward(session, req, res);
    }
    sendJsonError(res, 405, -32000, `Method not allowed: ${req.method}`, { allow: 'GET, POST, DELETE' });
  }

  /**
   * Whom a stateless request acts for: a signed-in person (with the team's policy over their
   * latest groups, as their sessions have), else the principal the front door names, else the
   * token's client.
   */
  private modernContext(req: IncomingMessage, identity: Identity | undefined): ModernContext {
    if (identity) {
      const principal = this.options.team!.door.principalOf(identity);
      this.latestIdentity.set(principal.id, identity);
      const view = this.options.team!.viewFor(() => this.latestIdentity.get(principal.id)?.groups ?? []);
      return principalContext(principal, view);
    }
    const named = this.options.principalFor?.(req);
    return named ? principalContext(named) : this.tokenContext;
  }

  /** A team's session answers only the person it was opened for (whose latest groups it then reads). */
  private samePerson(session: HttpSession, identity: Identity | undefined, res: ServerResponse): boolean {
    if (identity && !this.options.team!.door.owns(session.principal, identity, res)) return false;
    if (identity) session.identity = identity;
    return true;
  }

  private async handlePost(
    req: IncomingMessage,
    res: ServerResponse,
    sessionId: string | undefined,
    identity?: Identity,
  ): Promise<void> {
    let body: unknown;
    try {
      const raw = await readBody(req, this.options.maxBodyBytes ?? MAX_BODY_BYTES);
      body = JSON.parse(raw.toString('utf8'));
    } catch (err) {
      if (err instanceof BodyTooLargeError)
        sendJsonError(
          res,
          413,
          -32000,
          `Payload too large: the limit is ${this.options.maxBodyBytes ?? MAX_BODY_BYTES} bytes`,
        );
      else if (err instanceof SyntaxError) sendJsonError(res, 400, -32700, 'Parse error: the body is not valid JSON');
      else throw err;
      return;
    }
    if (identity && this.options.team!.door.refuseScope(identity, body, res)) return;
    if (sessionId) {
      const session = this.sessions.get(sessionId);
      if (!session) {
        sendJsonError(res, 404, -32001, 'Session not found (expired or closed): initialize a new session');
        return;
      }
      if (!this.samePerson(session, identity, res)) return;
      return this.forward(session, req, res, body);
    }
    // 2026-07-28 and later: one stateless request, no session (gateway/modern/).
    if (claimsModern(req.headers, body))
      return serveModernPost(this.gateway, this.modernContext(req, identity), req, res, body);
    const initializing = Array.isArray(body) ? body.some((m) => isInitializeRequest(m)) : isInitializeRequest(body);
    if (!initializing) {
      const id = (body as { id?: unknown } | null)?.id;
      sendJsonError(
        res,
        400,
        -32000,
        'Bad Request: no Mcp-Session-Id header. Open a session with initialize (protocol revisions up to 2025-11-25), or send a 2026-07-28 request with its _meta envelope and MCP-Protocol-Version header',
        {},
        typeof id === 'string' || typeof id === 'number' ? id : null,
      );
      return;
    }
    if (!this.roomForSession()) {
      const max = this.options.maxSessions ?? MAX_HTTP_SESSIONS;
      const idleMin = Math.round(this.idleMs / 60_000);
      const message = `Service unavailable: MCP Lens serves at most ${max} sessions at once and all are open. Close one (DELETE /mcp with its Mcp-Session-Id) or retry once one has been idle for ${idleMin} min.`;
      sendJsonError(res, 503, -32000, message, { 'retry-after': '60' });
      return;
    }
    // Counted until initialize was answered: by then the session is in `sessions`.
    this.opening++;
    try {
      const id = randomUUID();
      const principal = identity
        ? this.options.team!.door.principalOf(identity)
        : (this.options.principalFor?.(req) ?? clientPrincipal(id));
      await this.forward(await this.openSession(id, principal, identity), req, res, body);
    } finally {
      this.opening--;
    }
  }

  /** Whether a new session fits under the cap, once sessions idle past the idle time are closed. */
  private roomForSession(): boolean {
    const max = this.options.maxSessions ?? MAX_HTTP_SESSIONS;
    if (this.sessions.size + this.opening < max) return true;
    this.expireIdle();
    return this.sessions.size + this.opening < max;
  }

  /** `id`: the Mcp-Session-Id it gets once initialize is answered (a principal of its own is named by it). */
  private async openSession(id: string, principal: Principal, identity?: Identity): Promise<HttpSession> {
    const session: HttpSession = {
      transport: undefined as unknown as StreamableHTTPServerTransport,
      principal,
      lastSeen: this.now(),
      active: 0,
    };
    if (identity) session.identity = identity;
    const view = identity ? this.options.team!.viewFor(() => session.identity?.groups ?? []) : undefined;
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      onsessioninitialized: (id) => {
        this.sessions.set(id, session);
      },
    });
    session.transport = transport;
    // Set before connect: the Server chains its own close handling onto this one.
    transport.onclose = () => {
      if (transport.sessionId) this.sessions.delete(transport.sessionId);
    };
    await this.gateway.connect(transport, () => transport.sessionId, principal, view);
    return session;
  }

  private async forward(
    session: HttpSession,
    req: IncomingMessage,
    res: ServerResponse,
    body?: unknown,
  ): Promise<void> {
    session.active++;
    session.lastSeen = this.now();
    res.once('close', () => {
      session.active--;
      session.lastSeen = this.now();
    });
    await session.transport.handleRequest(req, res, body);
  }

  /** Abandoned sessions (no request in flight, none for `idleMs`) are closed so they cannot pile up. */
  private expireIdle(): void {
    const now = this.now();
    for (const [id, s] of this.sessions) {
      if (s.active > 0 || now - s.lastSeen < this.idleMs) continue;
      this.sessions.delete(id);
      s.transport.close().catch(() => undefined);
    }
  }
}
