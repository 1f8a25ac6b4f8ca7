/**
 * A 2026-07-28 request has no session, yet it acts for a principal exactly as a 2025 session does
 * (core/principal.ts, SECURITY.md "Whom a session acts for"): over `serve --http` the client its
 * bearer token names, with stdio upstream processes of its own, never a 2025 session's nor the
 * workspace's; in the editor (the front door names the workspace) the workspace's processes.
 * Real gateway over streamable HTTP, a real 2025 client (SDK 1.x) and 2026 client (SDK v2), real
 * upstream processes; test/fixtures/servers/sessionProbe.mjs says which process a call reached.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { WORKSPACE_PRINCIPAL } from '../../server/src/core/principal';
import { startSessionWorld, text, type SessionWorld } from './sessionWorld';

/** A 2026-07-28 client of the world's gateway (no session: every request on its own). */
async function modernClient(world: SessionWorld): Promise<Client> {
  const client = new Client(
    { name: 'modern', version: '1.0.0' },
    { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(world.url), {
      requestInit: { headers: { Authorization: `Bearer ${world.token}` } },
    }),
  );
  return client;
}

/** The pid of the probe process a call reached: the call is held at its gate until then. */
async function probePid(world: SessionWorld, call: (args: Record<string, unknown>) => Promise<unknown>, tag: string) {
  const gate = world.gate(tag);
  const result = call({ gate: gate.path, ask: 'log', message: tag });
  const pid = await gate.started();
  gate.open();
  assert.equal(text(await result), 'logged');
  return pid;
}

describe('2026-07-28 requests over serve --http', () => {
  let world: SessionWorld;
  let modern: Client | undefined;
  before(async () => {
    world = await startSessionWorld();
  });
  after(async () => {
    await modern?.close();
    await world?.close();
  });

  test('act for the client their token names: upstream processes of their own, one set for all its requests', async () => {
    const legacy = await world.connect('legacy', {});
    modern = await modernClient(world);
    const client = modern;
    const callModern = (args: Record<string, unknown>) =>
      client.callTool({ name: 'probe_wait_then_ask', arguments: args });
    const legacyPid = await probePid(world, (args) => legacy.call('probe_wait_then_ask', args), 'legacy');
    // Its first call starts its own probe, which asks for roots as it starts (as server-filesystem
    // does): a client that declared none still gets its call, the probe the refusal.
    const modernPid = await probePid(world, callModern, 'modern-1');
    assert.notEqual(modernPid, legacyPid, "a 2026 client never runs on a 2025 session's process");
    assert.equal(await probePid(world, callModern, 'modern-2'), modernPid, 'its requests are one client');
  });
});

describe('2026-07-28 requests in the editor (the front door names the workspace)', () => {
  let world: SessionWorld;
  let modern: Client | undefined;
  before(async () => {
    world = await startSessionWorld({ principalFor: () => WORKSPACE_PRINCIPAL });
  });
  after(async () => {
    await modern?.close();
    await world?.close();
  });

  test("act for the workspace: its processes, shared with the editor's 2025 sessions", async () => {
    const legacy = await world.connect('legacy', {});
    modern = await modernClient(world);
    const client = modern;
    const legacyPid = await probePid(world, (args) => legacy.call('probe_wait_then_ask', args), 'legacy');
    const modernPid = await probePid(
      world,
      (args) => client.callTool({ name: 'probe_wait_then_ask', arguments: args }),
      'modern',
    );
    assert.equal(modernPid, legacyPid);
  });
});
