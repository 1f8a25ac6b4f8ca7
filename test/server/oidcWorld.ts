/**
 * A real OpenID provider (the npm package oidc-provider) on 127.0.0.1 in front of a protected MCP
 * server of our own: the SDK's server, whose bearer check asks the provider's introspection
 * endpoint and accepts only active tokens whose audience is this server's URL and whose scope
 * holds `mcp:tools`. Dynamic registration, PKCE, resource indicators (RFC 8707), refresh tokens
 * and revocation are the provider's own. Everything binds 127.0.0.1 and is closed by `close()`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

export interface ProviderEvent {
  kind: 'authorization' | 'token' | 'registration' | 'revocation';
  grantType?: string;
  params: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
}

export interface OidcWorld {
  issuer: string;
  /** The protected MCP server's URL. */
  mcpUrl: string;
  /** Every request the provider received, in order (authorization, token, registration, revocation). */
  events: ProviderEvent[];
  /** Every request the MCP server received: its path and the bearer token it carried. */
  seen: { server: 'mcp' | 'liar'; path: string; token?: string }[];
  /** A second protected server, at another origin, whose metadata names `mcpUrl` as its resource (a lie). */
  liarUrl: string;
  introspect(token: string): Promise<{ active: boolean; aud?: string | string[]; exp?: number }>;
  /** Revokes a token at the provider's revocation endpoint, as its client (public: client_id only). */
  revoke(token: string, clientId: string, hint: 'access_token' | 'refresh_token'): Promise<void>;
  close(): Promise<void>;
}

const RS_CLIENT = { client_id: 'mcp-resource-server', client_secret: randomBytes(24).toString('hex') };
const SCOPE = 'mcp:tools';

interface ProviderLike {
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
  use(middleware: (ctx: KoaContext, next: () => Promise<void>) => Promise<void>): void;
}
interface KoaContext {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  oidc?: { params?: Record<string, unknown> };
  req: IncomingMessage;
}

async function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  host = '127.0.0.1',
): Promise<{ server: Server; origin: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { server, origin: `http://${host}:${(server.address() as AddressInfo).port}` };
}

/**
 * `providerHost`: the loopback address the provider listens on. The e2e uses 127.0.0.2: VS Code
 * in a browser (code-server) sends `localhost` and `127.0.0.1` addresses it opens through its own
 * port proxy, which a provider at a real host never is.
 */
