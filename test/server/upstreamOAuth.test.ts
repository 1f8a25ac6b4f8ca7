/**
 * Signing in to a remote MCP server, against a real OpenID provider (oidc-provider) on 127.0.0.1
 * in front of a protected MCP server of our own (test/server/oidcWorld.ts): the upstream pool
 * with MCP Lens's OAuth provider, the sign-in completing headlessly (the provider's own login
 * and consent pages answered as a person would). Sign-in, refresh after expiry, revocation, a
 * server whose metadata names another server (wrong audience), sign-out; tokens never logged,
 * configured headers never sent to the provider.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { UpstreamCallError, UpstreamPool } from '../../server/src/adapters/upstream/pool';
import { MemoryOAuthStore, oauthStoreKey } from '../../server/src/adapters/upstream/auth/oauthStore';
import { lineLogger } from '../../server/src/core/logger';
import { remoteConfig, statusOf, until } from '../fixtures/servers/poolWorld';
import { headlessDoor, submitFirstForm } from '../conformance/headlessDoor';
import { startOidcWorld, type OidcWorld } from './oidcWorld';

const text = (r: { content?: unknown }) =>
  (r.content as { type: string; text?: string }[]).map((c) => c.text ?? '').join('');
const HEADER_SECRET = 'header-secret-not-for-the-provider';

describe('upstream OAuth against a real OpenID provider', () => {
  let world: OidcWorld;
  let pool: UpstreamPool;
  const store = new MemoryOAuthStore();
  const opened: URL[] = [];
  const logged: string[] = [];
  const key = () => oauthStoreKey('protected', world.mcpUrl);
  const tokens = async () => (await store.read(key()))?.tokens;

  before(async () => {
    world = await startOidcWorld({ accessTokenTtlSeconds: 3 });
    pool = new UpstreamPool({
      log: lineLogger((_, l) => logged.push(l), 'trace'),
      connectTimeoutMs: 15_000,
      requestTimeoutMs: 15_000,
      oauth: {
        store,
        door: headlessDoor({ answer: submitFirstForm, onAuthorization: (u) => opened.push(u) }),
        signInTimeoutMs: 15_000,
      },
    });
    await pool.setServers([
      remoteConfig('protected', 'http', world.mcpUrl, { 'X-Api-Key': HEADER_SECRET }),
      remoteConfig('liar', 'http', world.liarUrl),
    ]);
  });

  after(async () => {
    await pool?.close();
    await world?.close();
  });

  test('a server that needs an account waits for a sign-in: nothing opens or registers by itself, calls say to sign in', async () => {
    const s = statusOf(pool, 'protected');
    assert.equal(s.state, 'needs-sign-in', s.error);
    assert.equal(s.signIn, true);
    assert.equal(opened.length, 0, 'no authorization page opened in the background');
    assert.equal(
      world.events.filter((e) => e.kind === 'registration').length,
      0,
      'no client registered in the background',
    );
    await assert.rejects(
      pool.callTool('protected', 'whoami', {}, { timeoutMs: 5000 }),
      (e: unknown) =>
        e instanceof UpstreamCallError && e.kind === 'needs-sign-in' && /sign in to protected first/.test(e.message),
    );
  });

  test('sign-in: dynamic registration as a native app, PKCE, the resource indicator; then tools are listed and called', async () => {
    await pool.signIn('protected');
    await until(pool, () => statusOf(pool, 'protected').state === 'ready', 'protected ready after sign-in');
    assert.deepEqual(
      pool
        .tools()
        .filter((t) => t.server === 'protected')
        .map((t) => t.name)
        .sort(),
      ['add_numbers', 'whoami'],
    );
    assert.equal(text(await pool.callTool('protected', 'add_numbers', { a: 2, b: 3 }, { timeoutMs: 5000 })), '5');

    const registration = world.events.find((e) => e.kind === 'registration');
    assert.ok(registration, 'registered dynamically');
    const authorization = new URL(opened[0]!);
    assert.equal(authorization.searchParams.get('code_challenge_method'), 'S256');
    assert.ok(authorization.searchParams.get('code_challenge'));
    assert.equal(authorization.searchParams.get('resource'), world.mcpUrl);
    assert.match(authorization.searchParams.get('scope') ?? '', /mcp:tools/);
    assert.match(authorization.searchParams.get('redirect_uri') ?? '', /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const exchange = world.events.find((e) => e.kind === 'token' && e.grantType === 'authorization_code');
    assert.equal(exchange?.params.resource, world.mcpUrl, 'the token request names the resource too');

    const stored = await tokens();
    assert.ok(stored?.access_token && stored.refresh_token);
    assert.equal(stored.issuer, world.issuer, 'tokens are stamped with their authorization server');
    const info = await world.introspect(stored.access_token);
    assert.equal(info.active, true);
    assert.deepEqual([info.aud].flat(), [world.mcpUrl], 'the token is for this server only');
  });

  test('expiry: an expired access token is refreshed with the refresh token, without the user', async () => {
    const before = (await tokens())!.access_token;
    const refreshesBefore = world.events.filter((e) => e.grantType === 'refresh_token').length;
    // The provider's clock decides: wait until it says the token is no longer active.
    for (const deadline = Date.now() + 15_000; (await world.introspect(before)).active;) {
      assert.ok(Date.now() < deadline, 'the access token did not expire');
      await new Promise((r) => setTimeout(r, 250));
    }
    assert.equal(text(await pool.callTool('protected', 'whoami', {}, { timeoutMs: 10_000 })), 'a signed-in user');
    assert.ok(
      world.events.filter((e) => e.grantType === 'refresh_token').length > refreshesBefore,
      'a refresh_token grant was made',
    );
    assert.notEqual((await tokens())!.access_token, before);
    assert.equal(statusOf(pool, 'protected').state, 'ready');
    assert.equal(opened.length, 1, 'no new authorization page');
  });

  test('revocation: with the refresh token revoked the server needs sign-in again, its calls say so; signing in again works', async () => {
    const t = (await tokens())!;
    const client = (await store.read(key()))!.client!;
    await world.revoke(t.refresh_token!, client.client_id, 'refresh_token');
    await world.revoke(t.access_token, client.client_id, 'access_token');
    await assert.rejects(
      pool.callTool('protected', 'whoami', {}, { timeoutMs: 10_000 }),
      (e: unknown) => e instanceof UpstreamCallError && e.kind === 'needs-sign-in',
    );
    await until(pool, () => statusOf(pool, 'protected').state === 'needs-sign-in', 'needs-sign-in after revocation');
    await pool.signIn('protected');
    await until(pool, () => statusOf(pool, 'protected').state === 'ready', 'ready after signing in again');
    assert.equal(text(await pool.callTool('protected', 'whoami', {}, { timeoutMs: 5000 })), 'a signed-in user');
  });

  test('wrong audience: a server whose metadata names another server is never signed in to, and never sees its token', async () => {
    // Nothing is discovered before the user asks to sign in: it just needs sign-in.
    assert.equal(statusOf(pool, 'liar').state, 'needs-sign-in');
    const authorizations = opened.length;
    await assert.rejects(pool.signIn('liar'), /does not match/);
    assert.equal(opened.length, authorizations, 'no authorization page for the liar');
    const s = statusOf(pool, 'liar');
    assert.equal(s.state, 'needs-sign-in');
    assert.match(s.error ?? '', /sign-in failed: .*Protected resource .* does not match/);
    const issued = new Set(world.seen.filter((r) => r.server === 'mcp' && r.token).map((r) => r.token));
    assert.ok(issued.size > 0);
    assert.ok(!world.seen.some((r) => r.server === 'liar' && r.token), 'no token was ever sent to the other server');
    // And the protected server itself refuses a token issued for another audience.
    const token = (await tokens())!.access_token;
    const r = await fetch(world.liarUrl, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(r.status, 401);
  });

  test('sign-out forgets the tokens; secrets never reach the log, the provider or an error', async () => {
    const last = (await tokens())!;
    await pool.signOut('protected');
    await until(pool, () => statusOf(pool, 'protected').state === 'needs-sign-in', 'needs-sign-in after sign-out');
    assert.equal(await store.read(key()), undefined);
    const secrets = [last.access_token, last.refresh_token!, HEADER_SECRET];
    for (const line of logged)
      for (const secret of secrets)
        assert.ok(!line.includes(secret), `log line carries a secret: ${line.slice(0, 80)}`);
    for (const status of pool.statuses())
      for (const secret of secrets) assert.ok(!(status.error ?? '').includes(secret));
    assert.ok(
      !world.events.some((e) => JSON.stringify(e.headers).includes(HEADER_SECRET)),
      'the configured header never went to the provider',
    );
  });
});
