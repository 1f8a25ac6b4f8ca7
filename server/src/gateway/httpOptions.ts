/**
 * What `GatewayHttpServer` (http.ts) is given: the Lens it serves, the token or the team's
 * sign-in, where it listens, its limits, and the routes beside `/mcp` (the dashboard).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Lens } from '../app/lens';
import type { Logger } from '../core/logger';
import type { Principal } from '../core/principal';
import type { TeamDoor } from './teamDoor';
import type { ToolView } from './toolView';
import type { AuditSettings } from './callAudit';

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
   * Whom a new session acts for, from its initialize request (core/principal.ts); and a
   * 2026-07-28 request, which has no session (default there: the token's, modern/modernContext.ts).
   * Default: each session is a principal of its own (`serve --http`: every client holds the one token, which
   * says a client may use the gateway, not which client it is). The editor's sidecar, whose
   * token only VS Code holds, makes every session the workspace.
   */
  principalFor?: (initialize: IncomingMessage) => Principal;
  /**
   * A team's gateway: people sign in (teamDoor.ts) instead of holding `token`; each session acts
   * for the person its token names, and sees what `viewFor` leaves them (the team's policy).
   */
  team?: { door: TeamDoor; viewFor(groups: () => readonly string[]): ToolView };
  /** The address to listen on (default 127.0.0.1); serve allows another only with a team and TLS (or a TLS proxy). */
  host?: string;
  /** Serve HTTPS with this certificate and key (PEM). */
  tls?: { cert: Buffer; key: Buffer };
  /** Audit every tool call (a team's gateway: callAudit.ts). */
  audit?: AuditSettings;
}
