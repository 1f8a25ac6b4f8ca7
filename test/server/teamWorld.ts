/**
 * A team's world: a real OpenID provider (oidc-provider) on 127.0.0.1 that issues JWT access
 * tokens for MCP Lens's resource (RFC 8707 resource indicators, RFC 9068 tokens with the
 * person's groups), and a gateway in-process (`serve --http --team` as the CLI builds it, over a
 * real LensApp) whose team configuration trusts that provider. People sign in with the MCP
 * SDK's own client OAuth (the flow VS Code and Claude Code use), headlessly: the provider's
 * login and consent pages are answered as a person would. The test can also mint tokens with the
 * provider's key (expired, for another audience…) and rotate the provider's keys.
 * Everything binds 127.0.0.1 and is closed by `close()`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { RawServerEntry } from '../../protocol/settings';
import type { Logger } from '../../server/src/core/logger';
import { GatewayHttpServer } from '../../server/src/gateway/http';
import { teamServing } from '../../server/src/cli/serveTeam';
import { teamAdminRoutes } from '../../server/src/gateway/teamAdmin';
import { JsonlAuditSink } from '../../server/src/adapters/audit/jsonlAuditSink';
import { readTeamConfig } from '../../server/src/adapters/config/teamConfigFile';
import { TEAM_SCOPES } from '../../server/src/core/team/scopes';
import { startLens, type LensWorld } from '../fixtures/gatewayLens';

export interface Person {
  login: string;
  groups: string[];
  email?: string;
}

type Jwk = Record<string, unknown> & { kid: string };

export function rsaKeyForTest(kid: string): Jwk {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { ...(privateKey.export({ format: 'jwk' }) as Record<string, unknown>), kid, use: 'sig', alg: 'RS256' };
}

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Server> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

const portOf = (s: Server) => (s.address() as AddressInfo).port;

/** A free port on 127.0.0.1, for the gateway whose resource URI the provider must know first. */
export async function freePort(): Promise<number> {
  const s = await listen(() => undefined);
  const port = portOf(s);
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

export interface TeamProvider {
  issuer: string;
  /** Requests to the provider's JWKS endpoint so far. */
  jwksFetches(): number;
  /** The key the provider signs with now. */
  currentKey(): Jwk;
  /** Publishes a new signing key first (the old one still published), as a provider rotating keys does. */
  rotate(): Jwk;
  /** A JWT signed by `key` (default the provider's current one) with these claims over sane defaults. */
  mint(claims: Record<string, unknown>, key?: Jwk): Promise<string>;
  close(): Promise<void>;
}

/** The confidential client MCP Lens introspects tokens as (`signIn.tokens: "introspection"`). */
export const INTROSPECTION_CLIENT = { client_id: 'mcp-lens', client_secret: randomUUID() + randomUUID() };

/** `format`: the access tokens the provider issues: JWTs (checked locally) or opaque (introspected). */
export async function startTeamProvider(
  resource: string,
  people: Person[],
  format: 'jwt' | 'opaque' = 'jwt',
): Promise<TeamProvider> {
  let jwksFetches = 0;
  let keys = [rsaKeyForTest('k1')];
  let handler: (req: IncomingMessage, res: ServerResponse) => void = () => undefined;
  const http = await listen((req, res) => {
    if (req.url?.startsWith('/jwks')) jwksFetches++;
    handler(req, res);
  });
  const issuer = `http://127.0.0.1:${portOf(http)}`;
  const { default: Provider } = (await import('oidc-provider')) as unknown as {
    default: new (issuer: string, config: unknown) => { callback(): typeof handler };
  };
  const byLogin = new Map(people.map((p) => [p.login, p]));
  const build = () =>
    new Provider(issuer, {
      jwks: { keys },
      clients: [{ ...INTROSPECTION_CLIENT, redirect_uris: [], response_types: [], grant_types: [] }],
      scopes: ['openid', ...TEAM_SCOPES],
      pkce: { required: () => true },
      features: {
        devInteractions: { enabled: true },
        registration: { enabled: true },
        introspection: { enabled: true, allowedPolicy: async () => true },
        resourceIndicators: {
          enabled: true,
          defaultResource: async () => resource,
          useGrantedResource: async () => true,
          getResourceServerInfo: async () => ({
            scope: TEAM_SCOPES.join(' '),
            audience: resource,
            accessTokenTTL: 3600,
            accessTokenFormat: format,
            ...(format === 'jwt' && { jwt: { sign: { alg: 'RS256' } } }),
          }),
        },
      },
      extraTokenClaims: async (_ctx: unknown, token: { accountId?: string }) => {
        const person = token.accountId ? byLogin.get(token.accountId) : undefined;
        return person ? { groups: person.groups, ...(person.email && { email: person.email }) } : {};
      },
      findAccount: async (_ctx: unknown, id: string) => ({ accountId: id, claims: async () => ({ sub: id }) }),
    });
  handler = build().callback();
  const jose = await import('jose');
  return {
    issuer,
    jwksFetches: () => jwksFetches,
    currentKey: () => keys[0]!,
    rotate() {
      const next = rsaKeyForTest(`k${keys.length + 1}`);
      keys = [next, ...keys];
      handler = build().callback();
      return next;
    },
    async mint(claims, key = keys[0]!) {
      const now = Math.floor(Date.now() / 1000);
      const signing = await jose.importJWK(key, 'RS256');
      return new jose.SignJWT({ scope: TEAM_SCOPES.join(' '), groups: [], ...claims })
        .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'at+jwt' })
        .setIssuer((claims.iss as string | undefined) ?? issuer)
        .setAudience((claims.aud as string | undefined) ?? resource)
        .setSubject((claims.sub as string | undefined) ?? 'minted')
        .setIssuedAt(now)
        .setExpirationTime((claims.exp as number | undefined) ?? now + 600)
        .sign(signing);
    },
    async close() {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

export interface TeamWorld {
  resource: string;
  provider: TeamProvider;
  gateway: GatewayHttpServer;
  lens: LensWorld;
  logged: string[];
  /** The team configuration file and the audit file it names. */
  teamFile: string;
  auditFile: string;
  close(): Promise<void>;
}

/**
 * A provider, a Lens over `servers`, and the team gateway. `team`: the team configuration beyond
 * `resource` and the issuer (servers, admins, signIn options, audit).
 */
export async function startTeamWorld(
  servers: Record<string, RawServerEntry>,
  people: Person[],
  team: Record<string, unknown> & { signIn?: Record<string, unknown> },
  settings: Record<string, unknown> = {},
  format: 'jwt' | 'opaque' = 'jwt',
): Promise<TeamWorld> {
  const port = await freePort();
  const resource = `http://127.0.0.1:${port}/mcp`;
  const provider = await startTeamProvider(resource, people, format);
  const rules = (team.servers ?? {}) as Record<string, { shared?: boolean }>;
  const shared = new Set(Object.keys(rules).filter((s) => rules[s]!.shared === true));
  // As `serve --team` opens it (cli/lensFromArgs.ts teamSettings, the shared servers).
  const lens = await startLens(servers, { ...settings, search: { learnFromUsage: false } as never }, undefined, {
    sharedServers: shared,
  });
  const logged: string[] = [];
  const keep = (m: string) => void logged.push(m);
  const log: Logger = { trace: keep, debug: keep, info: keep, warn: keep, error: keep };
  const file = join(lens.workspace.dir, 'team.json');
  const { signIn, ...rest } = team;
  writeFileSync(file, JSON.stringify({ resource, signIn: { issuer: provider.issuer, ...signIn }, ...rest }));
  const config = readTeamConfig(file);
  const env = { TEAM_INTROSPECTION_SECRET: INTROSPECTION_CLIENT.client_secret };
  const { team: serving } = teamServing(config, lens.lens, log, env);
  const sink = new JsonlAuditSink(config.audit.file!);
  const audit = { sink, arguments: config.audit.arguments, replica: 'test-replica' };
  const routes = teamAdminRoutes({
    ...serving,
    pending: () => lens.lens.pendingApprovals(),
    approve: (name, fingerprint) => lens.lens.approve({ [name]: fingerprint }),
  });
  const gateway = new GatewayHttpServer({
    lens: lens.lens,
    token: randomUUID(),
    port,
    log,
    team: serving,
    routes,
    audit,
  });
  await gateway.start();
  return {
    resource,
    provider,
    gateway,
    lens,
    logged,
    teamFile: file,
    auditFile: config.audit.file!,
    async close() {
      await gateway.close();
      await sink.close();
      await lens.close();
      await provider.close();
    },
  };
}

const REDIRECT = 'http://127.0.0.1:9/callback';

/** What the SDK asks of a client app; kept in memory, as an editor keeps it in its secret storage. */
export class MemoryClientAuth implements OAuthClientProvider {
  authorizationUrl: URL | undefined;
  private info: OAuthClientInformationMixed | undefined;
  private saved: OAuthTokens | undefined;
  private verifier = '';
  get redirectUrl(): string {
    return REDIRECT;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      redirect_uris: [REDIRECT],
      client_name: 'team test client',
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/**
 * The person's browser: follows the authorization URL through the provider's login (as `login`)
 * and consent pages until it is sent to the client's redirect URI; returns the code.
 */
export async function authorizeAs(url: URL, login: string): Promise<string> {
  const jar = new Map<string, string>();
  let next: { url: URL; init?: RequestInit } | undefined = { url };
  for (let hop = 0; next && hop < 20; hop++) {
    const headers = new Headers(next.init?.headers);
    if (jar.size) headers.set('cookie', [...jar].map(([k, v]) => `${k}=${v}`).join('; '));
    const response: Response = await fetch(next.url, { ...next.init, headers, redirect: 'manual' });
    for (const c of response.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const eq = pair!.indexOf('=');
      if (eq > 0) jar.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim());
    }
    const location = response.headers.get('location');
    if (location) {
      await response.body?.cancel();
      const target: URL = new URL(location, next.url);
      if (target.href.startsWith(REDIRECT)) {
        const code = target.searchParams.get('code');
        if (!code) throw new Error(`authorization refused: ${target.searchParams.get('error_description')}`);
        return code;
      }
      next = { url: target };
      continue;
    }
    next = formOf(next.url, await response.text(), login);
  }
  throw new Error('the authorization never reached the redirect URI');
}

function formOf(page: URL, body: string, login: string): { url: URL; init: RequestInit } | undefined {
  const form = /<form\b([^>]*)>([\s\S]*?)<\/form>/i.exec(body);
  if (!form) return undefined;
  const action = /\baction="([^"]*)"/i.exec(form[1]!)?.[1] ?? page.pathname;
  const fields = new URLSearchParams();
  for (const input of form[2]!.matchAll(/<input\b([^>]*)>/gi)) {
    const name = /\bname="([^"]*)"/i.exec(input[1]!)?.[1];
    if (!name) continue;
    const value = /\bvalue="([^"]*)"/i.exec(input[1]!)?.[1];
    fields.set(name, value ?? (name === 'login' ? login : name === 'password' ? 'any' : ''));
  }
  return {
    url: new URL(action.replace(/&amp;/g, '&'), page),
    init: { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: fields.toString() },
  };
}

/**
 * Signs `login` in to MCP Lens the way an editor does: connect, get 401, discover the provider
 * through MCP Lens's Protected Resource Metadata, register, authorize (PKCE, resource), exchange
 * the code, connect again with the token.
 */
export async function signedInClient(
  resource: string,
  login: string,
  auth = new MemoryClientAuth(),
): Promise<{ client: Client; auth: MemoryClientAuth; close(): Promise<void> }> {
  const first = new StreamableHTTPClientTransport(new URL(resource), { authProvider: auth });
  const probe = new Client({ name: `${login}-client`, version: '1.0.0' });
  try {
    await probe.connect(first);
  } catch (err) {
    if (!(err instanceof UnauthorizedError)) throw err;
    await first.finishAuth(await authorizeAs(auth.authorizationUrl!, login));
  }
  await first.close().catch(() => undefined);
  const client = new Client({ name: `${login}-client`, version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(resource), { authProvider: auth }));
  return { client, auth, close: () => client.close() };
}
