/**
 * The stdio front door's call_tool when its client goes away mid-call: the transport closing
 * aborts the call (the SDK's Protocol aborts every request it is handling), so the upstream is
 * told to stop, and nothing is written for it afterwards. In-process: a Gateway on the SDK's
 * stdio server transport over streams, a LensApp over the slow fixture.
 */
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { silentLogger } from '../../server/src/core/logger';
import { Gateway } from '../../server/src/gateway/gateway';
import { SLOW, startLens, type LensWorld } from '../fixtures/gatewayLens';

describe('the stdio front door closing mid-call', () => {
  let world: LensWorld;
  let gateway: Gateway;

  const stats = async () => {
    const r: CallToolResult = await world.lens.callTool('slow_stats', {});
    return JSON.parse(r.content.map((c) => (c.type === 'text' ? c.text : '')).join('')) as {
      started: number;
      finished: number;
      cancelled: number;
    };
  };

  before(async () => {
    world = await startLens({ slow: SLOW });
    gateway = new Gateway({ lens: world.lens, log: silentLogger });
  });

  after(async () => {
    await gateway?.close();
    await world?.close();
  });

  it('aborts the call_tool still running: the upstream is told to stop, and no answer is written', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const written: string[] = [];
    stdout.on('data', (chunk: Buffer) => written.push(chunk.toString('utf8')));
    const transport = new StdioServerTransport(stdin, stdout);
    await gateway.connect(transport);
    const before = await stats();
    const call = { tool_name: 'slow_sleep', arguments: { ms: 20_000, steps: 200 } };
    stdin.write(
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'call_tool', arguments: call } }) +
        '\n',
    );
    for (;;) {
      const s = await stats();
      if (s.started > before.started) break;
    }
    await transport.close();
    for (;;) {
      const s = await stats();
      if (s.cancelled > before.cancelled) break;
    }
    assert.deepEqual(written, []);
  });
});
