/**
 * The team's policy (issue 36, item 3): who sees which servers and tools, by the groups in
 * their token. Two people signed in through a real OpenID provider with the SDK's client OAuth,
 * in front of server-everything (everyone sees it, but only `ops` its echo tool) and a probe
 * server only `ops` sees. What a person may not see is unknown to them everywhere — find_tools,
 * tools/list (all tools exposed directly), get_tool_schema, list_servers, call_tool, run_code,
 * the instructions and find_tools' domains line — and never named as forbidden. Admins (a group)
 * read what waits for approval; others may not.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { EVERYTHING, ROOT } from '../fixtures/gatewayLens';
import { signedInClient, startTeamWorld, type TeamWorld } from './teamWorld';

const text = (r: unknown) =>
  ((r as CallToolResult).content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');
const PROBE = {
  type: 'stdio' as const,
  command: process.execPath,
  args: [join(ROOT, 'test/fixtures/servers/sessionProbe.mjs')],
};
type Signed = Awaited<ReturnType<typeof signedInClient>>;

describe('team policy: what each person sees', () => {
  let world: TeamWorld;
  let alice: Signed;
  let bob: Signed;
  before(async () => {
    world = await startTeamWorld(
      { everything: EVERYTHING, secret: PROBE },
      [
        { login: 'alice', groups: ['eng'] },
        { login: 'bob', groups: ['ops'] },
        { login: 'carol', groups: ['lens-admins'] },
      ],
      {
        admins: ['lens-admins'],
        servers: { everything: { groups: ['*'], tools: { echo: ['ops'] } }, secret: { groups: ['ops'] } },
      },
      { exposure: 'all' },
    );
    alice = await signedInClient(world.resource, 'alice');
    bob = await signedInClient(world.resource, 'bob');
  });
  after(async () => {
    await alice?.close();
    await bob?.close();
    await world?.close();
  });

  const call = (who: Signed, name: string, args: Record<string, unknown>) =>
    who.client.callTool({ name, arguments: args });

  test('tools/list and the instructions hold only what the person sees', async () => {
    const mine = (await alice.client.listTools()).tools;
    const names = mine.map((t) => t.name);
    assert.ok(names.includes('everything_get-sum'), names.join(', '));
    assert.ok(!names.includes('everything_echo'), 'a tool hidden by a tool rule');
    assert.ok(!names.some((n) => n.startsWith('secret_')), 'a server hidden by its groups');
    assert.doesNotMatch(mine.find((t) => t.name === 'find_tools')!.description ?? '', /secret/);
    assert.doesNotMatch(alice.client.getInstructions() ?? '', /secret/);
    const theirs = (await bob.client.listTools()).tools.map((t) => t.name);
    assert.ok(theirs.includes('everything_echo') && theirs.includes('secret_roots_seen'), theirs.join(', '));
  });

  test('find_tools and list_servers leave out what is hidden; a hidden server is an unknown server', async () => {
    const found = text(await call(alice, 'find_tools', { query: 'echo the message back', limit: 10 }));
    assert.doesNotMatch(found, /everything_echo/);
    assert.doesNotMatch(text(await call(alice, 'list_servers', {})), /secret/);
    const scoped = await call(alice, 'find_tools', { query: 'roots', server: 'secret' });
    assert.match(text(scoped), /Unknown server "secret"/);
    assert.match(text(await call(bob, 'find_tools', { query: 'echo the message back', limit: 10 })), /everything_echo/);
  });

  test('get_tool_schema, call_tool and a direct call: a hidden tool is unknown, never "forbidden"', async () => {
    for (const [asked, r] of [
      ['everything_echo', await call(alice, 'get_tool_schema', { tool_name: 'everything_echo' })],
      [
        'everything_echo',
        await call(alice, 'call_tool', { tool_name: 'everything_echo', arguments: { message: 'hi' } }),
      ],
      ['secret_roots_seen', await call(alice, 'call_tool', { tool_name: 'secret_roots_seen', arguments: {} })],
      ['secret_roots_sen', await call(alice, 'call_tool', { tool_name: 'secret_roots_sen', arguments: {} })],
      ['everything_echo', await call(alice, 'everything_echo', { message: 'hi' })],
    ] as const) {
      assert.equal(r.isError, true);
      assert.match(text(r), /Unknown tool/i);
      assert.doesNotMatch(text(r), /forbidden|not allowed|permission/i);
      const rest = text(r).replace(`"${asked}"`, '');
      assert.doesNotMatch(rest, /everything_echo|secret_/, 'no hidden tool offered as a suggestion');
    }
    const echoed = await call(bob, 'call_tool', { tool_name: 'everything_echo', arguments: { message: 'hi' } });
    assert.notEqual(echoed.isError, true, text(echoed));
  });

  test("run_code's calls see the same: the hidden tool is not in `tools`, and call_tool() of it fails as unknown", async () => {
    const code = `
      const names = Object.keys(tools);
      let failed = '';
      try { await call_tool('everything_echo', { message: 'x' }); } catch (e) { failed = String(e); }
      return { hasEcho: names.includes('everything_echo'), hasSum: names.includes('everything_get-sum'), failed };`;
    const r = await call(alice, 'run_code', { code });
    const out = JSON.parse((r.content as { text: string }[])[0]!.text) as Record<string, unknown>;
    assert.equal(out.hasEcho, false);
    assert.equal(out.hasSum, true);
    assert.match(String(out.failed), /Unknown tool/i);
  });

  test("a person's stateless 2026-07-28 requests see what their sessions see", async () => {
    const token = await world.provider.mint({ sub: 'alice', groups: ['eng'] });
    let id = 0;
    const modern = async (method: string, params: Record<string, unknown> = {}) => {
      const name = params.name as string | undefined;
      const res = await fetch(world.resource, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${token}`,
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': method,
          ...(name !== undefined && { 'mcp-name': name }),
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: ++id,
          method,
          params: {
            ...params,
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientCapabilities': {},
              'io.modelcontextprotocol/clientInfo': { name: 'alice-2026', version: '1' },
            },
          },
        }),
      });
      const body = await res.text();
      const line = body.includes('data:')
        ? body
            .split('\n')
            .find((l) => l.startsWith('data:'))!
            .slice(5)
        : body;
      return JSON.parse(line) as { result?: Record<string, unknown>; error?: { message: string } };
    };
    const listed = await modern('tools/list');
    const names = ((listed.result?.tools ?? []) as { name: string }[]).map((t) => t.name);
    assert.ok(names.includes('everything_get-sum'), JSON.stringify(listed));
    assert.ok(!names.includes('everything_echo') && !names.some((n) => n.startsWith('secret_')), names.join(', '));
    const called = await modern('tools/call', { name: 'everything_echo', arguments: { message: 'x' } });
    assert.doesNotMatch(JSON.stringify(called), /"text":"Echo: x"/);
    assert.match(JSON.stringify(called), /unknown tool/i);
  });

  test('admins read what waits for approval; others are refused', async () => {
    const ask = async (login: string | undefined) => {
      const headers: Record<string, string> = {};
      if (login) {
        const groups = login === 'carol' ? ['lens-admins'] : ['eng'];
        headers.authorization = `Bearer ${await world.provider.mint({ sub: login, groups })}`;
      }
      return fetch(new URL('/admin/servers', world.resource), { headers });
    };
    const admin = await ask('carol');
    assert.equal(admin.status, 200);
    assert.deepEqual(await admin.json(), { servers: [] });
    assert.equal((await ask('alice')).status, 403);
    assert.equal((await ask(undefined)).status, 401);
  });
});
