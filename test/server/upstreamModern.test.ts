/**
 * The bridge toward an upstream that speaks ONLY protocol revision 2026-07-28 (a fixture built on
 * the official TypeScript SDK v2, which refuses `initialize`), over stdio and streamable HTTP:
 * a 2025-era client (the TypeScript SDK 1.x, as VS Code speaks) lists and calls its tools, reads
 * its prompts and resources, and answers what it asks through input-required rounds as the
 * elicitation, sampling and roots requests of its own era; a capability the client did not declare
 * comes back as -32021; and a 2026-07-28 client gets the same rounds as its own input-required
 * results, under the server's keys.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  McpError,
  type CallToolResult,
  type ClientCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { ROOT, startHttpLens, until, type HttpLensWorld } from '../fixtures/gatewayLens';

const TOKEN = 'modern-upstream-' + Math.random().toString(36).slice(2);
const FIXTURE = join(ROOT, 'test/fixtures/servers/modernOnly.mjs');
const text = (r: unknown) =>
  ((r as CallToolResult).content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('');

/** The fixture over HTTP; resolves its URL once it listens. */
function startHttpFixture(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [FIXTURE, '--http'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening (\S+)/.exec(out);
      if (m) resolve({ url: m[1]!, child });
    });
    child.once('exit', (code) => reject(new Error(`the fixture exited (${code}) before it listened`)));
  });
}

describe('an upstream that speaks only 2026-07-28, behind MCP Lens', () => {
  let world: HttpLensWorld;
  let fixture: { url: string; child: ChildProcess };
  const clients: Array<{ close(): Promise<void> }> = [];

  async function legacyClient(capabilities: ClientCapabilities = {}): Promise<Client> {
    const client = new Client({ name: 'vscode-like', version: '1.0.0' }, { capabilities });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(world.url), {
        requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
      }),
    );
    clients.push(client);
    return client;
  }

  before(async () => {
    fixture = await startHttpFixture();
    world = await startHttpLens(
      {
        viaStdio: { type: 'stdio', command: process.execPath, args: [FIXTURE] },
        viaHttp: { type: 'http', url: fixture.url },
      },
      TOKEN,
      { exposure: 'all' },
    );
    await until('both servers ready', () => world.lens.servers().every((s) => s.state === 'ready'), 30_000);
  });

  after(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await world?.close();
    fixture?.child.kill();
  });

  for (const server of ['viaStdio', 'viaHttp']) {
    it(`${server}: a 2025 client lists and calls its tools, and reads its prompts and resources`, async () => {
      const client = await legacyClient();
      const tools = (await client.listTools()).tools.map((t) => t.name);
      for (const tool of ['echo', 'ask_name', 'needs_sampling'])
        assert.ok(tools.includes(`${server}_${tool}`), tools.join());
      assert.equal(text(await client.callTool({ name: `${server}_echo`, arguments: { text: 'hi' } })), 'echo: hi');
      const prompt = await client.getPrompt({ name: `${server}_greeting`, arguments: { name: 'Ada' } });
      assert.match(JSON.stringify(prompt.messages), /Say hello to Ada/);
      const all = (await client.listResources()).resources;
      const note = all.find((r) => r.name === `${server}: note`);
      assert.ok(note, JSON.stringify(all));
      const read = await client.readResource({ uri: note!.uri });
      assert.equal((read.contents[0] as { text: string }).text, 'a note from a 2026-07-28 server');
    });

    it(`${server}: what it asks through input-required rounds reaches a 2025 client as its own era's requests`, async () => {
      const client = await legacyClient({ elicitation: {}, sampling: {}, roots: {} });
      const asked: string[] = [];
      client.setRequestHandler(ElicitRequestSchema, async (request) => {
        asked.push(request.params.message);
        // The bridge's bookkeeping never reaches a 2025 client.
        assert.equal(JSON.stringify(request.params).includes('mcp-lens/inputKey'), false);
        const field = request.params.message.includes('Favourite') ? 'colour' : 'name';
        return { action: 'accept', content: { [field]: field === 'name' ? 'Ada' : 'blue' } };
      });
      client.setRequestHandler(CreateMessageRequestSchema, async () => ({
        role: 'assistant',
        content: { type: 'text', text: 'Paris' },
        model: 'test',
        stopReason: 'endTurn',
      }));
      client.setRequestHandler(ListRootsRequestSchema, async () => ({
        roots: [{ uri: 'file:///work', name: 'work' }],
      }));
      assert.equal(text(await client.callTool({ name: `${server}_ask_name`, arguments: {} })), 'Hello, Ada!');
      assert.equal(text(await client.callTool({ name: `${server}_two_rounds`, arguments: {} })), 'done: blue');
      // Each message names the server that asks (gateway/askingServer).
      assert.deepEqual(
        asked,
        ['What is your name?', 'Name?', 'Favourite colour?'].map((m) => `[${server}] ${m}`),
      );
      assert.equal(
        text(await client.callTool({ name: `${server}_needs_sampling`, arguments: {} })),
        'model said: Paris',
      );
      assert.equal(text(await client.callTool({ name: `${server}_list_roots`, arguments: {} })), 'roots: 1');
    });

    it(`${server}: a capability the 2025 client did not declare comes back as -32021, naming it`, async () => {
      const client = await legacyClient();
      const refused = await client.callTool({ name: `${server}_needs_sampling`, arguments: {} }).then(
        () => undefined,
        (err: unknown) => err,
      );
      assert.ok(refused instanceof McpError, String(refused));
      assert.equal(refused.code, -32021);
      assert.deepEqual(refused.data, { requiredCapabilities: { sampling: {} } });
    });
  }

  it('a 2026 client gets the rounds as input-required results under the server keys, and completes', async () => {
    const client = new ModernClient(
      { name: 'modern', version: '1.0.0' },
      { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(
      new ModernTransport(new URL(world.url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }),
    );
    clients.push(client);
    const names: string[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      names.push(String((request.params as { message?: unknown }).message));
      return { action: 'accept', content: { name: 'Grace' } };
    });
    const result = await client.callTool({ name: 'viaHttp_ask_name', arguments: {} });
    assert.equal(text(result), 'Hello, Grace!');
    assert.deepEqual(names, ['[viaHttp] What is your name?']);
    // The raw round: the key is the server's own.
    const raw = await fetch(world.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${TOKEN}`,
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'viaStdio_ask_name',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'viaStdio_ask_name',
          arguments: {},
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
          },
        },
      }),
    });
    const round = ((await raw.json()) as { result: { resultType: string; inputRequests: Record<string, unknown> } })
      .result;
    assert.equal(round.resultType, 'input_required', JSON.stringify(round));
    assert.deepEqual(Object.keys(round.inputRequests), ['user_name']);
    // The servers' own caching hint bounds MCP Lens's: its list is no longer reusable than theirs.
    const list = await fetch(world.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        authorization: `Bearer ${TOKEN}`,
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/list',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/list',
        params: {
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      }),
    });
    const hints = ((await list.json()) as { result: { ttlMs: number; cacheScope: string } }).result;
    assert.deepEqual([hints.ttlMs, hints.cacheScope], [1234, 'private']);
  });
});
