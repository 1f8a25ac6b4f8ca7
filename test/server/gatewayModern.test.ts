/**
 * The gateway speaks protocol revision 2026-07-28 over streamable HTTP: stateless requests with
 * their `_meta` envelope and no session, server/discover, the revision's errors (always under the
 * request's id), `resultType` and caching hints, log messages only at the level a request asked
 * for, subscriptions/listen, and an upstream of the 2025 era asking back (elicitation, sampling)
 * while a call runs, which a 2026 client gets as input-required rounds. Raw HTTP for the refusals;
 * the official TypeScript SDK v2 client pinned to 2026-07-28 for the rest. The upstream is MCP
 * Lens's own conformance server, a 2025-11-25 server.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdioTransport } from '@modelcontextprotocol/client/stdio';
import {
  CLI,
  ROOT,
  makeWorkspace,
  startHttpLens,
  type HttpLensWorld,
  type TestWorkspace,
} from '../fixtures/gatewayLens';
import { startConformanceServer, type ConformanceServer } from '../fixtures/servers/conformance/http';

const TOKEN = 'modern-' + Math.random().toString(36).slice(2);
const REVISION = '2026-07-28';
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': REVISION,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'raw-test', version: '1' },
};

interface RawAnswer {
  status: number;
  contentType: string;
  messages: Array<Record<string, unknown>>;
}

/** One POST as a 2026 client sends it (`headers` overrides the standard ones; null removes one). */
async function post(
  url: string,
  body: Record<string, unknown>,
  headers: Record<string, string | null> = {},
): Promise<RawAnswer> {
  const params = (body.params ?? {}) as Record<string, unknown>;
  const name = (params.name ?? params.uri) as string | undefined;
  const all: Record<string, string | null> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    authorization: `Bearer ${TOKEN}`,
    'mcp-protocol-version': REVISION,
    'mcp-method': String(body.method),
    ...(name !== undefined && { 'mcp-name': name }),
    ...headers,
  };
  const sent = Object.fromEntries(Object.entries(all).filter(([, v]) => v !== null)) as Record<string, string>;
  const res = await fetch(url, { method: 'POST', headers: sent, body: JSON.stringify({ jsonrpc: '2.0', ...body }) });
  const contentType = res.headers.get('content-type') ?? '';
  const text = await res.text();
  const messages = contentType.includes('text/event-stream')
    ? text
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => JSON.parse(l.slice(5)))
    : text
      ? [JSON.parse(text)]
      : [];
  return { status: res.status, contentType, messages };
}

const withEnvelope = (params: Record<string, unknown> = {}, meta: Record<string, unknown> = {}) => ({
  ...params,
  _meta: { ...ENVELOPE, ...meta },
});

