/**
 * Each signed-in person is a principal (issue 36, item 2): two people signed in through a real
 * OpenID provider with the SDK's client OAuth, in front of two stdio probe servers that say which
 * process answered. The one the team did not mark shared runs once per person (so what one
 * person's process holds, roots included, is never another's); Alice's second client is Alice
 * (the same process); the one marked `shared: true` is one process for everyone. A remote server that signs in with an account is
 * refused to a person, naming the server, unless the team marked it shared.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ROOT } from '../fixtures/gatewayLens';
import { join } from 'node:path';
import { policyFor } from '../../server/src/core/team/policy';
import { toolView } from '../../server/src/gateway/toolView';
import { signedInClient, startTeamWorld, type TeamWorld } from './teamWorld';

const text = (r: unknown) =>
  ((r as CallToolResult).content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');

const PROBE = {
  type: 'stdio' as const,
  command: process.execPath,
  args: [join(ROOT, 'test/fixtures/servers/sessionProbe.mjs')],
};

type Signed = Awaited<ReturnType<typeof signedInClient>>;

async function call(who: Signed, tool: string, args: Record<string, unknown>): Promise<string> {
  const r = await who.client.callTool({ name: 'call_tool', arguments: { tool_name: tool, arguments: args } });
  assert.notEqual(r.isError, true, text(r));
  return text(r);
}

/** The pid of the process that served this person's call on `server` (the probe says it). */
async function pidOf(who: Signed, server: string): Promise<number> {
  return (JSON.parse(await call(who, `${server}_roots_seen`, {})) as { pid: number }).pid;
}

describe('team: each person is a principal', () => {
  let world: TeamWorld;
  let alice: Signed;
  let bob: Signed;
  before(async () => {
    world = await startTeamWorld(
      { mine: PROBE, board: PROBE },
      [
        { login: 'alice', groups: ['eng'] },
        { login: 'bob', groups: ['ops'] },
      ],
      { servers: { mine: { groups: ['*'] }, board: { groups: ['*'], shared: true } } },
    );
    alice = await signedInClient(world.resource, 'alice');
    bob = await signedInClient(world.resource, 'bob');
  });
  after(async () => {
    await alice?.close();
    await bob?.close();
    await world?.close();
  });

  test('a stdio server not marked shared runs once per person; a second session of a person is that person', async () => {
    const a = await pidOf(alice, 'mine');
    const b = await pidOf(bob, 'mine');
    assert.notEqual(a, b, "Alice's and Bob's calls reach different processes");
    const again = await signedInClient(world.resource, 'alice', alice.auth);
    try {
      assert.equal(await pidOf(again, 'mine'), a, "Alice's other client reaches Alice's process");
    } finally {
      await again.close();
    }
  });

  test('a stdio server marked shared is one process for everyone', async () => {
    assert.equal(await pidOf(alice, 'board'), await pidOf(bob, 'board'));
  });

  test('a remote server that signs in with an account is refused to a person unless the team shares it', () => {
    const policy = policyFor({ admins: [], servers: { gh: { groups: ['*'], tools: [], shared: false } } }, () => []);
    const servers = () => [{ name: 'gh', signIn: true }] as never;
    const mine = toolView(policy, { servers }, () => false);
    assert.match(mine.callRefusal({ server: 'gh' })!, /Server "gh" signs in with each person's own account/);
    assert.equal(toolView(policy, { servers }, () => true).callRefusal({ server: 'gh' }), undefined);
  });
});
