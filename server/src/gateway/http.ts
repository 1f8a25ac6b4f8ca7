/**
 * The gateway over streamable HTTP on 127.0.0.1: stateful sessions at `/mcp` (one MCP Server
 * and transport per session, closed on DELETE, on shutdown or after being idle), an
 * authenticated `GET /stats`, and every other path handed to `routes` (the dashboard).
 * Used by `mcp-lens serve --http` and in-process by the LSP sidecar.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { LensStats } from '../../../protocol/model';
import type { Lens } from '../app/lens';
import type { Logger } from '../core/logger';
import { clientPrincipal, type Principal } from '../core/principal';
import { Gateway } from './gateway';
import {
  BodyTooLargeError,
  MAX_BODY_BYTES,
  bearerOf,
  gatewayProof,
  hostAllowed,
  originAllowed,
  readBody,
  sendJsonError,
  tokensEqual,
} from './httpGuards';
import { errorMessage } from '../core/errorMessage';

/**
 * Extra HTTP routes (the dashboard). Called for every path other than `/mcp` and `/stats`,
 * after the Host check; resolves true when it answered the request. It does its own auth.
 */
export type ExtraRoutes = (
  req: IncomingMessage,
  res: ServerResponse,
  ctx: { token: string; url: URL },
) => Promise<boolean>;

export interface GatewayHttpOptions {
  lens: Lens;
  /** Bearer token every /mcp and /stats request must carry. Never logged. */
  token: string;
  /** 0 or absent: a free port. Always bound on 127.0.0.1. */
  port?: number;
  log: Logger;
  routes?: ExtraRoutes;
  /** A session with no request in flight and none for this long is closed (default 30 min). */
  sessionIdleMs?: number;
  /** The clock idleness is measured with (default Date.now); tests drive expiry with their own. */
  now?: () => number;
  maxBodyBytes?: number;
  /** Sessions open at once (default MAX_HTTP_SESSIONS). */
  maxSessions?: number;
  /**
   * Whom a new session acts for, from its initialize request (core/principal.ts). Default: each
   * session is a principal of its own (`serve --http`: every client holds the one token, which
   * says a client may use the gateway, not which client it is). The editor's sidecar, whose
   * token only VS Code holds, makes every session the workspace.
   */
  principalFor?: (initialize: IncomingMessage) => Principal;
}

interface HttpSession {
  transport: StreamableHTTPServerTransport;
  lastSeen: number;
  /** Requests in flight, including a client's long-lived GET stream: such a session is not idle. */
  active: number;
}

/** The probes' paths (deploy/kubernetes points its liveness and readiness probes at these). */
export const PROBE_PATHS = { live: '/healthz', ready: '/readyz' } as const;

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
  /** POSTs to /mcp being answered (a client's long-lived GET stream is not one): what a drain waits for. */
  private inFlight = 0;
  private draining = false;
  private readonly drained = new Set<() => void>();

  constructor(options: GatewayHttpOptions) {
    this.options = options;
    this.idleMs = options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS;
    this.now = options.now ?? Date.now;
    this.gateway = new Gateway({ lens: options.lens, log: options.log });
  }

  async start(): Promise<{ url: string; port: number }> {
    const server = createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) => {
        this.options.log.error(`gateway http: ${req.method} ${req.url?.split('?')[0]}: ${errorMessage(err)}`);
        sendJsonError(res, 500, -32603, 'Internal error in MCP Lens');
      });
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.options.port ?? 0, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.port = (server.address() as AddressInfo).port;
    const url = `http://127.0.0.1:${this.port}/mcp`;
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
  async drain(maxMs: number): Promise<boolean> {
    this.draining = true;
    if (this.inFlight === 0) return true;
    return new Promise<boolean>((resolve) => {
      const done = (idle: boolean) => {
        clearTimeout(timer);
        this.drained.delete(onIdle);
        resolve(idle);
      };
      const onIdle = () => done(true);
      const timer = setTimeout(() => done(false), maxMs);
      this.drained.add(onIdle);
    });
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
    const path = req.url?.split('?')[0];
    if (req.method === 'GET' && (path === PROBE_PATHS.live || path === PROBE_PATHS.ready))
      return this.handleProbe(path, res);
    if (!hostAllowed(req.headers.host, this.port)) {
      sendJsonError(res, 403, -32000, `Forbidden: Host must be 127.0.0.1:${this.port} or localhost:${this.port}`);
      return;
    }
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${this.port}`);
    if (url.pathname === '/mcp' || url.pathname === '/stats') {
      if (!this.authorized(req, res)) return;
      if (url.pathname === '/stats') return this.handleStats(req, res);
      return this.handleMcp(req, res);
    }
    if (url.pathname === '/proof') return this.handleProof(url, res);
    if (this.options.routes && (await this.options.routes(req, res, { token: this.options.token, url }))) return;
    sendJsonError(res, 404, -32000, `Not found: ${url.pathname}. The MCP endpoint is /mcp.`);
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

  /**
   * Liveness (/healthz: the process answers) and readiness (/readyz: it takes new work, false
   * while draining) for a load balancer or Kubernetes. No token, and nothing in the answer but
   * the verdict: a probe must work without the secret and tell a stranger nothing.
   */
  private handleProbe(path: string, res: ServerResponse): void {
    const ok = path === PROBE_PATHS.live || !this.draining;
    res.writeHead(ok ? 200 : 503, { 'content-type': 'text/plain', 'cache-control': 'no-store' });
    res.end(ok ? 'ok\n' : 'draining\n');
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

  private async handleMcp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const header = req.headers['mcp-session-id'];
    const sessionId = typeof header === 'string' ? header : undefined;
    if (req.method === 'POST') {
      if (this.draining) {
        sendJsonError(res, 503, -32000, 'Service unavailable: this MCP Lens replica is shutting down; retry', {
          'retry-after': '1',
          connection: 'close',
        });
        return;
      }
      this.inFlight++;
      res.once('close', () => {
        if (--this.inFlight === 0) for (const idle of [...this.drained]) idle();
      });
      return this.handlePost(req, res, sessionId);
    }
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
      return this.forward(session, req, res);
    }
    sendJsonError(res, 405, -32000, `Method not allowed: ${req.method}`, { allow: 'GET, POST, DELETE' });
  }

  private async handlePost(req: IncomingMessage, res: ServerResponse, sessionId: string | undefined): Promise<void> {
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
    if (sessionId) {
      const session = this.sessions.get(sessionId);
      if (!session) {
        sendJsonError(res, 404, -32001, 'Session not found (expired or closed): initialize a new session');
        return;
      }
      return this.forward(session, req, res, body);
    }
    const initializing = Array.isArray(body) ? body.some((m) => isInitializeRequest(m)) : isInitializeRequest(body);
    if (!initializing) {
      sendJsonError(res, 400, -32000, 'Bad Request: no Mcp-Session-Id header; the first request must be initialize');
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
      const principal = this.options.principalFor?.(req) ?? clientPrincipal(id);
      await this.forward(await this.openSession(id, principal), req, res, body);
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
  private async openSession(id: string, principal: Principal): Promise<HttpSession> {
    const session: HttpSession = {
      transport: undefined as unknown as StreamableHTTPServerTransport,
      lastSeen: this.now(),
      active: 0,
    };
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
    await this.gateway.connect(transport, () => transport.sessionId, principal);
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
