/**
 * call_tool through `mcp-lens serve` over stdio to stdio upstreams, on the SDK's request path at
 * both ends (the SDK's Server in front, its Client behind: the upstream sees the SDK's numeric
 * ids, with or without progress), losing nothing a call needs: cancellation reaching the
 * upstream, progress with the caller's token, an upstream that dies mid-call, an error result
 * and a JSON-RPC error, a reply over the size limit, the timeout (the upstream told to stop),
 * and what the upstream asks back during the call reaching this client.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CreateMessageRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  CRASH,
  EVERYTHING,
  ROOT,
  SLOW,
  makeWorkspace,
  serveOverStdio,
  type TestWorkspace,
} from '../fixtures/gatewayLens';

const FAULTY = join(ROOT, 'test/fixtures/servers/faulty/faulty.mjs');
const SERVERS = {
  slow: SLOW,
  crash: CRASH,
  huge: { type: 'stdio' as const, command: process.execPath, args: [FAULTY, '--mode', 'huge'] },
  replies: { type: 'stdio' as const, command: process.execPath, args: [FAULTY, '--mode', 'hostile-replies'] },
  everything: EVERYTHING,
};

function text(r: unknown): string {
  return ((r as CallToolResult).content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

describe('call_tool over stdio, through the SDK at both ends', () => {
  let ws: TestWorkspace;
  let client: Client;

  const call = (tool: string, args: Record<string, unknown> = {}, options: Parameters<Client['callTool']>[2] = {}) =>
    client.callTool(
      { name: 'call_tool', arguments: { tool_name: tool, arguments: args } },
      undefined,
      options,
    ) as Promise<CallToolResult>;

  before(async () => {
    // Five seconds per call: short enough for the timeout test, long enough that on a loaded
    // machine neither the 900 ms progress call nor the 11 MB reply runs into it (at one second
    // the size-limit test once got the timeout instead).
    ws = makeWorkspace(SERVERS, { callTimeoutSeconds: 5 });
    client = new Client({ name: 'stdio-calls-test', version: '1.0.0' }, { capabilities: { sampling: {} } });
    client.setRequestHandler(CreateMessageRequestSchema, async () => ({
      role: 'assistant',
      content: { type: 'text', text: 'sampled by the test client' },
      model: 'test-model',
    }));
    await client.connect(serveOverStdio(ws));
    // Every server ready before the first call, so no call races a start.
    const deadline = Date.now() + 60_000;
    for (;;) {
      const listed = JSON.parse(text(await client.callTool({ name: 'list_servers', arguments: {} }))) as {
        servers: { state: string }[];
      };
      if (listed.servers.filter((s) => s.state === 'ready').length === Object.keys(SERVERS).length) break;
      assert.ok(Date.now() < deadline, `servers not ready: ${JSON.stringify(listed)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  });

  after(async () => {
    await client?.close();
    ws?.close();
  });

  it('sends every call on the SDK`s request ids, and one that asks for progress with the caller`s token', async () => {
    assert.match(text(await call('slow_request_id')), /^\d+$/);
    const progress: { progress: number; total?: number | undefined }[] = [];
    const viaSdk = await call('slow_request_id', {}, { onprogress: (p) => progress.push(p) });
    assert.match(text(viaSdk), /^\d+$/);
    const slept = await call('slow_sleep', { ms: 900, steps: 3 }, { onprogress: (p) => progress.push(p) });
    assert.equal(text(slept), 'slept 900 ms');
    // The SDK's Protocol drops a progress notification read in the same chunk as its response
    // (gatewayStdioScenarios.test.ts), and on a loaded machine a step can arrive with the result:
    // what is certain is that steps arrive (300 ms apart: all three lost needs a 600 ms stall), in
    // order, with the caller's total.
    assert.ok(progress.length >= 1, 'no progress reached the caller');
    assert.ok(
      progress.every(
        (p, i) =>
          p.total === 3 && p.progress >= 1 && p.progress <= 3 && (i === 0 || p.progress > progress[i - 1]!.progress),
      ),
      JSON.stringify(progress),
    );
  });

  it('passes a cancellation on to the upstream, which stops the tool', async () => {
    const before = JSON.parse(text(await call('slow_stats'))) as { cancelled: number };
    const controller = new AbortController();
    const pending = call('slow_sleep', { ms: 30_000, steps: 300 }, { signal: controller.signal, timeout: 60_000 });
    // Cancelled once the upstream runs it: its stats count it as started.
    for (;;) {
      const stats = JSON.parse(text(await call('slow_stats'))) as {
        started: number;
        finished: number;
        cancelled: number;
      };
      if (stats.started > stats.finished + stats.cancelled) break;
    }
    controller.abort('test cancels');
    await assert.rejects(pending);
    for (;;) {
      const stats = JSON.parse(text(await call('slow_stats'))) as { cancelled: number };
      if (stats.cancelled === before.cancelled + 1) break;
    }
  });

  it('times out after the setting, tells the upstream to stop, and the next call works', async () => {
    const before = JSON.parse(text(await call('slow_stats'))) as { cancelled: number };
    const r = await call('slow_sleep', { ms: 20_000, steps: 200 });
    assert.equal(r.isError, true);
    assert.match(text(r), /The call to "sleep" on server "slow" timed out after 5 s \(mcpLens\.callTimeoutSeconds\)/);
    for (;;) {
      const stats = JSON.parse(text(await call('slow_stats'))) as { cancelled: number };
      if (stats.cancelled === before.cancelled + 1) break;
    }
  });

  it('says which server stopped when the upstream dies mid-call', async () => {
    const r = await call('crash_crash');
    assert.equal(r.isError, true);
    assert.match(text(r), /Server "crash" stopped during the call to "crash" on server "crash"/);
  });

  it('passes an error result on cleaned, and names server and tool for a JSON-RPC error', async () => {
    const failed = await call('replies_fail');
    assert.equal(failed.isError, true);
    assert.match(text(failed), /^failed: /);
    assert.doesNotMatch(text(failed), /[\u001b\u0000\u202e]/);
    const thrown = await call('replies_throw');
    assert.equal(thrown.isError, true);
    assert.match(
      text(thrown),
      /Server "replies" answered the call to "throw" on server "replies" with an error: .*thrown: /,
    );
    assert.doesNotMatch(text(thrown), /[\u001b\u0000\u202e]/);
  });

  it('fails a reply over the size limit with the reason, and the server stays up', async () => {
    const r = await call('huge_huge', { mb: 11 });
    assert.equal(r.isError, true);
    assert.match(text(r), /larger than MCP Lens's 10 MB limit for one message/);
    assert.equal(text(await call('huge_ping')), 'pong');
  });

  it('brings what the upstream asks during the call (sampling) to this client', async () => {
    const r = await call('everything_trigger-sampling-request', { prompt: 'hello', maxTokens: 20 });
    assert.notEqual(r.isError, true, text(r));
    assert.match(text(r), /sampled by the test client/);
  });
});
