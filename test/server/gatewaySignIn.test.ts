/**
 * What an agent sees of a remote server that needs sign-in, through the gateway (a real SDK
 * client, a LensApp over the real OpenID provider world of oidcWorld.ts): once signed in, its
 * tools are found and called; signed out, list_servers says `needs-sign-in` and who must sign
 * in, find_tools still finds its tools (as it listed them last), and call_tool answers "Sign in
 * to <server> first" instead of a transport error, with no token anywhere in the answers.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { LensApp } from '../../server/src/app/lensApp';
import { inMemoryLensOptions } from '../../bench/src/inMemoryLens';
import { connectGatewayClient } from '../../bench/src/benchGateway';
import { MemoryOAuthStore, oauthStoreKey } from '../../server/src/adapters/upstream/auth/oauthStore';
import type { Gateway } from '../../server/src/gateway/gateway';
import { untilChanged } from '../fixtures/untilChanged';
import { headlessDoor, submitFirstForm } from '../conformance/headlessDoor';
import { startOidcWorld, type OidcWorld } from './oidcWorld';

const text = (r: unknown) => ((r as { content: { text?: string }[] }).content ?? []).map((c) => c.text ?? '').join('');

describe('gateway: a remote server that needs sign-in', () => {
  let world: OidcWorld;
  let dir: string;
  let lens: LensApp;
  let gateway: Gateway;
  let client: Client;
  const store = new MemoryOAuthStore();
  const state = () => lens.servers().find((s) => s.name === 'protected')?.state;
  const until = (what: string, check: () => boolean) =>
    untilChanged(
      lens,
      () => check() || undefined,
      () => `timed out waiting for ${what}: ${JSON.stringify(lens.servers())}`,
      20_000,
    );
  const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args });

  before(async () => {
    world = await startOidcWorld();
    dir = mkdtempSync(join(tmpdir(), 'lens-gateway-signin-'));
    const configFile = join(dir, 'mcp.json');
    writeFileSync(configFile, JSON.stringify({ servers: { protected: { type: 'http', url: world.mcpUrl } } }));
    lens = await LensApp.start({
      ...inMemoryLensOptions(dir),
      configFile,
      pool: {
        oauth: {
          store,
          door: headlessDoor({ answer: submitFirstForm }),
          signInTimeoutMs: 15_000,
          signInHint: () => 'use Sign in',
        },
      },
    });
    ({ gateway, client } = await connectGatewayClient(lens, 'sign-in test'));
  });

  after(async () => {
    await client?.close();
    await gateway?.close();
    await lens?.close();
    await world?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('signed in, its tools are found and called through the gateway', async () => {
    assert.equal(state(), 'needs-sign-in');
    await lens.signIn('protected');
    await until('ready', () => state() === 'ready');
    const found = JSON.parse(text(await call('find_tools', { query: 'add two numbers' }))) as {
      matches: { name: string }[];
    };
    assert.equal(found.matches[0]?.name, 'protected_add_numbers');
    assert.equal(text(await call('call_tool', { tool_name: 'protected_add_numbers', arguments: { a: 1, b: 2 } })), '3');
  });

  test('signed out: list_servers says who must sign in, find_tools still finds its tools, call_tool says to sign in first', async () => {
    const tokens = (await store.read(oauthStoreKey('protected', world.mcpUrl)))!.tokens!;
    await lens.signOut('protected');
    await until('needs-sign-in', () => state() === 'needs-sign-in');

    const servers = JSON.parse(text(await call('list_servers', {}))) as {
      servers: { name: string; state: string; tools: number; sign_in?: string; error?: string }[];
    };
    const row = servers.servers.find((s) => s.name === 'protected')!;
    assert.equal(row.state, 'needs-sign-in');
    assert.equal(row.tools, 2, 'its tools as it listed them last');
    assert.match(row.sign_in ?? '', /the user must sign in to protected/);
    assert.match(row.error ?? '', /needs sign-in \(the server asks for an account; use Sign in\)/);

    const found = JSON.parse(text(await call('find_tools', { query: 'add two numbers' }))) as {
      matches: { name: string }[];
    };
    assert.equal(found.matches[0]?.name, 'protected_add_numbers', 'find_tools still finds it');

    const result = await call('call_tool', { tool_name: 'protected_add_numbers', arguments: { a: 1, b: 2 } });
    assert.equal(result.isError, true);
    assert.match(text(result), /^Sign in to protected first: the server needs an account\./);
    for (const answer of [JSON.stringify(servers), text(result)])
      for (const secret of [tokens.access_token, tokens.refresh_token!]) assert.ok(!answer.includes(secret));
  });
});
