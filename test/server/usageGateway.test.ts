/**
 * Usage learning through the real gateway: calls recorded per session, the usage signal in
 * find_tools, `predictive` exposure with tools/list_changed as the session goes, the live
 * hit rates, and nothing stored when usage is off.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { connectAgent } from '../fixtures/agentClient';
import {
  EVERYTHING,
  MEMORY,
  reopenLens,
  startHttpLens,
  startLens,
  until,
  type HttpLensWorld,
} from '../fixtures/gatewayLens';

const TOKEN = 'usage-token-' + Math.random().toString(36).slice(2);

interface FindToolsResult {
  matches: { name: string; signals: string[]; why: string }[];
}

describe('usage learning through the gateway', () => {
  let world: HttpLensWorld;
  const clients: Client[] = [];

  async function connect(): Promise<Client> {
    const c = await connectAgent(world.url, TOKEN, 'usage-test');
    clients.push(c);
    return c;
  }
  const name = (original: string) => world.lens.tools().find((t) => t.originalName === original)!.name;
  const call = (c: Client, tool: string, args: Record<string, unknown>) =>
    c.callTool({ name: 'call_tool', arguments: { tool_name: name(tool), arguments: args } });

  before(async () => {
    world = await startHttpLens({ everything: EVERYTHING, memory: MEMORY }, TOKEN);
  });

  after(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    await world?.close();
  });

  it('records calls and shows a usage reason in find_tools for the tool that usually follows', async () => {
    // Two sessions teach it that get-sum follows echo.
    for (let i = 0; i < 2; i++) {
      const c = await connect();
      await call(c, 'echo', { message: 'hi' });
      await call(c, 'get-sum', { a: 1, b: 2 });
    }
    const c = await connect();
    await call(c, 'echo', { message: 'again' });
    const r = await c.callTool({ name: 'find_tools', arguments: { query: 'sum of two numbers' } });
    const matches = (r.structuredContent as unknown as FindToolsResult).matches;
    const sum = matches.find((m) => m.name === name('get-sum'));
    assert.ok(sum, 'get-sum is found');
    assert.ok(sum.signals.includes('usage'), `usage signal on get-sum: ${JSON.stringify(sum)}`);
    assert.equal(matches[0]!.name, name('get-sum'));
    const stats = world.lens.usageStats()!;
    assert.equal(stats.enabled, true);
    assert.ok(stats.callsRecorded >= 5);
    assert.ok(stats.topTools.some((t) => t.name === name('get-sum') && t.calls >= 2));
    assert.ok(
      typeof stats.predictedHitRate === 'number' && stats.predictedHitRate > 0,
      'some calls were predicted before they were made',
    );
  });

  it('predictive exposure lists the predicted tools and sends list_changed as the session goes', async () => {
    await world.lens.updateSettings({ ...world.lens.settings(), exposure: 'predictive' });
    try {
      const c = await connect();
      let changed = 0;
      c.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        changed++;
      });
      const first = (await c.listTools()).tools.map((t) => t.name);
      for (const meta of ['find_tools', 'call_tool', 'get_tool_schema', 'list_servers'])
        assert.ok(first.includes(meta));
      // A new session is offered the workspace's most used tools, within min..max.
      assert.ok(first.includes(name('get-sum')) || first.includes(name('echo')), first.join(', '));
      assert.ok(first.length - 4 <= world.lens.settings().predict.maxTools);
      const before = changed;
      await call(c, 'get-tiny-image', {});
      await until('tools/list_changed after a call that changes the prediction', () => changed > before);
      const next = (await c.listTools()).tools.map((t) => t.name);
      assert.notDeepEqual(next, first);
      // A predicted tool is callable directly under its client-safe name.
      const direct = next.find((n) => n === name('get-sum'));
      if (direct) {
        const r = await c.callTool({ name: direct, arguments: { a: 2, b: 3 } });
        assert.equal(r.isError ?? false, false);
      }
    } finally {
      await world.lens.updateSettings({ ...world.lens.settings(), exposure: 'search' });
    }
  });

  it('keeps the record across a restart and stores nothing when usage is off', async () => {
    const recorded = world.lens.usageStats()!.callsRecorded;
    const dir = join(world.workspace.dir, '.mcp-lens', 'usage');
    assert.ok(existsSync(dir) && readdirSync(dir).length > 0);
    await world.lens.close();
    const again = await reopenLens(world);
    try {
      assert.equal(again.usageStats()!.callsRecorded, recorded);
    } finally {
      await again.close();
    }
    const off = await startLens({ everything: EVERYTHING }, { usage: { enabled: false, retentionDays: 90 } });
    try {
      await off.lens.callTool(
        off.lens.tools().find((t) => t.originalName === 'echo')!.name,
        { message: 'x' },
        { sessionId: 's' },
      );
      assert.equal(off.lens.usageStats()!.enabled, false);
      assert.equal(existsSync(join(off.workspace.dir, '.mcp-lens', 'usage')), false);
    } finally {
      await off.close();
    }
  });
});
