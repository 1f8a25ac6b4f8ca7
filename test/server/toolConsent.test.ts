/**
 * Consent before a destructive tool runs through call_tool or run_code (app/toolConsent.ts):
 * real SDK clients that declare form elicitation answer MCP Lens's question (allow once, always,
 * deny, decline, cancel), and the tool on a real upstream (test/fixtures/servers/annotated.mjs,
 * server-memory from npm) runs or not accordingly. "Always" survives a restart and is revoked
 * through the dashboard's handler; a changed definition asks again; a client without elicitation
 * runs as before; a direct call of a tool the host lists is the host's to confirm.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  ElicitRequestSchema,
  type CallToolResult,
  type ClientCapabilities,
  type ElicitRequest,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { LensApp } from '../../server/src/app/lensApp';
import { silentLogger } from '../../server/src/core/logger';
import { clientPrincipal, type Principal } from '../../server/src/core/principal';
import { Gateway } from '../../server/src/gateway/gateway';
import { lensHandlers } from '../../server/src/gateway/dashboard/handlers';
import { ANNOTATED, MEMORY, reopenLens, startLens, until, type LensWorld } from '../fixtures/gatewayLens';

type Answer = (q: ElicitRequest['params']) => ElicitResult;
const choose =
  (decision: string): Answer =>
  () => ({ action: 'accept', content: { decision } });

function text(r: unknown): string {
  return ((r as CallToolResult).content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

/** One client session on `gateway`; `answer` (with form elicitation declared) answers MCP Lens's questions. */
async function session(gateway: Gateway, answer?: Answer, capabilities?: ClientCapabilities, principal?: Principal) {
  const caps = capabilities ?? (answer ? { elicitation: { form: {} } } : {});
  const client = new Client({ name: 'consent-test', version: '1.0.0' }, { capabilities: caps });
  const questions: ElicitRequest['params'][] = [];
  let current = answer;
  if (answer)
    client.setRequestHandler(ElicitRequestSchema, async (r) => {
      questions.push(r.params);
      return current!(r.params);
    });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await gateway.connect(serverSide, undefined, principal);
  await client.connect(clientSide);
  return {
    client,
    questions,
    answerWith(a: Answer) {
      current = a;
    },
    callTool: (tool: string, args: Record<string, unknown>) =>
      client.callTool({
        name: 'call_tool',
        arguments: { tool_name: tool, arguments: args },
      }) as Promise<CallToolResult>,
  };
}

