/**
 * Access tokens of the team's identity provider, checked the way the MCP authorization
 * specification asks of a resource server: issued by the configured issuer, for MCP Lens (the
 * audience is its resource URI, RFC 8707), not expired nor not yet valid, and signed by a key of
 * the provider's JWKS (found through its metadata, RFC 8414 / OpenID discovery). A token naming a
 * key MCP Lens does not hold makes it fetch the keys again (the provider rotated them), at most
 * once per `jwksRefetchSeconds`, so a stream of forged tokens cannot make it hammer the provider.
 * Or, where tokens are opaque, the provider is asked (introspection, RFC 7662).
 * A refusal says why in plain words and never repeats the token.
 */
import type { TeamSignIn } from '../../core/team/teamConfig';
import { groupsOf, scopesOf } from '../../core/team/scopes';
import { errorMessage } from '../../core/errorMessage';

/** jose is ESM only: loaded on first use (and bundled whole by esbuild). */
const loadJose = () => import('jose');
type Jose = Awaited<ReturnType<typeof loadJose>>;
type JWTPayload = Record<string, unknown> & { sub?: string };

/** Whom a valid token names, and what it allows. */
export interface Identity {
  issuer: string;
  subject: string;
  /** From the configured name claims: for the audit and messages (untrusted text). */
  name?: string;
  groups: string[];
  scopes: Set<string>;
}

/** A token that is not accepted: RFC 6750's `invalid_token`, with a description for the client. */
export class TokenRefused extends Error {
  readonly error = 'invalid_token';
}

export interface AccessTokenVerifier {
  verify(token: string): Promise<Identity>;
}

/** What the provider's metadata says MCP Lens needs. */
interface ProviderMetadata {
  jwks_uri?: string;
  introspection_endpoint?: string;
}

const METADATA_TIMEOUT_MS = 10_000;

/**
 * The provider's metadata: OpenID discovery first, then RFC 8414 (path inserted after the host).
 * Its `issuer` must be the configured one (RFC 8414 §3.3), or a look-alike could name other keys.
 */
export async function providerMetadata(issuer: string, fetchFn: typeof fetch = fetch): Promise<ProviderMetadata> {
  const url = new URL(issuer);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  const candidates = [
    new URL(`${path}/.well-known/openid-configuration`, url.origin),
    new URL(`/.well-known/oauth-authorization-server${path}`, url.origin),
  ];
  const failures: string[] = [];
  for (const candidate of candidates) {
    try {
      const response = await fetchFn(candidate, { signal: AbortSignal.timeout(METADATA_TIMEOUT_MS) });
      if (!response.ok) {
        failures.push(`${candidate.pathname}: HTTP ${response.status}`);
        continue;
      }
      const body = (await response.json()) as ProviderMetadata & { issuer?: unknown };
      if (body.issuer !== issuer)
        throw new Error(`its metadata names the issuer "${String(body.issuer).slice(0, 200)}", not "${issuer}"`);
      return body;
    } catch (err) {
      failures.push(`${candidate.pathname}: ${errorMessage(err)}`);
    }
  }
  throw new Error(`the identity provider ${issuer} has no usable metadata (${failures.join('; ')})`);
}

/** Who the claims name, once the token's validity is settled. */
function identityOf(claims: JWTPayload, o: TeamSignIn): Identity {
  if (typeof claims.sub !== 'string' || claims.sub === '') throw new TokenRefused('the token names no subject (sub)');
  const identity: Identity = {
    issuer: o.issuer,
    subject: claims.sub,
    groups: groupsOf(claims, o.groupsClaim),
    scopes: scopesOf(claims),
  };
  const name = o.nameClaims.map((c) => claims[c]).find((v): v is string => typeof v === 'string' && v !== '');
  if (name) identity.name = name.slice(0, 200);
  return identity;
}