describe('the gateway speaks 2026-07-28 over streamable HTTP', () => {
  let upstream: ConformanceServer;
  let world: HttpLensWorld;
  const clients: Client[] = [];

  async function modernClient(capabilities: Record<string, unknown> = {}): Promise<Client> {
    const client = new Client(
      { name: 'modern-test', version: '1.0.0' },
      { capabilities, versionNegotiation: { mode: { pin: REVISION } } },
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL(world.url), {
        requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
      }),
    );
    clients.push(client);
    return client;
  }

  before(async () => {
    upstream = await startConformanceServer();
    world = await startHttpLens({ conf: { type: 'http', url: upstream.url } }, TOKEN, { exposure: 'all' });
  });

  after(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await world?.close();
    await upstream?.close();
  });

  it('answers server/discover with no session: the revision, capabilities, result type, hints and identity', async () => {
    const { status, messages } = await post(world.url, { id: 7, method: 'server/discover', params: withEnvelope() });
    assert.equal(status, 200);
    const answer = messages[0] as { id: number; result: Record<string, unknown> };
    assert.equal(answer.id, 7);
    assert.deepEqual(answer.result.supportedVersions, [REVISION]);
    assert.equal(answer.result.resultType, 'complete');
    assert.equal(answer.result.cacheScope, 'private');
    assert.equal(typeof answer.result.ttlMs, 'number');
    const caps = answer.result.capabilities as Record<string, unknown>;
    assert.ok(caps.tools && caps.prompts && caps.resources, JSON.stringify(caps));
    const meta = answer.result._meta as Record<string, { name: string }>;
    assert.equal(meta['io.modelcontextprotocol/serverInfo']!.name, 'mcp-lens');
  });

  it("refuses what the revision refuses, with its codes and statuses, always under the request's id", async () => {
    const cases: Array<[string, Record<string, unknown>, Record<string, string | null>, number, number]> = [
      [
        'no version header',
        { method: 'tools/list', params: withEnvelope() },
        { 'mcp-protocol-version': null },
        400,
        -32020,
      ],
      ['no _meta', { method: 'server/discover', params: {} }, {}, 400, -32602],
      [
        'no client capabilities',
        { method: 'server/discover', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': REVISION } } },
        {},
        400,
        -32602,
      ],
      [
        'header and envelope disagree',
        {
          method: 'server/discover',
          params: withEnvelope({}, { 'io.modelcontextprotocol/protocolVersion': '2099-01-01' }),
        },
        {},
        400,
        -32020,
      ],
      [
        'Mcp-Method is another method',
        { method: 'tools/list', params: withEnvelope() },
        { 'mcp-method': 'prompts/list' },
        400,
        -32020,
      ],
      ['Mcp-Method missing', { method: 'tools/list', params: withEnvelope() }, { 'mcp-method': null }, 400, -32020],
      [
        'Mcp-Name missing',
        { method: 'tools/call', params: withEnvelope({ name: 'conf_test_simple_text', arguments: {} }) },
        { 'mcp-name': null },
        400,
        -32020,
      ],
      [
        'Mcp-Name is another tool',
        { method: 'tools/call', params: withEnvelope({ name: 'conf_test_simple_text', arguments: {} }) },
        { 'mcp-name': 'conf_other' },
        400,
        -32020,
      ],
      ['ping is removed', { method: 'ping', params: withEnvelope() }, {}, 404, -32601],
      [
        'logging/setLevel is removed',
        { method: 'logging/setLevel', params: withEnvelope({ level: 'info' }) },
        {},
        404,
        -32601,
      ],
      [
        'resources/subscribe is removed',
        { method: 'resources/subscribe', params: withEnvelope({ uri: 'x:/y' }) },
        {},
        404,
        -32601,
      ],
      ['an unknown method', { method: 'unknown/method', params: withEnvelope() }, {}, 404, -32601],
    ];
    let id = 100;
    for (const [what, body, headers, status, code] of cases) {
      const answer = await post(world.url, { id: ++id, ...body }, headers);
      const message = answer.messages[0] as { id: unknown; error?: { code: number } };
      assert.equal(answer.status, status, `${what}: HTTP ${answer.status}`);
      assert.equal(message.error?.code, code, `${what}: ${JSON.stringify(message)}`);
      assert.equal(message.id, id, `${what}: the error carries the request's id`);
    }
    const v999 = { ...ENVELOPE, 'io.modelcontextprotocol/protocolVersion': 'v999' };
    const answer = await post(
      world.url,
      { id: 301, method: 'server/discover', params: { _meta: v999 } },
      { 'mcp-protocol-version': 'v999' },
    );
    const error = (answer.messages[0] as { error: { code: number; data: { supported: string[]; requested: string } } })
      .error;
    assert.equal(answer.status, 400);
    assert.equal(error.code, -32022);
    assert.deepEqual(error.data, { supported: [REVISION], requested: 'v999' });
  });

  it('opens a session for every earlier revision a client asks for in initialize', async () => {
    for (const revision of ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25']) {
      const answer = await post(
        world.url,
        {
          id: 1,
          method: 'initialize',
          params: { protocolVersion: revision, capabilities: {}, clientInfo: { name: 'old', version: '1' } },
        },
        { 'mcp-protocol-version': null, 'mcp-method': null },
      );
      const result = (answer.messages[0] as { result: { protocolVersion: string } }).result;
      assert.equal(result.protocolVersion, revision, revision);
    }
  });

  it('still opens 2025-era sessions with initialize, and names both ways when a request has neither', async () => {
    const answer = await post(
      world.url,
      { id: 9, method: 'tools/list' },
      { 'mcp-protocol-version': null, 'mcp-method': null },
    );
    assert.equal(answer.status, 400);
    const message = answer.messages[0] as { id: unknown; error: { message: string } };
    assert.equal(message.id, 9);
    assert.match(message.error.message, /initialize.*2026-07-28/s);
  });

  it('serves tools, prompts and resources to a 2026 client, each result typed and the lists with caching hints', async () => {
    const client = await modernClient();
    assert.equal(client.getNegotiatedProtocolVersion(), REVISION);
    const tools = await client.listTools();
    assert.ok(tools.tools.some((t) => t.name === 'conf_test_simple_text'));
    const result = await client.callTool({ name: 'conf_test_simple_text', arguments: {} });
    assert.deepEqual(result.content, [{ type: 'text', text: 'This is a simple text response for testing.' }]);
    const raw = await post(world.url, { id: 11, method: 'tools/list', params: withEnvelope() });
    const list = (raw.messages[0] as { result: Record<string, unknown> }).result;
    assert.equal(list.resultType, 'complete');
    assert.equal(list.cacheScope, 'private');
    assert.ok(Number.isInteger(list.ttlMs) && (list.ttlMs as number) >= 0);
    const prompt = await client.getPrompt({ name: 'conf_test_simple_prompt' });
    assert.ok(prompt.messages.length > 0);
    const resources = await client.listResources();
    const staticText = resources.resources.find((r) => r.name.endsWith('static-text'))!;
    const read = await client.readResource({ uri: staticText.uri });
    assert.equal((read.contents[0] as { text: string }).text, 'This is the content of the static text resource.');
  });

  it('sends log messages only to a request that asked for them, at its level', async () => {
    const call = (meta: Record<string, unknown>) =>
      post(world.url, {
        id: 21,
        method: 'tools/call',
        params: withEnvelope({ name: 'conf_test_tool_with_logging', arguments: {} }, meta),
      });
    const quiet = await call({});
    assert.equal(quiet.messages.filter((m) => m.method === 'notifications/message').length, 0);
    assert.equal((quiet.messages.at(-1) as { id: number }).id, 21);
    const loud = await call({ 'io.modelcontextprotocol/logLevel': 'info' });
    assert.equal(loud.contentType.split(';')[0], 'text/event-stream');
    assert.equal(loud.messages.filter((m) => m.method === 'notifications/message').length, 3);
    const above = await call({ 'io.modelcontextprotocol/logLevel': 'error' });
    assert.equal(above.messages.filter((m) => m.method === 'notifications/message').length, 0);
  });

  it("turns an upstream's elicitation into input-required rounds for a 2026 client, and its answer back", async () => {
    const client = await modernClient({ elicitation: {} });
    let asked = '';
    client.setRequestHandler('elicitation/create', async (request) => {
      asked = String((request.params as { message?: unknown }).message);
      return { action: 'accept', content: { username: 'ada', email: 'ada@example.com' } };
    });
    const result = await client.callTool({ name: 'conf_test_elicitation', arguments: { message: 'Who are you?' } });
    // The message names the server that asks (gateway/askingServer), as for a 2025 session.
    assert.equal(asked, '[conf] Who are you?');
    assert.match(JSON.stringify(result.content), /ada/);
  });

  it('holds the call across a raw retry: the requestState is signed, bound to its request, and the answer completes it', async () => {
    const params = { name: 'conf_test_sampling', arguments: { prompt: 'Capital of France?' } };
    const caps = { 'io.modelcontextprotocol/clientCapabilities': { sampling: {} } };
    const first = await post(world.url, { id: 31, method: 'tools/call', params: withEnvelope(params, caps) });
    const round = (first.messages.at(-1) as { result: Record<string, unknown> }).result;
    assert.equal(round.resultType, 'input_required');
    const [key, request] = Object.entries(round.inputRequests as Record<string, { method: string }>)[0]!;
    assert.equal(request.method, 'sampling/createMessage');
    const state = round.requestState as string;
    const tampered = await post(world.url, {
      id: 32,
      method: 'tools/call',
      params: withEnvelope({ ...params, requestState: `${state}x`, inputResponses: {} }, caps),
    });
    assert.equal((tampered.messages[0] as { error: { code: number } }).error.code, -32602);
    const answer = {
      role: 'assistant',
      content: { type: 'text', text: 'Paris' },
      model: 'test',
      stopReason: 'endTurn',
    };
    const retry = await post(world.url, {
      id: 33,
      method: 'tools/call',
      params: withEnvelope(
        { ...params, requestState: state, inputResponses: { [key]: answer, extra: { ignored: true } } },
        caps,
      ),
    });
    const done = retry.messages.at(-1) as { id: number; result: { resultType: string; content: unknown } };
    assert.equal(done.id, 33);
    assert.equal(done.result.resultType, 'complete');
    assert.match(JSON.stringify(done.result.content), /Paris/);
  });

  it('fails with -32021 naming the capability when the upstream asks what the request did not declare', async () => {
    const answer = await post(world.url, {
      id: 41,
      method: 'tools/call',
      params: withEnvelope({ name: 'conf_test_sampling', arguments: { prompt: 'hi' } }),
    });
    const message = answer.messages.at(-1) as { id: number; error: { code: number; data: unknown } };
    assert.equal(answer.status, 400);
    assert.equal(message.id, 41);
    assert.equal(message.error.code, -32021);
    assert.deepEqual(message.error.data, { requiredCapabilities: { sampling: {} } });
  });

  it('acknowledges a subscriptions/listen stream first, then carries the updates it asked for, tagged', async () => {
    const resources = (await post(world.url, { id: 51, method: 'resources/list', params: withEnvelope() }))
      .messages[0] as {
      result: { resources: Array<{ uri: string; name: string }> };
    };
    const watched = resources.result.resources.find((r) => r.name.endsWith('watched-resource'))!.uri;
    const controller = new AbortController();
    const res = await fetch(world.url, {
      method: 'POST',
      signal: controller.signal,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${TOKEN}`,
        'mcp-protocol-version': REVISION,
        'mcp-method': 'subscriptions/listen',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'listen-1',
        method: 'subscriptions/listen',
        params: withEnvelope({
          notifications: { promptsListChanged: true, resourceSubscriptions: [watched, 'nowhere://x'] },
        }),
      }),
    });
    const reader = res.body!.getReader();
    const frames: Array<Record<string, unknown>> = [];
    let buffer = '';
    const next = async () => {
      while (true) {
        const line = buffer.split('\n').find((l) => l.startsWith('data:'));
        if (line) {
          buffer = buffer.slice(buffer.indexOf(line) + line.length);
          frames.push(JSON.parse(line.slice(5)));
          return frames.at(-1)!;
        }
        const { value, done } = await reader.read();
        if (done) throw new Error('the stream ended');
        buffer += new TextDecoder().decode(value);
      }
    };
    const ack = (await next()) as { method: string; params: Record<string, unknown> };
    assert.equal(ack.method, 'notifications/subscriptions/acknowledged');
    assert.deepEqual(ack.params.notifications, { promptsListChanged: true, resourceSubscriptions: [watched] });
    assert.equal((ack.params._meta as Record<string, unknown>)['io.modelcontextprotocol/subscriptionId'], 'listen-1');
    await post(world.url, {
      id: 52,
      method: 'tools/call',
      params: withEnvelope({ name: 'conf_test_touch_watched', arguments: {} }),
    });
    const update = (await next()) as { method: string; params: Record<string, unknown> };
    assert.equal(update.method, 'notifications/resources/updated');
    assert.equal(update.params.uri, watched);
    assert.equal(
      (update.params._meta as Record<string, unknown>)['io.modelcontextprotocol/subscriptionId'],
      'listen-1',
    );
    controller.abort();
  });
});

describe('the gateway speaks 2026-07-28 over stdio, beside a 2025 session on the same pipe', () => {
  let upstream: ConformanceServer;
  let ws: TestWorkspace;
  let client: Client;
  /** Every tools list the client's listen stream brought (ClientOptions.listChanged). */
  const listed: { name: string }[][] = [];
  let heard: () => void = () => undefined;

  before(async () => {
    upstream = await startConformanceServer();
    ws = makeWorkspace({ conf: { type: 'http', url: upstream.url } }, { exposure: 'all' });
    client = new Client(
      { name: 'modern-stdio-test', version: '1.0.0' },
      {
        capabilities: { elicitation: {} },
        versionNegotiation: { mode: { pin: REVISION } },
        listChanged: {
          tools: {
            onChanged: (_err, tools) => {
              if (tools) listed.push(tools);
              heard();
            },
          },
        },
      },
    );
    await client.connect(
      new ModernStdioTransport({
        command: process.execPath,
        args: [...CLI, 'serve', '--workspace', ws.dir, '--config', ws.configFile, '--trust'],
        cwd: ROOT,
        stderr: 'ignore',
      }),
    );
  });

  after(async () => {
    await client?.close().catch(() => undefined);
    ws?.close();
    await upstream?.close();
  });

  it(
    'discovers, lists, calls, and answers an upstream elicitation through input-required rounds',
    { timeout: 120_000 },
    async () => {
      assert.equal(client.getNegotiatedProtocolVersion(), REVISION);
      // serve starts its servers once a client first asked for tools: their tools come in as they
      // start, announced on the listen stream the client opened; a list cached under its ttlMs
      // in between would hide them.
      const has = (tools: { name: string }[]) => tools.some((t) => t.name === 'conf_test_elicitation');
      const announced = new Promise<void>((resolve) => {
        heard = () => listed.some(has) && resolve();
        heard();
      });
      if (!has((await client.listTools()).tools)) await announced;
      assert.ok(has((await client.listTools()).tools), 'the list the client reuses holds the upstream tools');
      const simple = await client.callTool({ name: 'conf_test_simple_text', arguments: {} });
      assert.deepEqual(simple.content, [{ type: 'text', text: 'This is a simple text response for testing.' }]);
      client.setRequestHandler('elicitation/create', async () => ({
        action: 'accept',
        content: { username: 'stdio-ada', email: 'ada@example.com' },
      }));
      const asked = await client.callTool({ name: 'conf_test_elicitation', arguments: { message: 'Who?' } });
      assert.match(JSON.stringify(asked.content), /stdio-ada/);
    },
  );
});
