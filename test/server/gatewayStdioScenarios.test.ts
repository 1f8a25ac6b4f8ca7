/**
 * The conformance suite's tool scenarios through `mcp-lens serve` over stdio, with the
 * conformance upstream over stdio too (test/fixtures/servers/conformance, `--stdio`): both hops
 * over stdio, the gateway's front and its upstream client. The suite
 * itself speaks HTTP only (npm run test:conformance runs it through `serve --http`), so its
 * scenarios are played here with the SDK client: each tool called directly and through
 * call_tool gives the same result, and what it sends or asks while it runs (log messages,
 * progress with the caller's token, sampling, elicitation, roots) reaches the calling client.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { ROOT, makeWorkspace, serveOverStdio, type TestWorkspace } from '../fixtures/gatewayLens';

const UPSTREAM = ['--import', 'tsx', join(ROOT, 'test/fixtures/servers/conformance/main.ts'), '--stdio'];

/** A client that answers what the scenarios ask, and keeps the log messages it is sent. */
function scenarioClient(name: string, logs: string[]): Client {
  const client = new Client(
    { name, version: '1.0.0' },
    { capabilities: { sampling: {}, elicitation: { form: {} }, roots: { listChanged: true } } },
  );
  client.setRequestHandler(CreateMessageRequestSchema, async (r) => ({
    role: 'assistant',
    content: { type: 'text', text: `answer to ${JSON.stringify(r.params.messages[0]?.content)}` },
    model: 'scenario-model',
  }));
  client.setRequestHandler(ElicitRequestSchema, async () => ({
    action: 'accept',
    content: { username: 'ada', email: 'ada@example.com' },
  }));
  client.setRequestHandler(ListRootsRequestSchema, async () => ({
    roots: [{ uri: 'file:///scenario/root', name: 'root' }],
  }));
  client.setNotificationHandler(LoggingMessageNotificationSchema, async (n) => void logs.push(String(n.params.data)));
  return client;
}

describe('the conformance tool scenarios through serve over stdio', () => {
  let ws: TestWorkspace;
  let direct: Client;
  let viaLens: Client;
  const directLogs: string[] = [];
  const lensLogs: string[] = [];

  const throughLens = (
    tool: string,
    args: Record<string, unknown> = {},
    options: Parameters<Client['callTool']>[2] = {},
  ) =>
    viaLens.callTool(
      { name: 'call_tool', arguments: { tool_name: `conf_${tool}`, arguments: args } },
      undefined,
      options,
    ) as Promise<CallToolResult>;

  before(async () => {
    ws = makeWorkspace({ conf: { type: 'stdio', command: process.execPath, args: UPSTREAM } });
    direct = scenarioClient('scenarios-direct', directLogs);
    await direct.connect(
      new StdioClientTransport({ command: process.execPath, args: UPSTREAM, cwd: ROOT, stderr: 'ignore' }),
    );
    viaLens = scenarioClient('scenarios-lens', lensLogs);
    await viaLens.connect(serveOverStdio(ws));
    for (;;) {
      const r = (await viaLens.callTool({ name: 'list_servers', arguments: {} })) as CallToolResult;
      const text = r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
      if ((JSON.parse(text) as { servers: { state: string }[] }).servers[0]?.state === 'ready') break;
      await new Promise((r) => setTimeout(r, 100));
    }
  });

  after(async () => {
    await viaLens?.close();
    await direct?.close();
    ws?.close();
  });

  it('gives every content type, structured content and an error result as the tool does', async () => {
    for (const tool of [
      'test_simple_text',
      'test_image_content',
      'test_audio_content',
      'test_embedded_resource',
      'test_multiple_content_types',
      'test_error_handling',
      'test_structured',
    ]) {
      assert.deepEqual(await throughLens(tool), await direct.callTool({ name: tool, arguments: {} }), tool);
    }
  });

  it('tools-call-with-logging: the log messages sent during the call reach the caller', async () => {
    await direct.setLoggingLevel('info');
    await viaLens.setLoggingLevel('info');
    const expected = await direct.callTool({ name: 'test_tool_with_logging', arguments: {} });
    assert.deepEqual(await throughLens('test_tool_with_logging'), expected);
    assert.deepEqual(lensLogs, directLogs);
    assert.equal(lensLogs.length, 3);
  });

  it('tools-call-with-progress: progress comes with the caller`s token', async () => {
    const progress: number[] = [];
    const directProgress: number[] = [];
    const r = await throughLens('test_tool_with_progress', {}, { onprogress: (p) => progress.push(p.progress) });
    assert.deepEqual(
      r,
      await direct.callTool({ name: 'test_tool_with_progress', arguments: {} }, undefined, {
        onprogress: (p) => directProgress.push(p.progress),
      }),
    );
    // The SDK's Protocol runs a notification's handler a microtask after it reads it, but a
    // response at once: progress read in the same chunk as the result (the last one, sent just
    // before it) finds its handler gone and is dropped, by a direct client as by the gateway's
    // upstream client; on a loaded machine an earlier step may share that chunk too. What is
    // certain: steps arrive, in order, each one the tool sent.
    for (const seen of [progress, directProgress]) {
      assert.ok(seen.length >= 1, 'no progress reached the caller');
      assert.ok(
        seen.every((p, i) => [0, 50, 100].includes(p) && (i === 0 || p > seen[i - 1]!)),
        JSON.stringify(seen),
      );
    }
  });

  it('tools-call-sampling, -elicitation and roots: what the tool asks is answered by the caller', async () => {
    const cases: [string, Record<string, unknown>][] = [
      ['test_sampling', { prompt: 'What is 2 + 2?' }],
      ['test_elicitation', { message: 'Who are you?' }],
      ['test_elicitation_sep1034_defaults', {}],
      ['test_roots', {}],
    ];
    for (const [tool, args] of cases) {
      const expected = await direct.callTool({ name: tool, arguments: args });
      assert.notEqual(expected.isError, true, `${tool} directly: ${JSON.stringify(expected)}`);
      assert.deepEqual(await throughLens(tool, args), expected, tool);
    }
  });
});
