/**
 * Team sign-in with opaque access tokens (issue 36, item 1's option): MCP Lens asks the identity
 * provider's introspection endpoint (RFC 7662) as its confidential client, whose secret it reads
 * from the environment variable the team configuration names. The SDK's client OAuth signs in
 * end to end against a real oidc-provider issuing opaque tokens; a token the provider does not
 * know is refused with invalid_token.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { EVERYTHING } from '../fixtures/gatewayLens';
import { INTROSPECTION_CLIENT, signedInClient, startTeamWorld, type TeamWorld } from './teamWorld';

const text = (r: unknown) =>
  ((r as CallToolResult).content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');

describe('team sign-in by introspection', () => {
  let world: TeamWorld;
  before(async () => {
    world = await startTeamWorld(
      { everything: EVERYTHING },
      [{ login: 'alice', groups: ['eng'] }],
      {
        servers: { everything: { groups: ['eng'] } },
        signIn: {
          tokens: 'introspection',
          introspection: { clientId: INTROSPECTION_CLIENT.client_id, clientSecretEnv: 'TEAM_INTROSPECTION_SECRET' },
        },
      },
      {},
      'opaque',
    );
  });
  after(async () => world?.close());

  test('an opaque token from the provider is introspected: the person, their groups and scopes apply', async () => {
    const { client, auth, close } = await signedInClient(world.resource, 'alice');
    try {
      assert.doesNotMatch(auth.tokens()!.access_token, /^ey/, 'the provider issued an opaque token');
      const r = await client.callTool({ name: 'find_tools', arguments: { query: 'echo a message' } });
      assert.match(text(r), /everything_echo/, 'alice is in eng, which sees the server');
    } finally {
      await close();
    }
  });

  test('a token the provider does not know: 401 invalid_token', async () => {
    const r = await fetch(world.resource, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer not-a-token-the-provider-issued' },
      body: '{}',
    });
    assert.equal(r.status, 401);
    assert.match(r.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
  });
});
