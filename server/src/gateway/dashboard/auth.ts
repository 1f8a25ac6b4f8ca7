/**
 * Who may see the dashboard. The URL printed by `serve --http` carries the gateway token
 * once (`/?token=…`); the page trades it for an HttpOnly, SameSite=Strict cookie and the
 * token leaves the address bar. The cookie holds a value derived from the token, not the
 * token itself, so it cannot be replayed as the /mcp bearer token. POSTs also need a
 * same-origin Origin header (CSRF).
 */
import { createHmac } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { tokensEqual } from '../httpGuards';

export class DashboardAuth {
  private readonly session: string;

  constructor(private readonly token: string) {
    this.session = createHmac('sha256', token).update('mcp-lens dashboard session').digest('hex');
  }

  /** Cookie names are not port-scoped: two instances on 127.0.0.1 must not overwrite each other's. */
  cookieName(req: IncomingMessage): string {
    const port = /:(\d+)$/.exec(req.headers.host ?? '')?.[1] ?? '80';
    return `mcp_lens_${port}`;
  }

  tokenMatches(candidate: string | null): boolean {
    return candidate !== null && tokensEqual(candidate, this.token);
  }

  hasSession(req: IncomingMessage): boolean {
    const value = readCookie(req.headers.cookie, this.cookieName(req));
    return value !== undefined && tokensEqual(value, this.session);
  }

  sessionCookie(req: IncomingMessage): string {
    return `${this.cookieName(req)}=${this.session}; HttpOnly; SameSite=Strict; Path=/`;
  }

  /** True when the request comes from a page of this same origin. */
  sameOrigin(req: IncomingMessage): boolean {
    const origin = req.headers.origin;
    const host = req.headers.host;
    return typeof origin === 'string' && typeof host === 'string' && origin === `http://${host}`;
  }
}

function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
