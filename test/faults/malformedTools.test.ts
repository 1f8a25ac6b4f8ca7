/**
 * Servers whose tool definitions are malformed, through the real gateway in `all` exposure
 * (so tools/list carries every upstream tool): schemas that are not objects, $ref loops,
 * 10,000 properties; duplicate names; names clients reject; list_changed storms.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { SAFE_TOOL_NAME } from '../../server/src/core/toolNames';
import { EVERYTHING } from '../fixtures/gatewayLens';
import { faulty, startGatewayWorld, text, type GatewayWorld } from './faultWorld';

describe('malformed tool definitions through the gateway', () => {
  let g: GatewayWorld;
  let listChanged = 0;

  before(async () => {
    g = await startGatewayWorld(
      {
        everything: EVERYTHING,
        schemas: faulty('bad-schemas'),
        dups: faulty('dup-names'),
        names: faulty('bad-names'),
        storm: faulty('storm'),
      },
      { exposure: 'all' },
    );
    g.client.setNotificationHandler(ToolListChangedNotificationSchema, async () => void listChanged++);
  });
  after(() => g?.close());

  it('tools/list has only client-safe, unique names and object schemas', async () => {
    const { tools } = await g.client.listTools();
    const names = tools.map((t) => t.name);
    assert.deepEqual(
      names.filter((n) => !SAFE_TOOL_NAME.test(n)),
      [],
    );
    assert.equal(new Set(names).size, names.length, 'unique');
    assert.ok(tools.every((t) => t.inputSchema.type === 'object'));
    await g.healthy();
  });

  it('schemas that are a string or an array become {type:"object"}; the tools are callable', async () => {
    for (const name of ['schema_string', 'schema_array']) {
      const tool = g.world.lens.tools().find((t) => t.server === 'schemas' && t.originalName === name)!;
      const schema = JSON.parse(text(await g.call('get_tool_schema', { tool_name: tool.name }))) as {
        input_schema: unknown;
      };
      assert.deepEqual(schema.input_schema, { type: 'object' });
      assert.equal(text(await g.callUpstream('schemas', name)), `called ${name}`);
    }
  });

  it('a $ref loop neither hangs nor crashes validation: the schema cannot be compiled, so the upstream judges the arguments', async () => {
    // core/argsValidation.ts: a schema Ajv cannot compile is not ours to reject. The call goes through, every time.
    for (const args of [{ node: { a: 1 } }, { node: 5 }, {}])
      assert.equal(text(await g.callUpstream('schemas', 'schema_ref_loop', args)), 'called schema_ref_loop');
    await g.healthy();
  });

  it('a 10,000-property schema is validated and searchable, and not inlined whole into find_tools', async () => {
    assert.equal(text(await g.callUpstream('schemas', 'schema_wide', { field_7: 'x' })), 'called schema_wide');
    const bad = await g.callUpstream('schemas', 'schema_wide', { field_7: 7 });
    assert.equal(bad.isError, true);
    assert.match(text(bad), /Invalid arguments/);
    const found = await g.call('find_tools', { query: 'input schema has ten thousand properties' });
    const out = found.structuredContent as { matches: { name: string; input_schema?: unknown }[] };
    const wide = out.matches.find((m) => m.name === 'schemas_schema_wide');
    assert.ok(wide, 'found');
    assert.ok(text(found).length < 50_000, `find_tools text is ${text(found).length} chars`);
    await g.healthy();
  });

  it('a duplicated tool name is listed once (the first definition)', async () => {
    const twins = g.world.lens.tools().filter((t) => t.server === 'dups' && t.originalName === 'twin');
    assert.equal(twins.length, 1);
    assert.equal(twins[0]!.description, 'First twin');
    assert.equal(text(await g.callUpstream('dups', 'twin')), 'called twin');
  });

  it('names with spaces, dots, unicode and 200 characters get safe names and reach the original tool', async () => {
    const originals = ['with space', 'dotted.name.tool', 'ünïcødé_名前', 'x'.repeat(200)];
    for (const original of originals) {
      const tool = g.world.lens.tools().find((t) => t.server === 'names' && t.originalName === original);
      assert.ok(tool, `listed: ${original.slice(0, 30)}`);
      assert.match(tool.name, SAFE_TOOL_NAME);
      assert.equal(text(await g.call(tool.name, {})), `called ${original}`, 'direct call by the safe name');
    }
    assert.ok(
      !g.world.lens.tools().some((t) => t.server === 'names' && t.originalName === ''),
      'the nameless tool is dropped',
    );
  });

  it('a list_changed storm (100/s) with an unchanged list is re-listed at a bounded rate, reaches no client and stops nothing', async () => {
    const stats = async () =>
      JSON.parse(text(await g.callUpstream('storm', 'storm_stats'))) as {
        lists: number;
        notifications: number;
        stormMs: number;
      };
    // The premise: the storm reaches the pool, which lists again (the first list is the connection's own).
    for (let s = await stats(); s.lists < 4; s = await stats()) {
      if (s.stormMs > 60_000)
        assert.fail(`after ${s.notifications} notifications in ${s.stormMs} ms the pool listed only ${s.lists} times`);
      await new Promise((r) => setTimeout(r, 50));
    }
    for (let i = 0; i < 5; i++) await g.healthy();
    assert.equal(text(await g.callUpstream('storm', 'ping')), 'pong');
    assert.equal((await g.server('storm')).state, 'ready');
    // Coalesced (adapters/upstream/listRefresh.ts): at most one re-list per 100 ms window (the
    // connection's listChangedDelayMs), however many notifications arrive in it.
    const s = await stats();
    assert.ok(s.lists - 1 <= s.stormMs / 100 + 1, `${s.lists - 1} re-lists in ${s.stormMs} ms`);
    assert.ok(s.notifications > 2 * s.lists, `a storm: ${s.notifications} notifications, ${s.lists} lists`);
    assert.equal(listChanged, 0, 'no tools/list_changed forwarded for an unchanged list');
  });
});
