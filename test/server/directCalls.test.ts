/**
 * The direct tool calls on a real stdio session (adapters/upstream/directCalls.ts over a
 * ProcessGroupTransport running the slow fixture, with the SDK Client connected on the same
 * transport as in session.ts): replies reach the right call while the Client keeps its own
 * requests; an abort in the same turn as the call (before its listener is added), a later
 * abort and the timeout each tell the server to stop and fail the call as the SDK's request
 * would; a call that outlasts LISTEN_AFTER_MS listens for its abort and stops once answered; the process dying fails what is in flight with ConnectionClosed.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DirectCalls, LISTEN_AFTER_MS } from '../../server/src/adapters/upstream/directCalls';
import { ProcessGroupTransport } from '../../server/src/adapters/upstream/processGroupTransport';
import { ROOT } from '../fixtures/gatewayLens';

const text = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');

describe('direct tool calls on a stdio session', () => {
  let transport: ProcessGroupTransport;
  let client: Client;
  let direct: DirectCalls;
  let exited: Promise<void>;

  const stats = async () =>
    JSON.parse(text(await direct.call('stats', {}, 10_000))) as {
      started: number;
      finished: number;
      cancelled: number;
    };
  const untilCancelled = async (count: number) => {
    while ((await stats()).cancelled < count) await new Promise((r) => setImmediate(r));
  };

  before(async () => {
    transport = new ProcessGroupTransport({
      command: process.execPath,
      args: [join(ROOT, 'test/fixtures/servers/slow.mjs')],
      env: process.env as Record<string, string>,
    });
    client = new Client({ name: 'direct-calls', version: '1.0.0' });
    await client.connect(transport);
    direct = new DirectCalls(transport);
    const closed = transport.onclose;
    exited = new Promise((resolve) => (transport.onclose = () => (closed?.(), resolve())));
  });

  after(async () => {
    if (transport.pid) process.kill(-transport.pid, 'SIGKILL');
    await exited;
  });

  const running = async () => {
    for (;;) {
      const s = await stats();
      if (s.started > s.finished + s.cancelled) return;
    }
  };

  it('answers each call with its own reply, beside the Client`s own requests', async () => {
    const [id, listed, slept] = await Promise.all([
      direct.call('request_id', {}, 10_000),
      client.listTools(),
      direct.call('sleep', { ms: 30, steps: 1 }, 10_000),
    ]);
    assert.match(text(id), /^"lens-\d+"$/);
    assert.ok(listed.tools.some((t) => t.name === 'sleep'));
    assert.equal(text(slept), 'slept 30 ms');
    assert.equal(direct.size, 0);
  });

  it('an abort in the same turn as the call still reaches the server', async () => {
    const before = (await stats()).cancelled;
    const controller = new AbortController();
    const call = direct.call('sleep', { ms: 20_000, steps: 200 }, 60_000, controller.signal);
    controller.abort('stop now');
    await assert.rejects(
      call,
      (e: unknown) => e instanceof McpError && e.code === ErrorCode.RequestTimeout && /stop now/.test(e.message),
    );
    await untilCancelled(before + 1);
    assert.equal(direct.size, 0);
  });

  it('an abort while the server works tells it to stop', async () => {
    const before = (await stats()).cancelled;
    const controller = new AbortController();
    const call = direct.call('sleep', { ms: 20_000, steps: 200 }, 60_000, controller.signal);
    await running();
    controller.abort('user gave up');
    await assert.rejects(call, /user gave up/);
    await untilCancelled(before + 1);
  });

  it('a call that outlasts LISTEN_AFTER_MS listens for its abort, and stops listening once it ended', async () => {
    const before = (await stats()).cancelled;
    const controller = new AbortController();
    const { signal } = controller;
    const listening = new Set<unknown>();
    const add = signal.addEventListener.bind(signal);
    const remove = signal.removeEventListener.bind(signal);
    signal.addEventListener = ((type: string, listener: EventListener) => (
      listening.add(listener),
      add(type, listener)
    )) as typeof add;
    signal.removeEventListener = ((type: string, listener: EventListener) => (
      listening.delete(listener),
      remove(type, listener)
    )) as typeof remove;
    const call = direct.call('sleep', { ms: 20_000, steps: 200 }, 60_000, signal);
    while (listening.size === 0) await new Promise((r) => setTimeout(r, LISTEN_AFTER_MS));
    controller.abort('listened');
    await assert.rejects(call, /listened/);
    await untilCancelled(before + 1);
    while (listening.size > 0) await new Promise((r) => setImmediate(r));
    assert.equal(direct.size, 0);
  });

  it('the timeout cancels the call on the server and fails it as the SDK does', async () => {
    const before = (await stats()).cancelled;
    await assert.rejects(direct.call('sleep', { ms: 20_000, steps: 200 }, 300), (e: unknown) => {
      assert.ok(e instanceof McpError);
      assert.equal(e.code, ErrorCode.RequestTimeout);
      assert.deepEqual(e.data, { timeout: 300 });
      return true;
    });
    await untilCancelled(before + 1);
  });

  it('the process dying fails the calls in flight with ConnectionClosed, and later calls at once', async () => {
    const call = direct.call('sleep', { ms: 20_000, steps: 200 }, 60_000);
    await running();
    process.kill(-transport.pid!, 'SIGKILL');
    await assert.rejects(call, (e: unknown) => e instanceof McpError && e.code === ErrorCode.ConnectionClosed);
    await exited;
    await assert.rejects(
      direct.call('stats', {}, 1000),
      (e: unknown) => e instanceof McpError && e.code === ErrorCode.ConnectionClosed,
    );
  });
});
