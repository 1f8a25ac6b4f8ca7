// Two replicas of `serve --http` on one PostgreSQL behind a real HAProxy (bench/src/infra):
// a 2025-era session keeps to the replica that opened it; that replica killed mid-call, the
// session's next request gets a clear "session not found" from the other, a new session works
// there, and an approval given while both ran outlives the killed one (a replica started later
// has it too). Stateless (2026-07-28) requests are not in this build yet: sessions stand in.
// SIGTERM drains: /readyz says 503, new work is refused with 503, the call in flight finishes.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { openTeamState, type TeamState } from '../../server/src/adapters/state/teamState';
import { lineLogger } from '../../server/src/core/logger';
import { fingerprintsOf } from '../fixtures/fingerprints';
import { haproxyMissing, startHaproxy, type LoadBalancer } from '../../bench/src/infra/haproxy';
import { postgresMissing, startPostgres, type PostgresCluster } from '../../bench/src/infra/postgres';
import { ROOT, callTool, connectClient, startReplica, textOf, type Replica } from '../../bench/src/infra/replicas';

const missing = postgresMissing() ?? haproxyMissing();
const token = randomBytes(24).toString('hex');
const SLOW = join(ROOT, 'test/fixtures/servers/slow.mjs');
const GATED = join(ROOT, 'test/fixtures/servers/gated.mjs');
const SERVERS = {
  slow: { type: 'stdio', command: process.execPath, args: [SLOW] },
  gated: { type: 'stdio', command: process.execPath, args: [GATED, '--prefix', 'alpha'] },
};
const log = lineLogger(() => undefined);

let cluster: PostgresCluster | undefined;
let workspace = '';

before(async () => {
  if (missing) return;
  cluster = await startPostgres();
  workspace = mkdtempSync(join(tmpdir(), 'mcp-lens-team-ws-'));
  mkdirSync(join(workspace, '.vscode'));
  writeFileSync(join(workspace, '.vscode', 'mcp.json'), JSON.stringify({ servers: SERVERS }));
  writeFileSync(join(workspace, '.vscode', 'settings.json'), JSON.stringify({ 'mcpLens.embedding.enabled': false }));
});
after(async () => {
  await cluster?.stop();
  if (workspace) rmSync(workspace, { recursive: true, force: true });
});

/** Which replica answers requests of this session (HAProxy's X-Mcp-Lens-Replica on a ping). */
async function replicaOf(lb: LoadBalancer, sessionId: string): Promise<string> {
  const res = await fetch(lb.url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-06-18',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 'which', method: 'ping' }),
  });
  await res.text();
  assert.equal(res.status, 200);
  return res.headers.get('x-mcp-lens-replica')!;
}

function sessionIdOf(client: Client): string {
  return (client.transport as unknown as { sessionId: string }).sessionId;
}

