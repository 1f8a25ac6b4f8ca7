/**
 * The browser dashboard's HTTP routes, mounted by the gateway's HTTP server for every path
 * that is not /mcp. The gateway owns Host/Origin checks for /mcp; these routes add their own
 * token → cookie exchange, a same-origin check on POSTs, and a CSP on every answer.
 *
 *   GET  /?token=T      sets the session cookie, redirects to /
 *   GET  /              the page (needs the cookie)
 *   GET  /dashboard.js  the bundle from staticDir
 *   POST /api/<method>  one dashboard request (protocol/webviewProtocol.ts)
 *   GET  /api/events    server-sent events: state, pullProgress
 */
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { LensStats } from '../../../../protocol/model';
import {
  DASHBOARD_API_PREFIX,
  DASHBOARD_EVENTS_PATH,
  DASHBOARD_METHODS,
  type DashboardHandlers,
  type DashboardMethod,
} from '../../../../protocol/webviewProtocol';
import type { Lens } from '../../app/lens';
import type { ExtraRoutes } from '../httpOptions';
import { readBody } from '../httpGuards';
import type { Logger } from '../../core/logger';
import { DashboardAuth } from './auth';
import { DashboardEventHub } from './events';
import { BadParams, lensHandlers, type ApproveServer, type PullModel } from './handlers';
import { DASHBOARD_HTML, json, plain, securityHeaders } from './page';
import { errorMessage } from '../../core/errorMessage';

export type { ExtraRoutes };

export interface DashboardRoutesOptions {
  lens: Lens;
  /** The gateway's savings tracker. */
  stats: () => LensStats;
  /** The gateway token; the dashboard URL carries it once. */
  token: string;
  /** Folder holding dashboard.js (dist/webview). */
  staticDir: string;
  log: Logger;
  /** Pulls the embedding model when the host can; without it "Pull model" answers with an explanation. */
  pullModel?: PullModel;
  /** Approves a server that waits for approval; without it the dashboard says how to approve. */
  approveServer?: ApproveServer;
}

/** The routes, plus `close()` to end open event streams before the HTTP server closes. */
export type DashboardRoutes = ExtraRoutes & { close(): void };

const MAX_BODY = 1024 * 1024;
const STATIC_FILES: Record<string, string> = {
  '/dashboard.js': 'application/javascript; charset=utf-8',
  '/dashboard.js.map': 'application/json; charset=utf-8',
};

/** Builds the dashboard's routes over a Lens. */
export function createDashboardRoutes(opts: DashboardRoutesOptions): DashboardRoutes {
  const auth = new DashboardAuth(opts.token);
  const hub = new DashboardEventHub(opts.lens, opts.stats, opts.log);
  const handlers = lensHandlers(
    opts.lens,
    opts.stats,
    opts.pullModel,
    (p) => hub.broadcast('pullProgress', p),
    opts.approveServer,
  );

  const routes = async (
    req: IncomingMessage,
    res: ServerResponse,
    ctx: { token: string; url: URL },
  ): Promise<boolean> => {
    const path = ctx.url.pathname;
    const isApi = path.startsWith(DASHBOARD_API_PREFIX);
    if (path !== '/' && !(path in STATIC_FILES) && !isApi) return false;

    if (path === '/' && ctx.url.searchParams.has('token')) {
      if (!auth.tokenMatches(ctx.url.searchParams.get('token'))) {
        plain(
          res,
          401,
          'MCP Lens: this dashboard link is not valid. Open the URL printed by `mcp-lens serve --http`.\n',
        );
      } else {
        plain(res, 303, 'Redirecting to the dashboard.\n', { 'Set-Cookie': auth.sessionCookie(req), Location: '/' });
      }
      return true;
    }
    if (!auth.hasSession(req)) {
      plain(res, 401, 'MCP Lens: not authorized. Open the dashboard URL printed by `mcp-lens serve --http`.\n');
      return true;
    }
    if (path === '/') return page(req, res);
    if (path in STATIC_FILES) return staticFile(req, res, opts.staticDir, path, opts.log);
    if (path === DASHBOARD_EVENTS_PATH && req.method === 'GET') {
      securityHeaders(res);
      hub.attach(res);
      return true;
    }
    return api(req, res, path.slice(DASHBOARD_API_PREFIX.length), handlers, auth, opts.log);
  };
  return Object.assign(routes, { close: () => hub.close() });
}

function page(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    plain(res, 405, 'Method not allowed\n', { Allow: 'GET' });
    return true;
  }
  securityHeaders(res);
  res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
  res.end(req.method === 'HEAD' ? undefined : DASHBOARD_HTML);
  return true;
}

async function staticFile(
  req: IncomingMessage,
  res: ServerResponse,
  dir: string,
  path: string,
  log: Logger,
): Promise<boolean> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    plain(res, 405, 'Method not allowed\n', { Allow: 'GET' });
    return true;
  }
  try {
    const body = await readFile(join(dir, path.slice(1)));
    securityHeaders(res);
    res.writeHead(200, { 'Content-Type': STATIC_FILES[path]! });
    res.end(req.method === 'HEAD' ? undefined : body);
  } catch (err) {
    log.warn(`dashboard: cannot read ${join(dir, path.slice(1))}: ${errorMessage(err)}`);
    plain(res, 404, 'Dashboard bundle not found; run `node esbuild.mjs webview`.\n');
  }
  return true;
}

async function api(
  req: IncomingMessage,
  res: ServerResponse,
  method: string,
  handlers: DashboardHandlers,
  auth: DashboardAuth,
  log: Logger,
): Promise<boolean> {
  if (req.method !== 'POST') {
    plain(res, 405, 'Method not allowed\n', { Allow: 'POST' });
    return true;
  }
  if (!auth.sameOrigin(req)) {
    plain(res, 403, 'MCP Lens: cross-origin request refused.\n');
    return true;
  }
  if (!(DASHBOARD_METHODS as readonly string[]).includes(method)) {
    json(res, 404, { error: `unknown dashboard method "${method}"` });
    return true;
  }
  let params: unknown;
  try {
    const body = (await readBody(req, MAX_BODY)).toString('utf8');
    params = body ? JSON.parse(body) : {};
    if (!params || typeof params !== 'object' || Array.isArray(params))
      throw new BadParams('the body must be a JSON object');
  } catch (err) {
    json(res, 400, { error: `invalid request body: ${errorMessage(err)}` });
    return true;
  }
  try {
    const handler = handlers[method as DashboardMethod] as (p: unknown) => Promise<unknown>;
    json(res, 200, await handler(params));
  } catch (err) {
    const message = errorMessage(err);
    if (!(err instanceof BadParams)) log.warn(`dashboard: ${method} failed: ${message}`);
    json(res, err instanceof BadParams ? 400 : 500, { error: `${method}: ${message}` });
  }
  return true;
}
