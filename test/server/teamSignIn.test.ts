/**
 * People sign in to MCP Lens (issue 36, item 1): `serve --http --team` as an OAuth 2.1 protected
 * resource, against a real OpenID provider (oidc-provider on 127.0.0.1, test/server/teamWorld.ts).
 * The MCP SDK's own client OAuth signs in end to end through MCP Lens's Protected Resource
 * Metadata; tokens that must not pass are refused with the error RFC 6750 and the MCP
 * authorization specification name (401 invalid_token, 403 insufficient_scope), each with
 * `resource_metadata` so a client knows where to sign in.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { EVERYTHING } from '../fixtures/gatewayLens';
import { jwtVerifier, TokenRefused } from '../../server/src/adapters/auth/accessTokens';
import { startTeamWorld, signedInClient, rsaKeyForTest, type TeamWorld } from './teamWorld';

const text = (r: unknown) =>
  ((r as CallToolResult).content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

/** One POST to /mcp with this token (or none); the status and the challenge. */
async function post(world: TeamWorld, token: string | undefined, body: unknown = INITIALIZE) {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };
  if (token) headers.authorization = `Bearer ${token}`;
  const r = await fetch(world.resource, { method: 'POST', headers, body: JSON.stringify(body) });
  const challenge = r.headers.get('www-authenticate') ?? '';
  const bodyText = await r.text();
  return { status: r.status, challenge, body: bodyText };
}

describe('team sign-in: MCP Lens as an OAuth protected resource', () => {
  let world: TeamWorld;
  before(async () => {
    world = await startTeamWorld(
      { everything: EVERYTHING },
      [{ login: 'alice', groups: ['eng'], email: 'alice@example.com' }],
      {
        servers: { everything: { groups: ['*'] } },
        // Rotation is picked up at once here; the bound on refetches has its own test below.
        signIn: { jwksRefetchSeconds: 0 },
      },
    );
  });
  after(async () => world?.close());

  test('Protected Resource Metadata (RFC 9728) at the well-known URI, under the resource path too', async () => {
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      const r = await fetch(new URL(path, world.resource));
      assert.equal(r.status, 200, path);
      const prm = (await r.json()) as Record<string, unknown>;
      assert.equal(prm.resource, world.resource);
      assert.deepEqual(prm.authorization_servers, [world.provider.issuer]);
      assert.deepEqual(prm.scopes_supported, ['mcp-lens:search', 'mcp-lens:call', 'mcp-lens:code']);
      assert.deepEqual(prm.bearer_methods_supported, ['header']);
    }
  });

  test('no token: 401 with WWW-Authenticate naming the metadata, without an error code (RFC 6750 §3.1)', async () => {
    const r = await post(world, undefined);
    assert.equal(r.status, 401);
    assert.match(r.challenge, /^Bearer /);
    assert.match(
      r.challenge,
      /resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp"/,
    );
    assert.doesNotMatch(r.challenge, /error=/);
  });

  test('the SDK client signs in end to end (discovery, registration, PKCE, resource) and uses the meta-tools', async () => {
    const { client, close } = await signedInClient(world.resource, 'alice');
    try {
      const tools = (await client.listTools()).tools.map((t) => t.name);
      assert.ok(tools.includes('find_tools') && tools.includes('call_tool'), tools.join(', '));
      const found = text(await client.callTool({ name: 'find_tools', arguments: { query: 'echo a message' } }));
      assert.match(found, /everything_echo/);
      const echoed = await client.callTool({
        name: 'call_tool',
        arguments: { tool_name: 'everything_echo', arguments: { message: 'signed in' } },
      });
      assert.notEqual(echoed.isError, true, text(echoed));
      assert.match(text(echoed), /signed in/);
    } finally {
      await close();
    }
  });

  const refused = async (token: string, why: RegExp) => {
    const r = await post(world, token);
    assert.equal(r.status, 401, r.body);
    assert.match(r.challenge, /error="invalid_token"/);
    assert.match(r.challenge, /resource_metadata="[^"]+"/);
    assert.match(r.challenge, why);
    assert.ok(!r.body.includes(token) && !r.challenge.includes(token), 'the token is never repeated');
  };

  test('a valid minted token passes (the refusals below differ from it in one claim each)', async () => {
    assert.equal((await post(world, await world.provider.mint({}))).status, 200);
  });

  test('expired: refused with invalid_token', async () => {
    await refused(await world.provider.mint({ exp: Math.floor(Date.now() / 1000) - 3600 }), /expired/);
  });

  test('wrong audience (a token for another resource): refused with invalid_token', async () => {
    await refused(await world.provider.mint({ aud: 'https://other.example.com/mcp' }), /audience/);
  });

  test('wrong issuer: refused with invalid_token', async () => {
    await refused(await world.provider.mint({ iss: 'https://idp.elsewhere.example' }), /another identity provider/);
  });

  test('a key the provider does not publish: refused; after the provider rotates, the new key is accepted', async () => {
    await refused(await world.provider.mint({}, rsaKeyForTest('stranger')), /key/);
    const next = world.provider.rotate();
    const r = await post(world, await world.provider.mint({}, next));
    assert.equal(r.status, 200, r.body);
  });

  test('missing scope: 403 insufficient_scope naming the scope to ask for (step-up)', async () => {
    const token = await world.provider.mint({ scope: 'mcp-lens:search' });
    const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'call_tool', arguments: {} } };
    const r = await post(world, token, call);
    assert.equal(r.status, 403, r.body);
    assert.match(r.challenge, /error="insufficient_scope"/);
    assert.match(r.challenge, /scope="mcp-lens:search mcp-lens:call"/);
    assert.match(r.challenge, /resource_metadata="[^"]+"/);
    const code = { ...call, params: { name: 'run_code', arguments: {} } };
    assert.match((await post(world, token, code)).challenge, /scope="mcp-lens:search mcp-lens:code"/);
    const search = { ...call, params: { name: 'find_tools', arguments: { query: 'x' } } };
    assert.notEqual((await post(world, token, search)).status, 403, 'find_tools needs only mcp-lens:search');
  });

  test("a session answers only the person it was opened for: another person's token gets 403", async () => {
    const opened = await fetch(world.resource, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${await world.provider.mint({ sub: 'alice' })}`,
      },
      body: JSON.stringify(INITIALIZE),
    });
    const session = opened.headers.get('mcp-session-id')!;
    await opened.body?.cancel();
    const r = await fetch(world.resource, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': session,
        authorization: `Bearer ${await world.provider.mint({ sub: 'mallory' })}`,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }),
    });
    assert.equal(r.status, 403);
    assert.match(await r.text(), /belongs to another person/);
  });

  test('unknown keys refetch the JWKS at most once per jwksRefetchSeconds', async () => {
    const verifier = jwtVerifier({
      issuer: world.provider.issuer,
      audience: world.resource,
      tokens: 'jwt',
      groupsClaim: 'groups',
      nameClaims: ['email'],
      jwksRefetchSeconds: 600,
      clockToleranceSeconds: 0,
    });
    await verifier.verify(await world.provider.mint({}));
    const fetched = world.provider.jwksFetches();
    for (let i = 0; i < 5; i++)
      await assert.rejects(verifier.verify(await world.provider.mint({}, rsaKeyForTest(`forged${i}`))), TokenRefused);
    assert.equal(world.provider.jwksFetches(), fetched, 'no refetch while cooling down');
  });
});
