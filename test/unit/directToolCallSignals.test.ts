/**
 * The direct path's per-call AbortControllers (gateway/directToolCalls.ts): made ahead of the
 * call (SpareControllers) yet never shared. Each call in a burst gets a signal of its own, a
 * notifications/cancelled aborts that call's alone (and no response follows for it), the calls
 * after a cancel get fresh, unaborted signals, and closing the transport aborts what still runs.
 */
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { SpareControllers, answerToolCallsDirectly } from '../../server/src/gateway/directToolCalls';
import { GatewayStdioTransport } from '../../server/src/gateway/stdioTransport';

const turn = () => new Promise((r) => setImmediate(r));

function callLine(id: number): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'call_tool', arguments: { tool_name: 't', arguments: {} } },
  });
}

function harness() {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const transport = new GatewayStdioTransport(stdin, stdout);
  const replies: { id: number }[] = [];
  let out = '';
  stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    for (let nl = out.indexOf('\n'); nl !== -1; nl = out.indexOf('\n')) {
      replies.push(JSON.parse(out.slice(0, nl)) as { id: number });
      out = out.slice(nl + 1);
    }
  });
  const calls: { signal: AbortSignal; answer: (r: CallToolResult) => void }[] = [];
  answerToolCallsDirectly(transport, new Server({ name: 't', version: '1' }), (_params, extra) => {
    return new Promise<CallToolResult>((answer) => calls.push({ signal: extra.signal, answer }));
  });
  return { stdin, transport, replies, calls };
}

const ok: CallToolResult = { content: [{ type: 'text', text: 'done' }] };

describe('the direct path gives each call its own abort signal', () => {
  it('keeps the signals of a burst apart, and a cancel aborts only its call', async () => {
    const { stdin, transport, replies, calls } = harness();
    await transport.start();
    stdin.write([1, 2, 3].map(callLine).join('\n') + '\n');
    while (calls.length < 3) await turn();
    assert.equal(new Set(calls.map((c) => c.signal)).size, 3);
    stdin.write(
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2, reason: 'test' } }) +
        '\n',
    );
    while (!calls[1]!.signal.aborted) await turn();
    assert.deepEqual(
      calls.map((c) => c.signal.aborted),
      [false, true, false],
    );
    for (const c of calls) c.answer(ok);
    while (replies.length < 2) await turn();
    await turn();
    assert.deepEqual(
      replies.map((r) => r.id),
      [1, 3],
    );
    // The calls after it (the first on a controller made ahead) start unaborted, each its own.
    stdin.write(callLine(4) + '\n');
    while (calls.length < 4) await turn();
    stdin.write(callLine(5) + '\n');
    while (calls.length < 5) await turn();
    const later = calls.slice(3).map((c) => c.signal);
    assert.ok(later.every((s) => !s.aborted && !calls.slice(0, 3).some((c) => c.signal === s)));
    assert.notEqual(later[0], later[1]);
    await transport.close();
    assert.ok(
      later.every((s) => s.aborted),
      'closing aborts the calls still running',
    );
  });
});

describe('SpareControllers', () => {
  it('hands each controller out once, makes the next after the turn, and none once cleared', async () => {
    const spares = new SpareControllers();
    const a = spares.take();
    const b = spares.take();
    assert.notEqual(a, b);
    spares.refill();
    await turn();
    const c = spares.take();
    assert.ok(c !== a && c !== b && !c.signal.aborted);
    spares.refill();
    spares.clear();
    await turn();
    // Cleared before the turn: nothing was kept, a fresh one is made on demand.
    const d = spares.take();
    assert.ok(d !== c && !d.signal.aborted);
  });
});
