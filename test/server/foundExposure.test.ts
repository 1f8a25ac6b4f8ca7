/**
 * Exposure `found` (gateway/foundTools.ts): a real SDK client through MCP Lens sees the tools its
 * agent chose through call_tool as its own, with their real title, annotations, output schema
 * and icons, so the client's own per-tool consent applies to them; the list only grows at its end
 * (one tools/list_changed per tool added), is bounded, and is the session's own. A client that
 * cannot show MCP Lens's consent question is told the tool's own name and calls it directly.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  ElicitRequestSchema,
  ToolListChangedNotificationSchema,
  type CallToolResult,
  type ElicitRequest,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { LensApp } from '../../server/src/app/lensApp';
import { silentLogger } from '../../server/src/core/logger';
import { Gateway } from '../../server/src/gateway/gateway';
import { ANNOTATED, startLens, type LensWorld } from '../fixtures/gatewayLens';

function text(r: unknown): string {
  return ((r as CallToolResult).content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

const META = new Set(['find_tools', 'call_tool', 'get_tool_schema', 'list_servers', 'run_code']);

/** A client session; `elicits`: it declares form elicitation and allows once. Counts list_changed. */
async function session(gateway: Gateway, elicits: boolean) {
  const client = new Client(
    { name: 'found-test', version: '1.0.0' },
    { capabilities: elicits ? { elicitation: { form: {} } } : {} },
  );
  const questions: ElicitRequest['params'][] = [];
  if (elicits)
    client.setRequestHandler(ElicitRequestSchema, async (r) => {
      questions.push(r.params);
      return { action: 'accept', content: { decision: 'once' } };
    });
  let changes = 0;
  let wake: (() => void) | undefined;
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
    changes++;
    wake?.();
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await gateway.connect(serverSide);
  await client.connect(clientSide);
  const upstream = async () => (await client.listTools()).tools.filter((t) => !META.has(t.name));
  return {
    client,
    questions,
    changes: () => changes,
    upstream,
    /** Waits for the list_changed number `n` (counted from the session's start). */
    async changed(n: number): Promise<void> {
      while (changes < n) await new Promise<void>((resolve) => (wake = resolve));
    },
    callTool: (tool: string, args: Record<string, unknown>) =>
      client.callTool({
        name: 'call_tool',
        arguments: { tool_name: tool, arguments: args },
      }) as Promise<CallToolResult>,
  };
}

describe("exposure found: tools the agent chose become the client's own", () => {
  let world: LensWorld;
  let lens: LensApp;
  let gateway: Gateway;

  before(async () => {
    world = await startLens({ annotated: ANNOTATED }, { exposure: 'found', found: { maxTools: 2 } });
    lens = world.lens;
    gateway = new Gateway({ lens, log: silentLogger });
  });

  after(async () => {
    await gateway?.close();
    await world?.close();
  });

  it('lists a tool once call_tool ran it, with its own title, annotations, output schema and icons', async () => {
    const s = await session(gateway, true);
    assert.deepEqual(await s.upstream(), [], 'nothing found yet: meta-tools only');
    const r = await s.callTool('annotated_drop_table', { table: 'users' });
    assert.match(text(r), /dropped users/);
    assert.equal(s.questions.length, 1, 'call_tool of a destructive tool: MCP Lens asked');
    await s.changed(1);
    const [drop] = await s.upstream();
    assert.ok(drop, 'the tool is listed');
    const t = drop as Tool;
    assert.equal(t.name, 'annotated_drop_table');
    assert.equal(t.title, 'Drop a table');
    assert.equal(t.annotations?.destructiveHint, true);
    assert.equal(t.annotations?.readOnlyHint, false);
    assert.deepEqual(t.outputSchema?.required, ['dropped']);
    assert.equal(t.icons?.[0]?.mimeType, 'image/svg+xml');
    // A direct call of a tool the client lists is the client's to confirm: MCP Lens does not ask.
    const direct = (await s.client.callTool({
      name: 'annotated_drop_table',
      arguments: { table: 'x' },
    })) as CallToolResult;
    assert.match(text(direct), /dropped x/);
    assert.equal(s.questions.length, 1);
  });

  it('appends in order, bounded (the least recently used leaves), one list_changed per change', async () => {
    const s = await session(gateway, true);
    await s.upstream(); // a session that listed its tools is told when they change
    await s.callTool('annotated_count_rows', { table: 't' });
    await s.changed(1);
    await s.callTool('annotated_drop_table', { table: 't' });
    await s.changed(2);
    assert.deepEqual(
      (await s.upstream()).map((t) => t.name),
      ['annotated_count_rows', 'annotated_drop_table'],
    );
    // Using a listed tool changes nothing.
    await s.client.callTool({ name: 'annotated_count_rows', arguments: { table: 't' } });
    await s.callTool('annotated_count_rows', { table: 't' });
    assert.equal(s.changes(), 2);
    // A third tool past maxTools 2: drop_table was used least recently and leaves.
    await s.callTool('annotated_rename_table', { table: 't' });
    await s.changed(3);
    assert.deepEqual(
      (await s.upstream()).map((t) => t.name),
      ['annotated_count_rows', 'annotated_rename_table'],
    );
    // Another session's list is its own.
    const other = await session(gateway, true);
    assert.deepEqual(await other.upstream(), []);
  });

  it("a client without elicitation is refused through call_tool, told the tool's own name, and calls it directly", async () => {
    const s = await session(gateway, false);
    await s.upstream();
    const refused = await s.callTool('annotated_drop_table', { table: 'keep' });
    assert.equal(refused.isError, true);
    assert.match(text(refused), /listed as this client's own tool "annotated_drop_table"/);
    await s.changed(1);
    assert.deepEqual(
      (await s.upstream()).map((t) => t.name),
      ['annotated_drop_table'],
    );
    const direct = (await s.client.callTool({
      name: 'annotated_drop_table',
      arguments: { table: 'now' },
    })) as CallToolResult;
    assert.match(text(direct), /dropped now/);
  });

  it('run_code adds nothing, and in search mode call_tool changes no list', async () => {
    const s = await session(gateway, true);
    await s.upstream();
    const run = await s.client.callTool({
      name: 'run_code',
      arguments: { code: 'return await call_tool("annotated_count_rows", { table: "r" });' },
    });
    assert.match(text(run), /3 rows/);
    assert.deepEqual(await s.upstream(), []);
    await lens.updateSettings({ ...lens.settings(), exposure: 'search' });
    try {
      const plain = await session(gateway, true);
      const listed = (await plain.client.listTools()).tools.map((t) => t.name);
      await plain.callTool('annotated_count_rows', { table: 'r' });
      assert.deepEqual(
        (await plain.client.listTools()).tools.map((t) => t.name),
        listed,
      );
      assert.equal(plain.changes(), 0);
    } finally {
      await lens.updateSettings({ ...lens.settings(), exposure: 'found' });
    }
  });
});
