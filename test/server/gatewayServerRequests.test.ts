/**
 * What an upstream asks back reaches the client whose call caused it: sampling, elicitation and
 * roots requests, log messages, resource updates, completions and cancellation, through the
 * real gateway over streamable HTTP (real SDK clients, one per session) in front of a real
 * upstream over streamable HTTP (MCP Lens's conformance upstream, test/fixtures/servers/
 * conformance), for direct calls (exposure all), call_tool and calls inside run_code.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
  type CallToolResult,
  type ClientCapabilities,
  type LoggingMessageNotification,
} from '@modelcontextprotocol/sdk/types.js';
import { UriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, startHttpLens, until, type HttpLensWorld } from '../fixtures/gatewayLens';
import { startConformanceServer, type ConformanceServer } from '../fixtures/servers/conformance/http';

const TOKEN = 'server-requests-' + Math.random().toString(36).slice(2);

function text(r: unknown): string {
  return ((r as CallToolResult).content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

describe('server-to-client requests through the gateway', () => {
  let upstream: ConformanceServer;
  let world: HttpLensWorld;
  const clients: Client[] = [];

  async function connect(capabilities: ClientCapabilities, name = 'requests-test'): Promise<Client> {
    const client = new Client({ name, version: '1.0.0' }, { capabilities });
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

  it('sends each elicitation to the session whose call caused it, with two sessions calling at once', async () => {
    const a = await connect({ elicitation: {} }, 'session-a');
    const b = await connect({ elicitation: {} }, 'session-b');
    const seen: Record<string, string[]> = { a: [], b: [] };
    // Each answer waits until both questions arrived: both calls are in flight on one upstream together.
    let release!: () => void;
    const bothAsked = new Promise<void>((r) => (release = r));
    for (const [key, client] of [
      ['a', a],
      ['b', b],
    ] as const) {
      client.setRequestHandler(ElicitRequestSchema, async (request) => {
        seen[key]!.push(request.params.message);
        if (seen.a!.length && seen.b!.length) release();
        await bothAsked;
        return { action: 'accept', content: { username: `user-${key}`, email: `${key}@example.com` } };
      });
    }
    const [ra, rb] = await Promise.all([
      a.callTool({ name: 'conf_test_elicitation', arguments: { message: 'question for A' } }),
      b.callTool({
        name: 'call_tool',
        arguments: { tool_name: 'conf_test_elicitation', arguments: { message: 'question for B' } },
      }),
    ]);
    assert.deepEqual(seen, { a: ['[conf] question for A'], b: ['[conf] question for B'] });
    assert.match(text(ra), /user-a/);
    assert.match(text(rb), /user-b/);
  });

  it("cleans what an upstream asks a person as it cleans the upstream's replies", async () => {
    const client = await connect({ elicitation: {} });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: 'decline' };
    });
    await client.callTool({
      name: 'conf_test_elicitation',
      arguments: { message: 'approve \u001b[31mthis\u001b[0m \u202eplease' },
    });
    assert.deepEqual(asked, ['[conf] approve this please']);
  });

  it('refuses at once, with the protocol error, what the causing client cannot answer', async () => {
    const bare = await connect({}, 'capability-less');
    const r = await bare.callTool({ name: 'conf_test_elicitation', arguments: { message: 'anyone?' } });
    assert.equal(r.isError, true);
    assert.match(text(r), /does not support elicitation/);
    assert.match(text(r), /-32601/);
    const s = await bare.callTool({ name: 'conf_test_sampling', arguments: { prompt: 'hi' } });
    assert.match(text(s), /does not support sampling/);
  });

  it('passes sampling on for direct calls, call_tool and calls inside run_code', async () => {
    const client = await connect({ sampling: {} });
    const prompts: string[] = [];
    client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
      const content = request.params.messages[0]?.content as { text?: string };
      prompts.push(content.text ?? '');
      return {
        role: 'assistant',
        content: { type: 'text', text: `answer to ${content.text}` },
        model: 'test-model',
        stopReason: 'endTurn',
      };
    });
    const direct = await client.callTool({ name: 'conf_test_sampling', arguments: { prompt: 'direct' } });
    const viaCallTool = await client.callTool({
      name: 'call_tool',
      arguments: { tool_name: 'conf_test_sampling', arguments: { prompt: 'meta' } },
    });
    const script = await client.callTool({
      name: 'run_code',
      arguments: { code: 'const r = await call_tool("conf_test_sampling", { prompt: "script" }); return r;' },
    });
    assert.deepEqual(prompts, ['direct', 'meta', 'script']);
    assert.match(text(direct), /LLM response: answer to direct/);
    assert.match(text(viaCallTool), /answer to meta/);
    assert.match(text(script), /answer to script/);
  });

  it("keeps an HTTP upstream's standalone stream open when the SDK gives up reconnecting it", async () => {
    const client = await connect({ sampling: {} });
    client.setRequestHandler(CreateMessageRequestSchema, async () => ({
      role: 'assistant',
      content: { type: 'text', text: 'still here' },
      model: 'm',
    }));
    const ask = () => client.callTool({ name: 'conf_test_sampling_unrelated', arguments: { prompt: 'p' } });
    assert.match(text(await ask()), /LLM response: still here/);
    const before = upstream.streamsOpened();
    // The stream breaks and the server refuses the SDK's two reconnects, as seen with the reference server.
    upstream.breakStandaloneStreams(2);
    await until('the stream to be open again', () => upstream.streamsOpened() > before, 30_000);
    assert.match(text(await ask()), /LLM response: still here/);
  });

  it('starts a new upstream session when the server keeps refusing the stream to the old one', async () => {
    const client = await connect({ sampling: {} });
    client.setRequestHandler(CreateMessageRequestSchema, async () => ({
      role: 'assistant',
      content: { type: 'text', text: 'new session' },
      model: 'm',
    }));
    const sessions = upstream.sessionsOpened();
    upstream.breakStandaloneStreams(1000);
    await until('a new upstream session', () => upstream.sessionsOpened() > sessions, 30_000);
    await until('conf ready again', () => world.lens.servers().some((s) => s.name === 'conf' && s.state === 'ready'));
    const r = await client.callTool({ name: 'conf_test_sampling_unrelated', arguments: { prompt: 'p' } });
    assert.match(text(r), /LLM response: new session/);
  });

  it("answers an upstream's roots/list with the causing client's roots, and says when they change", async () => {
    const client = await connect({ roots: { listChanged: true } });
    let roots = [{ uri: 'file:///work/one', name: 'one' }];
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots }));
    const first = await client.callTool({ name: 'conf_test_roots', arguments: {} });
    assert.deepEqual(JSON.parse(text(first)).roots, roots);
    roots = [{ uri: 'file:///work/two', name: 'two' }];
    const told = upstream.state.rootsChanged;
    await client.sendRootsListChanged();
    await until('the upstream to hear the roots changed', () => upstream.state.rootsChanged > told);
    const second = await client.callTool({
      name: 'call_tool',
      arguments: { tool_name: 'conf_test_roots', arguments: {} },
    });
    assert.deepEqual(JSON.parse(text(second)).roots, roots);
  });

  it('forwards log messages of a call to its session, filtered by the level that session set', async () => {
    const verbose = await connect({}, 'verbose');
    const quiet = await connect({}, 'quiet');
    const got: Record<string, LoggingMessageNotification['params'][]> = { verbose: [], quiet: [] };
    verbose.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void got.verbose!.push(n.params));
    quiet.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void got.quiet!.push(n.params));
    await verbose.setLoggingLevel('debug');
    await quiet.setLoggingLevel('error');
    await verbose.callTool({ name: 'conf_test_tool_with_logging', arguments: {} });
    await quiet.callTool({ name: 'conf_test_tool_with_logging', arguments: {} });
    await until('three log messages', () => got.verbose!.length >= 3);
    assert.deepEqual(
      got.verbose!.map((p) => p.data),
      ['Tool execution started', 'Tool processing data', 'Tool execution completed'],
    );
    assert.ok(got.verbose!.every((p) => p.level === 'info'));
    assert.deepEqual(got.quiet, []);
  });

  it('routes completion/complete by prompt name and by resource template', async () => {
    const client = await connect({});
    const prompt = await client.complete({
      ref: { type: 'ref/prompt', name: 'conf_test_prompt_with_arguments' },
      argument: { name: 'arg1', value: 'pa' },
    });
    assert.deepEqual(prompt.completion.values, ['paris', 'park', 'party']);
    const { resourceTemplates } = await client.listResourceTemplates();
    const template = resourceTemplates.find((t) => t.name === 'conf: template');
    assert.ok(template, JSON.stringify(resourceTemplates));
    const resource = await client.complete({
      ref: { type: 'ref/resource', uri: template.uriTemplate },
      argument: { name: 'id', value: '12' },
    });
    assert.deepEqual(resource.completion.values, ['123', '124']);
  });

  it('lists resource templates under its scheme and reads through them byte for byte', async () => {
    const client = await connect({});
    const { resourceTemplates } = await client.listResourceTemplates();
    const template = resourceTemplates.find((t) => t.name === 'conf: template')!;
    assert.match(template.uriTemplate, /^mcp-lens:\/\/conf\/.*\{id\}/);
    for (const id of ['123', 'a b/c']) {
      const uri = new UriTemplate(template.uriTemplate).expand({ id });
      const read = await client.readResource({ uri });
      // The upstream got what a client connected to it would have sent for the same expansion (its
      // answer names the id it read there), and the answer comes under the URI read.
      const direct = new UriTemplate('test://template/{id}/data').expand({ id });
      const content = read.contents[0] as { uri: string; text: string };
      assert.equal(JSON.parse(content.text).id, /^test:\/\/template\/([^/]+)\/data$/.exec(direct)![1]);
      assert.equal(content.uri, uri);
    }
  });

  it('subscribes, forwards updates under the URI the client subscribed with, and unsubscribes', async () => {
    const client = await connect({});
    const { resources } = await client.listResources();
    const watched = resources.find((r) => r.name === 'conf: watched-resource')!;
    const updates: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.push(n.params.uri));
    await client.subscribeResource({ uri: watched.uri });
    await client.callTool({ name: 'conf_test_touch_watched', arguments: {} });
    await until('an update', () => updates.length === 1);
    assert.deepEqual(updates, [watched.uri]);
    await client.unsubscribeResource({ uri: watched.uri });
    await until('the upstream to drop the subscription', () => upstream.state.subscribers.size === 0);
  });

  it('cancels the upstream call when the client cancels a direct call, a call_tool and a run_code script', async () => {
    const client = await connect({});
    const counted = async () =>
      (JSON.parse(text(await client.callTool({ name: 'conf_test_state', arguments: {} }))) as { cancelled: number })
        .cancelled;
    const before = await counted();
    const calls = [
      { name: 'conf_test_wait_for_cancel', arguments: {} },
      { name: 'call_tool', arguments: { tool_name: 'conf_test_wait_for_cancel', arguments: {} } },
      { name: 'run_code', arguments: { code: 'await call_tool("conf_test_wait_for_cancel", {}); return 1;' } },
    ];
    for (const [i, call] of calls.entries()) {
      const controller = new AbortController();
      const pending = client.callTool(call, undefined, { signal: controller.signal }).catch((err: unknown) => err);
      // The upstream's handler is running once the gateway has a call in flight on it.
      await until(`call ${i} to reach the upstream`, () => upstream.state.running > 0);
      controller.abort();
      await pending;
      await until(`cancellation ${i} to reach the upstream`, () => upstream.state.cancelled === before + i + 1);
    }
    assert.equal(await counted(), before + 3);
  });
});

describe('server-to-client requests from a stdio upstream (each client its own process)', () => {
  let world: HttpLensWorld;
  const clients: Client[] = [];
  const tsx = pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
  const fixture = join(ROOT, 'test/fixtures/servers/conformance/main.ts');

  async function connect(name: string): Promise<Client> {
    const client = new Client({ name, version: '1.0.0' }, { capabilities: { elicitation: {} } });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(world.url), {
        requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
      }),
    );
    client.setRequestHandler(ElicitRequestSchema, async () => ({
      action: 'accept',
      content: { username: name, email: `${name}@example.com` },
    }));
    clients.push(client);
    return client;
  }

  before(async () => {
    world = await startHttpLens(
      { conf: { type: 'stdio', command: process.execPath, args: ['--import', tsx, fixture, '--stdio'] } },
      TOKEN,
      {
        exposure: 'all',
      },
    );
  });

  after(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await world?.close();
  });

  it('sends an elicitation to the only session with a call in flight', async () => {
    await connect('lonely'); // connected, but without a call: not asked
    const caller = await connect('caller');
    const r = await caller.callTool({ name: 'conf_test_elicitation', arguments: { message: 'who?' } });
    assert.match(text(r), /username":"caller"/);
  });

  it("with another client's call in flight, asks the client whose call asks, which answers or refuses itself", async () => {
    const a = await connect('a');
    const b = await connect('b');
    const bare = new Client({ name: 'bare', version: '1.0.0' }, { capabilities: {} });
    await bare.connect(
      new StreamableHTTPClientTransport(new URL(world.url), {
        requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
      }),
    );
    clients.push(bare);
    const controller = new AbortController();
    const waiting = a
      .callTool({ name: 'conf_test_wait_for_cancel', arguments: {} }, undefined, { signal: controller.signal })
      .catch(() => undefined);
    // Each client of `serve --http` has its own process of a stdio server: A's shows A's call running.
    const running = async () =>
      (JSON.parse(text(await a.callTool({ name: 'conf_test_state', arguments: {} }))) as { running: number }).running;
    for (let i = 0; i < 500 && (await running()) === 0; i++) await new Promise((res) => setTimeout(res, 10));
    const r = await b.callTool({ name: 'conf_test_elicitation', arguments: { message: 'whose?' } });
    assert.match(text(r), /username":"b"/);
    // A client that cannot elicit is refused at once, A never asked in its place.
    const refused = await bare.callTool({ name: 'conf_test_elicitation', arguments: { message: 'whose?' } });
    assert.match(text(refused), /\(bare\) does not support elicitation/);
    controller.abort();
    await waiting;
  });
});