/** Re-runs `check` until it passes (each try is a round trip to a replica), or fails with its last error. */
async function eventually(what: string, check: () => Promise<void>, tries = 200): Promise<void> {
  let last: unknown;
  for (let i = 0; i < tries; i++) {
    try {
      return await check();
    } catch (err) {
      last = err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  throw new Error(`${what}: ${String(last)}`);
}

test(
  'a replica killed mid-session: its session gets a clear error, a new one works on the other, no approval is lost',
  { skip: missing, timeout: 180_000 },
  async () => {
    const url = await cluster!.createDatabase('replicas');
    const fps = fingerprintsOf(workspace, SERVERS);
    const admin: TeamState = await openTeamState({
      url,
      workspaceFolder: workspace,
      log,
      env: { MCP_LENS_REPLICA_ID: 'admin' },
    });
    await admin.approvals.save({ slow: fps.slow! });
    const replicas: Replica[] = [];
    let lb: LoadBalancer | undefined;
    const clients: Client[] = [];
    try {
      for (const id of ['r1', 'r2']) replicas.push(await startReplica({ id, workspace, token, stateUrl: url }));
      lb = await startHaproxy(replicas.map((r) => r.port));
      // An approval given on one replica's dashboard (here: by a third, the admin) reaches both.
      await admin.approvals.save({ gated: fps.gated! });
      for (const r of replicas) {
        const direct = await connectClient(r.url, token);
        clients.push(direct);
        await eventually(`gated starts on ${r.id}`, async () =>
          assert.match(textOf(await callTool(direct, 'gated_alpha_ping')), /pong from alpha/),
        );
      }
      const a = await connectClient(lb.url, token, 'person-a');
      clients.push(a);
      const held = await replicaOf(lb, sessionIdOf(a));
      // Affinity: every request of the session reaches the replica that opened it.
      for (let i = 0; i < 4; i++) assert.equal(await replicaOf(lb, sessionIdOf(a)), held);
      assert.match(textOf(await callTool(a, 'slow_sleep', { ms: 1 })), /slept|ms|done/i);
      const victim = replicas.find((r) => held === `127.0.0.1:${r.port}`)!;
      assert.ok(victim, `the session is on one of the replicas (${held})`);
      // Mid-call: a long sleep in flight when the replica is killed.
      const inFlight = callTool(a, 'slow_sleep', { ms: 30_000 }).then(
        () => 'answered',
        () => 'failed',
      );
      await eventually('the call is in flight', async () => assert.match(victim.stderr(), /./));
      await victim.stop('SIGKILL');
      assert.equal(await inFlight, 'failed');
      // The session's next request reaches the other replica, which never had it: a clear error.
      await assert.rejects(
        callTool(a, 'slow_sleep', { ms: 1 }),
        /Session not found \(expired or closed\): initialize a new session/,
      );
      // A new session works, on the replica left, with both approvals.
      const b = await connectClient(lb.url, token, 'person-b');
      clients.push(b);
      const survivor = replicas.find((r) => r !== victim)!;
      assert.equal(await replicaOf(lb, sessionIdOf(b)), `127.0.0.1:${survivor.port}`);
      assert.match(textOf(await callTool(b, 'gated_alpha_ping')), /pong from alpha/);
      // A replica started after the kill reads the approvals from the database.
      const r3 = await startReplica({ id: 'r3', workspace, token, stateUrl: url });
      replicas.push(r3);
      const c = await connectClient(r3.url, token);
      clients.push(c);
      await eventually('gated starts on r3', async () =>
        assert.match(textOf(await callTool(c, 'gated_alpha_ping')), /pong from alpha/),
      );
    } finally {
      await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
      await lb?.stop();
      await Promise.all(replicas.map((r) => r.stop()));
      await admin.close();
    }
  },
);

test(
  'SIGTERM drains: not ready at once, new work refused with 503, the call in flight finishes, then exit 0',
  { timeout: 120_000 },
  async () => {
    const ws = mkdtempSync(join(tmpdir(), 'mcp-lens-drain-ws-'));
    mkdirSync(join(ws, '.vscode'));
    writeFileSync(join(ws, '.vscode', 'settings.json'), JSON.stringify({ 'mcpLens.embedding.enabled': false }));
    const config = join(ws, 'mcp.json');
    writeFileSync(config, JSON.stringify({ servers: { slow: SERVERS.slow } }));
    const r = await startReplica({ id: 'drain', workspace: ws, token, args: ['--config', config] });
    const base = `http://127.0.0.1:${r.port}`;
    try {
      assert.equal((await fetch(`${base}/readyz`)).status, 200);
      assert.equal((await fetch(`${base}/healthz`)).status, 200);
      const client = await connectClient(r.url, token);
      // Started and progressing: the call is in flight when SIGTERM comes. (Until the server has
      // listed its tools the call is refused as an unknown tool: then again.)
      let call: Promise<unknown> | undefined;
      await eventually('a call in flight', async () => {
        let progressed: () => void = () => undefined;
        const firstProgress = new Promise<void>((ok) => (progressed = ok));
        const attempt = client.callTool(
          { name: 'call_tool', arguments: { tool_name: 'slow_sleep', arguments: { ms: 3000, steps: 6 } } },
          undefined,
          { onprogress: () => progressed(), timeout: 60_000 },
        );
        const early = await Promise.race([firstProgress.then(() => undefined), attempt]);
        if (early !== undefined) assert.fail(`answered before any progress: ${textOf(early)}`);
        call = attempt;
      });
      r.child.kill('SIGTERM');
      await eventually('readyz says draining', async () => assert.equal((await fetch(`${base}/readyz`)).status, 503));
      assert.equal((await fetch(`${base}/healthz`)).status, 200, 'alive while draining');
      const refused = await fetch(r.url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'late', version: '1' } },
        }),
      });
      assert.equal(refused.status, 503);
      assert.match(await refused.text(), /shutting down; retry/);
      let exitedFirst = false;
      void r.exited.then(() => (exitedFirst = true));
      const result = await call!;
      assert.equal(exitedFirst, false, 'the call was answered before the process exited');
      assert.doesNotMatch(textOf(result), /error/i);
      assert.equal(await r.exited, 0);
    } finally {
      await r.stop();
      rmSync(ws, { recursive: true, force: true });
    }
  },
);