/** JWT access tokens checked here; the keys are fetched on first use and on an unknown key id. */
export function jwtVerifier(o: TeamSignIn, fetchFn: typeof fetch = fetch): AccessTokenVerifier {
  let keys: Promise<{ jose: Jose; jwks: ReturnType<Jose['createRemoteJWKSet']> }> | undefined;
  const keySet = () =>
    (keys ??= Promise.all([loadJose(), providerMetadata(o.issuer, fetchFn)])
      .then(([jose, m]) => {
        if (!m.jwks_uri) throw new Error(`the identity provider ${o.issuer} publishes no jwks_uri`);
        const jwks = jose.createRemoteJWKSet(new URL(m.jwks_uri), {
          cooldownDuration: o.jwksRefetchSeconds * 1000,
          timeoutDuration: METADATA_TIMEOUT_MS,
        });
        return { jose, jwks };
      })
      .catch((err: unknown) => {
        // Tried again by the next request: a provider that was down at start must not lock everyone out.
        keys = undefined;
        throw err;
      }));
  return {
    async verify(token) {
      const { jose, jwks } = await keySet();
      try {
        const { payload } = await jose.jwtVerify(token, jwks, {
          issuer: o.issuer,
          audience: o.audience,
          clockTolerance: o.clockToleranceSeconds,
          requiredClaims: ['exp'],
        });
        return identityOf(payload, o);
      } catch (err) {
        throw refusalOf(err, jose.errors);
      }
    },
  };
}

/** What a failed check becomes: the reason in words; a failure to reach the provider stays an error of ours. */
function refusalOf(err: unknown, joseErrors: Jose['errors']): Error {
  if (err instanceof TokenRefused) return err;
  if (err instanceof joseErrors.JWTExpired) return new TokenRefused('the token has expired');
  if (err instanceof joseErrors.JWTClaimValidationFailed) {
    const why: Record<string, string> = {
      iss: 'the token was issued by another identity provider',
      aud: 'the token is not for this MCP Lens (its audience is another resource)',
      nbf: 'the token is not valid yet',
      exp: 'the token has no expiry',
    };
    return new TokenRefused(why[err.claim] ?? `the token's "${err.claim}" claim is not accepted`);
  }
  if (err instanceof joseErrors.JWKSNoMatchingKey)
    return new TokenRefused('the token is signed with a key the identity provider does not publish (or not any more)');
  if (err instanceof joseErrors.JWSSignatureVerificationFailed)
    return new TokenRefused('the token signature is not valid');
  if (err instanceof joseErrors.JOSEError) return new TokenRefused('the token is not a valid signed JWT');
  return err instanceof Error ? err : new Error(String(err));
}

/** Opaque tokens, asked of the provider's introspection endpoint as its confidential client. */
export function introspectionVerifier(
  o: TeamSignIn,
  clientSecret: string,
  fetchFn: typeof fetch = fetch,
): AccessTokenVerifier {
  const client = o.introspection!;
  let endpoint: Promise<string> | undefined;
  const endpointOf = () =>
    (endpoint ??= providerMetadata(o.issuer, fetchFn)
      .then((m) => {
        if (!m.introspection_endpoint)
          throw new Error(`the identity provider ${o.issuer} publishes no introspection_endpoint`);
        return m.introspection_endpoint;
      })
      .catch((err: unknown) => {
        endpoint = undefined;
        throw err;
      }));
  const basic = Buffer.from(`${encodeURIComponent(client.clientId)}:${encodeURIComponent(clientSecret)}`).toString(
    'base64',
  );
  return {
    async verify(token) {
      const response = await fetchFn(await endpointOf(), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}` },
        body: new URLSearchParams({ token, token_type_hint: 'access_token' }),
        signal: AbortSignal.timeout(METADATA_TIMEOUT_MS),
      });
      if (!response.ok) throw new Error(`the identity provider's introspection answered HTTP ${response.status}`);
      const claims = (await response.json()) as Record<string, unknown>;
      if (claims.active !== true) throw new TokenRefused('the token is not active (expired, revoked or unknown)');
      if (claims.iss !== undefined && claims.iss !== o.issuer)
        throw new TokenRefused('the token was issued by another identity provider');
      const audience = [claims.aud].flat();
      if (!audience.includes(o.audience))
        throw new TokenRefused('the token is not for this MCP Lens (its audience is another resource)');
      const now = Date.now() / 1000;
      if (typeof claims.exp === 'number' && claims.exp + o.clockToleranceSeconds < now)
        throw new TokenRefused('the token has expired');
      if (typeof claims.nbf === 'number' && claims.nbf - o.clockToleranceSeconds > now)
        throw new TokenRefused('the token is not valid yet');
      return identityOf(claims, o);
    },
  };
}