export async function startOidcWorld(
  options: { accessTokenTtlSeconds?: number; providerHost?: string } = {},
): Promise<OidcWorld> {
  // Ports first: the issuer and the resource must be known when the provider is configured.
  const providerHttp = await listen(() => undefined, options.providerHost);
  const mcpHttp = await listen(() => undefined);
  const liarHttp = await listen(() => undefined);
  const issuer = providerHttp.origin;
  const mcpUrl = `${mcpHttp.origin}/mcp`;
  const liarUrl = `${liarHttp.origin}/mcp`;
  const events: ProviderEvent[] = [];
  const seen: OidcWorld['seen'] = [];

  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = {
    ...(privateKey.export({ format: 'jwk' }) as Record<string, unknown>),
    kid: 'test',
    use: 'sig',
    alg: 'RS256',
  };
  // ESM-only package: loaded dynamically from this CommonJS test.
  const { default: Provider } = (await import('oidc-provider')) as unknown as {
    default: new (issuer: string, config: unknown) => ProviderLike;
  };
  const provider = new Provider(issuer, {
    jwks: { keys: [jwk] },
    clients: [{ ...RS_CLIENT, redirect_uris: [], response_types: [], grant_types: [] }],
    scopes: ['openid', 'offline_access', SCOPE],
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: true },
      registration: { enabled: true },
      introspection: { enabled: true, allowedPolicy: async () => true },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: async () => mcpUrl,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx: unknown, resource: string) => ({
          scope: SCOPE,
          audience: resource,
          accessTokenTTL: options.accessTokenTtlSeconds ?? 3600,
          accessTokenFormat: 'opaque',
        }),
      },
    },
    // A refresh token for every code grant of a client that may refresh (no offline_access needed).
    issueRefreshToken: async (_ctx: unknown, client: { grantTypeAllowed(t: string): boolean }) =>
      client.grantTypeAllowed('refresh_token'),
    findAccount: async (_ctx: unknown, id: string) => ({ accountId: id, claims: async () => ({ sub: id }) }),
  });
  provider.use(async (ctx, next) => {
    const kind =
      ctx.path === '/auth'
        ? 'authorization'
        : ctx.path === '/token'
          ? 'token'
          : ctx.path === '/reg'
            ? 'registration'
            : ctx.path === '/token/revocation'
              ? 'revocation'
              : undefined;
    await next();
    if (!kind) return;
    const params = Object.fromEntries(
      Object.entries(ctx.oidc?.params ?? ctx.query).filter(([, v]) => typeof v === 'string'),
    ) as Record<string, string>;
    events.push({
      kind,
      ...(typeof params.grant_type === 'string' && { grantType: params.grant_type }),
      params,
      headers: { ...ctx.headers },
    });
  });
  providerHttp.server.on('request', provider.callback());

  const introspect = async (token: string) => {
    const r = await fetch(`${issuer}/token/introspection`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${RS_CLIENT.client_id}:${RS_CLIENT.client_secret}`).toString('base64')}`,
      },
      body: new URLSearchParams({ token }),
    });
    return (await r.json()) as { active: boolean; aud?: string | string[]; exp?: number; scope?: string };
  };

  const protectedServer =
    (label: 'mcp' | 'liar', resourceUrl: string, advertised: string) =>
    async (req: IncomingMessage, res: ServerResponse) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const prmPath = '/.well-known/oauth-protected-resource/mcp';
      const auth = req.headers.authorization;
      const token = auth?.startsWith('Bearer ') ? auth.slice(7) : undefined;
      seen.push({ server: label, path, ...(token && { token }) });
      if (req.method === 'GET' && path === prmPath) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(
          JSON.stringify({
            resource: advertised,
            authorization_servers: [issuer],
            scopes_supported: [SCOPE],
            bearer_methods_supported: ['header'],
          }),
        );
      }
      if (path !== '/mcp') return void res.writeHead(404).end();
      const challenge = (error?: string) => {
        res.writeHead(401, {
          'content-type': 'application/json',
          'www-authenticate': `Bearer ${error ? `error="${error}", ` : ''}scope="${SCOPE}", resource_metadata="${new URL(prmPath, resourceUrl).href}"`,
        });
        res.end(JSON.stringify({ error: error ?? 'unauthorized' }));
      };
      if (!token) return challenge();
      const info = await introspect(token);
      const audience = Array.isArray(info.aud) ? info.aud : info.aud ? [info.aud] : [];
      if (!info.active || !audience.includes(resourceUrl) || !(info.scope ?? '').split(' ').includes(SCOPE))
        return challenge('invalid_token');
      if (req.method !== 'POST') return void res.writeHead(405).end();
      const server = new McpServer({ name: 'protected', version: '1.0.0' });
      server.registerTool('whoami', { description: 'Says who the token belongs to' }, async () => ({
        content: [{ type: 'text', text: 'a signed-in user' }],
      }));
      server.registerTool(
        'add_numbers',
        { description: 'Adds two numbers', inputSchema: { a: z.number(), b: z.number() } },
        async ({ a, b }) => ({
          content: [{ type: 'text', text: String(a + b) }],
        }),
      );
      const transport = new StreamableHTTPServerTransport({});
      res.on('close', () => void transport.close().then(() => server.close()));
      await server.connect(transport);
      await transport.handleRequest(req, res);
    };
  mcpHttp.server.on('request', (req, res) => void protectedServer('mcp', mcpUrl, mcpUrl)(req, res));
  // Its metadata claims to be the first server: a client must not sign in for it (audience).
  liarHttp.server.on('request', (req, res) => void protectedServer('liar', liarUrl, mcpUrl)(req, res));

  return {
    issuer,
    mcpUrl,
    liarUrl,
    events,
    seen,
    introspect,
    async revoke(token, clientId, hint) {
      const r = await fetch(`${issuer}/token/revocation`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token, token_type_hint: hint, client_id: clientId }),
      });
      if (!r.ok) throw new Error(`revocation: HTTP ${r.status} ${await r.text()}`);
    },
    async close() {
      for (const s of [providerHttp.server, mcpHttp.server, liarHttp.server]) {
        s.closeAllConnections();
        await new Promise<void>((resolve) => s.close(() => resolve()));
      }
    },
  };
}
