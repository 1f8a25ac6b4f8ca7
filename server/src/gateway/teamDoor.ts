/**
 * `serve --http --team`: MCP Lens as an OAuth 2.1 protected resource, as the MCP authorization
 * specification describes. It publishes its Protected Resource Metadata (RFC 9728) at
 * `/.well-known/oauth-protected-resource` (and under the resource's path, where clients look
 * first), answers a request without a valid token with 401 and `WWW-Authenticate: Bearer
 * resource_metadata="…"` (with `error="invalid_token"` when a token was given, RFC 6750 §3.1),
 * and a request whose token lacks the scope it needs (core/team/scopes.ts) with 403
 * `error="insufficient_scope"` naming the scopes to ask for. Tokens are checked by an
 * AccessTokenVerifier (adapters/auth/accessTokens.ts); the person a token names is the session's
 * principal. Error texts never repeat a token.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TeamConfig } from '../core/team/teamConfig';
import { TEAM_SCOPES, scopeForMessage } from '../core/team/scopes';
import { personPrincipal, type Principal } from '../core/principal';
import { TokenRefused, type AccessTokenVerifier, type Identity } from '../adapters/auth/accessTokens';
import type { Logger } from '../core/logger';
import { errorMessage } from '../core/errorMessage';
import { bearerOf, sendJsonError } from './httpGuards';

const METADATA_ROOT = '/.well-known/oauth-protected-resource';

/** A quoted-string for an auth-param: no quotes, backslashes or control characters. */
const quoted = (s: string) => `"${s.replace(/[^\x20-\x7e]|["\\]/g, ' ')}"`;

export interface TeamDoorOptions {
  config: TeamConfig;
  verifier: AccessTokenVerifier;
  log: Logger;
}

export class TeamDoor {
  readonly metadataUrl: string;
  private readonly metadataPaths: Set<string>;

  constructor(private readonly o: TeamDoorOptions) {
    const resource = new URL(o.config.resource);
    const path = resource.pathname === '/' ? '' : resource.pathname.replace(/\/$/, '');
    // RFC 9728 §3.1: the well-known segment goes between the host and the resource's path.
    this.metadataUrl = new URL(`${METADATA_ROOT}${path}`, resource.origin).href;
    this.metadataPaths = new Set([METADATA_ROOT, `${METADATA_ROOT}${path}`]);
  }

  get resource(): string {
    return this.o.config.resource;
  }

  /** The allowed Host header values besides loopback: the resource's own host (behind a proxy or TLS). */
  get publicHost(): string {
    return new URL(this.o.config.resource).host;
  }

  get publicOrigin(): string {
    return new URL(this.o.config.resource).origin;
  }

  /** Serves the Protected Resource Metadata when `path` is where it lives; no token needed. */
  serveMetadata(path: string, res: ServerResponse): boolean {
    if (!this.metadataPaths.has(path)) return false;
    const body = JSON.stringify({
      resource: this.o.config.resource,
      authorization_servers: [this.o.config.signIn.issuer],
      scopes_supported: [...TEAM_SCOPES],
      bearer_methods_supported: ['header'],
      resource_name: 'MCP Lens',
    });
    res.writeHead(200, {
      'content-type': 'application/json',
      'cache-control': 'public, max-age=300',
      'access-control-allow-origin': '*',
    });
    res.end(body);
    return true;
  }

  /** The person the request's token names, or undefined once it answered 401 (or 503 when the provider is unreachable). */
  async authenticate(req: IncomingMessage, res: ServerResponse): Promise<Identity | undefined> {
    const token = bearerOf(req);
    if (token === undefined) {
      this.challenge(res, 401, undefined, 'Unauthorized: sign in to MCP Lens (Authorization: Bearer <access token>)');
      return undefined;
    }
    try {
      return await this.o.verifier.verify(token);
    } catch (err) {
      if (err instanceof TokenRefused) {
        this.challenge(res, 401, { error: 'invalid_token', description: err.message }, `Unauthorized: ${err.message}`);
        return undefined;
      }
      this.o.log.warn(`team sign-in: tokens cannot be checked: ${errorMessage(err)}`);
      sendJsonError(res, 503, -32000, `Service unavailable: MCP Lens cannot check tokens now (${errorMessage(err)})`, {
        'retry-after': '10',
      });
      return undefined;
    }
  }

  /**
   * Answers 403 insufficient_scope when a message of `body` (one, or a batch) needs a scope the
   * token does not carry; the challenge names the scopes the token has plus those missing, so a
   * new token asked for with them loses nothing.
   */
  refuseScope(identity: Identity, body: unknown, res: ServerResponse): boolean {
    const needed = new Set<string>();
    for (const m of Array.isArray(body) ? body : [body]) {
      const scope = scopeForMessage(m);
      if (scope && !identity.scopes.has(scope)) needed.add(scope);
    }
    if (needed.size === 0) return false;
    const missing = [...needed].join(' ');
    const scope = [...new Set([...identity.scopes].filter((s) => s.startsWith('mcp-lens:')).concat([...needed]))];
    this.challenge(
      res,
      403,
      { error: 'insufficient_scope', description: `this request needs the scope ${missing}`, scope: scope.join(' ') },
      `Forbidden: this request needs the scope ${missing}; sign in again granting it`,
    );
    return true;
  }

  /** Whether a session opened for `principal` may take this person's request; answers 403 when not. */
  owns(principal: Principal, identity: Identity, res: ServerResponse): boolean {
    if (this.principalOf(identity).id === principal.id) return true;
    sendJsonError(res, 403, -32003, 'Forbidden: this session belongs to another person; initialize your own');
    return false;
  }

  principalOf(identity: Identity): Principal {
    const person = { issuer: identity.issuer, subject: identity.subject };
    return personPrincipal(identity.name ? { ...person, name: identity.name } : person);
  }

  private challenge(
    res: ServerResponse,
    status: 401 | 403,
    problem: { error: string; description: string; scope?: string } | undefined,
    message: string,
  ): void {
    const params = problem
      ? [`error=${quoted(problem.error)}`, `error_description=${quoted(problem.description)}`]
      : [];
    params.push(`scope=${quoted(problem?.scope ?? TEAM_SCOPES.join(' '))}`);
    params.push(`resource_metadata=${quoted(this.metadataUrl)}`);
    sendJsonError(res, status, status === 401 ? -32001 : -32003, message, {
      'www-authenticate': `Bearer ${params.join(', ')}`,
    });
  }
}