describe('consent before a destructive tool runs', () => {
  let world: LensWorld;
  let lens: LensApp;
  let gateway: Gateway;
  let memoryDir: string;

  before(async () => {
    memoryDir = mkdtempSync(join(tmpdir(), 'mcp-lens-consent-memory-'));
    const memory = { ...MEMORY, env: { MEMORY_FILE_PATH: join(memoryDir, 'memory.jsonl') } };
    world = await startLens({ annotated: ANNOTATED, memory }, { consent: 'destructive' }, (dir) => join(dir, 'state'));
    lens = world.lens;
    gateway = new Gateway({ lens, log: silentLogger });
  });

  after(async () => {
    await gateway?.close();
    // The Lens now (the restart test replaced the first, which it closed) and the workspace.
    await lens?.close();
    world?.workspace.close();
    rmSync(memoryDir, { recursive: true, force: true });
  });

  const ran = async (s: Awaited<ReturnType<typeof session>>) =>
    JSON.parse(text(await s.callTool('annotated_ran', {}))) as Record<string, number>;

  it('asks through the calling client; "allow once" runs the call and the next one asks again', async () => {
    const s = await session(gateway, choose('once'));
    const first = await s.callTool('annotated_drop_table', { table: 'users' });
    assert.equal(first.isError, undefined, text(first));
    assert.match(text(first), /dropped users/);
    assert.equal(s.questions.length, 1);
    const q = s.questions[0]!;
    assert.match(q.message, /drop_table/);
    assert.match(q.message, /server "annotated"/);
    assert.match(q.message, /"table":"users"/);
    await s.callTool('annotated_drop_table', { table: 'orders' });
    assert.equal(s.questions.length, 2, 'allow once allowed one call');
    // Read-only and non-destructive tools are not asked about at this level.
    await s.callTool('annotated_count_rows', { table: 'users' });
    await s.callTool('annotated_rename_table', { table: 'users' });
    assert.equal(s.questions.length, 2);
  });

  it('"deny", "decline" and "cancel" keep the tool from running, with a clear error for the agent', async () => {
    const s = await session(gateway, choose('deny'));
    const before = (await ran(s)).drop_table ?? 0;
    const denied = await s.callTool('annotated_drop_table', { table: 'users' });
    assert.equal(denied.isError, true);
    assert.match(text(denied), /did not allow the call to "drop_table" on server "annotated"/);
    assert.doesNotMatch(text(denied), /users/, 'the error carries no arguments');
    for (const action of ['decline', 'cancel'] as const) {
      s.answerWith(() => ({ action }));
      const r = await s.callTool('annotated_drop_table', { table: 'users' });
      assert.equal(r.isError, true, action);
      assert.match(text(r), /did not allow/);
    }
    assert.equal((await ran(s)).drop_table ?? 0, before, 'the upstream never saw the denied calls');
    assert.equal(s.questions.length, 3);
  });

  it('"always" is remembered across a restart, listed for the dashboard and revoked there', async () => {
    const s = await session(gateway, choose('always'));
    assert.match(text(await s.callTool('annotated_drop_table', { table: 'a' })), /dropped a/);
    assert.match(text(await s.callTool('annotated_drop_table', { table: 'b' })), /dropped b/);
    assert.equal(s.questions.length, 1, '"always" asks once');
    // A restart: a new Lens on the same state folder, a new client.
    await gateway.close();
    await lens.close();
    lens = await reopenLens(world);
    world.lens = lens;
    gateway = new Gateway({ lens, log: silentLogger });
    const again = await session(gateway, choose('deny'));
    assert.match(text(await again.callTool('annotated_drop_table', { table: 'c' })), /dropped c/);
    assert.equal(again.questions.length, 0, 'remembered across the restart');
    const view = lens.consent();
    assert.equal(view.level, 'destructive');
    assert.deepEqual(
      view.tools.map((t) => [t.key, t.current]),
      [['annotated/drop_table', true]],
    );
    const handlers = lensHandlers(
      lens,
      () => gateway.stats(),
      undefined,
      () => undefined,
    );
    assert.deepEqual((await handlers.consent({})).tools.length, 1);
    assert.deepEqual(await handlers.revokeConsent({ principal: 'workspace', key: 'annotated/drop_table' }), {
      ok: true,
    });
    assert.equal(lens.consent().tools.length, 0);
    const denied = await again.callTool('annotated_drop_table', { table: 'd' });
    assert.equal(denied.isError, true, 'revoked: asked again, and denied');
    assert.equal(again.questions.length, 1);
  });

  it('a changed tool definition asks again', async () => {
    const s = await session(gateway, choose('always'));
    await s.callTool('annotated_drop_table', { table: 'x' });
    await s.callTool('annotated_drop_table', { table: 'y' });
    assert.equal(s.questions.length, 1);
    const old = lens.findTool('annotated_drop_table')!.description;
    await s.callTool('annotated_reword', { description: 'Drops a table, its backups and its replicas.' });
    await until('the new definition in the catalog', () => lens.findTool('annotated_drop_table')?.description !== old);
    assert.equal(lens.consent().tools[0]?.current, false, 'the dashboard says it asks again');
    s.answerWith(choose('once'));
    await s.callTool('annotated_drop_table', { table: 'z' });
    assert.equal(s.questions.length, 2, 'the changed tool was asked about again');
    await lens.revokeConsent('workspace', 'annotated/drop_table');
  });

  it('a client without elicitation gets a refusal naming the tool, and the tool does not run', async () => {
    const s = await session(gateway);
    const before = (await ran(s)).drop_table ?? 0;
    const r = await s.callTool('annotated_drop_table', { table: 'legacy' });
    assert.equal(r.isError, true, text(r));
    assert.match(text(r), /"drop_table" on server "annotated" did not run/);
    assert.match(text(r), /cannot show that question/);
    assert.match(text(r), /mcpLens\.consent/);
    assert.doesNotMatch(text(r), /legacy/, 'the error carries no arguments');
    assert.equal((await ran(s)).drop_table ?? 0, before, 'the upstream never saw the call');
    // Read-only and non-destructive tools run as before.
    assert.match(text(await s.callTool('annotated_count_rows', { table: 'users' })), /3 rows/);
  });

  it('"always" holds for the principal that answered: another client session is asked itself', async () => {
    const a = await session(gateway, choose('always'), undefined, clientPrincipal('consent-a'));
    const b = await session(gateway, choose('deny'), undefined, clientPrincipal('consent-b'));
    assert.match(text(await a.callTool('annotated_drop_table', { table: 'a1' })), /dropped a1/);
    assert.match(text(await a.callTool('annotated_drop_table', { table: 'a2' })), /dropped a2/);
    assert.equal(a.questions.length, 1);
    const denied = await b.callTool('annotated_drop_table', { table: 'b1' });
    assert.equal(denied.isError, true, "a's answer is not b's");
    assert.equal(b.questions.length, 1);
    const listed = lens.consent().tools.find((t) => t.principal === 'client:consent-a');
    assert.equal(listed?.principalLabel, 'client session consent-');
    // The workspace's own sessions are not covered by a client session's answer either.
    const w = await session(gateway, choose('deny'));
    assert.equal((await w.callTool('annotated_drop_table', { table: 'w1' })).isError, true);
    await lens.revokeConsent('client:consent-a', 'annotated/drop_table');
    assert.equal((await a.callTool('annotated_drop_table', { table: 'a3' })).isError, undefined);
    assert.equal(a.questions.length, 2, 'revoked: asked again');
  });

  it("asks before a run_code script's inner call of a destructive tool (a real server's)", async () => {
    const s = await session(gateway, choose('deny'));
    await s.callTool('memory_create_entities', {
      entities: [{ name: 'keep-me', entityType: 'test', observations: ['o'] }],
    });
    const script = 'await call_tool("memory_delete_entities", { entityNames: ["keep-me"] }); return "deleted";';
    const denied = (await s.client.callTool({ name: 'run_code', arguments: { code: script } })) as CallToolResult;
    assert.equal(denied.isError, true, text(denied));
    assert.match(text(denied), /did not allow the call to "delete_entities" on server "memory"/);
    assert.equal(s.questions.length, 1);
    assert.match(s.questions[0]!.message, /delete_entities/);
    assert.match(text(await s.callTool('memory_read_graph', {})), /keep-me/, 'nothing was deleted');
    s.answerWith(choose('once'));
    const allowed = (await s.client.callTool({ name: 'run_code', arguments: { code: script } })) as CallToolResult;
    assert.equal(allowed.isError, undefined, text(allowed));
    assert.doesNotMatch(text(await s.callTool('memory_read_graph', {})), /keep-me/);
  });

  it("a direct call of a tool the host lists is the host's to confirm; an unlisted one is asked about", async () => {
    await lens.updateSettings({ ...lens.settings(), exposure: 'pinned', pinnedTools: ['annotated_drop_table'] });
    try {
      const s = await session(gateway, choose('deny'));
      const direct = (await s.client.callTool({
        name: 'annotated_drop_table',
        arguments: { table: 'listed' },
      })) as CallToolResult;
      assert.match(text(direct), /dropped listed/);
      assert.equal(s.questions.length, 0);
      await lens.updateSettings({ ...lens.settings(), consent: 'notReadOnly' });
      const unlisted = (await s.client.callTool({
        name: 'annotated_rename_table',
        arguments: { table: 't' },
      })) as CallToolResult;
      assert.equal(unlisted.isError, true, 'a tool the host does not list was never confirmed by the host');
      assert.equal(s.questions.length, 1);
    } finally {
      await lens.updateSettings({ ...lens.settings(), exposure: 'search', pinnedTools: [], consent: 'destructive' });
    }
  });

  it('the level decides what is asked about: notReadOnly asks for a tool without annotations, off for none', async () => {
    const s = await session(gateway, choose('deny'));
    await lens.updateSettings({ ...lens.settings(), consent: 'notReadOnly' });
    try {
      assert.equal((await s.callTool('annotated_rename_table', { table: 't' })).isError, true);
      assert.match(text(await s.callTool('annotated_count_rows', { table: 't' })), /3 rows/);
      assert.equal(s.questions.length, 1);
      await lens.updateSettings({ ...lens.settings(), consent: 'off' });
      assert.match(text(await s.callTool('annotated_drop_table', { table: 't' })), /dropped t/);
      assert.equal(s.questions.length, 1);
    } finally {
      await lens.updateSettings({ ...lens.settings(), consent: 'destructive' });
    }
  });
});
