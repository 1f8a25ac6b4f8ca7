/**
 * The gateway over streamable HTTP, in-process, in front of a real LensApp with real
 * upstreams: server-everything, server-filesystem, and the crash and slow fixtures. A real
 * MCP SDK client drives it; raw fetches check the HTTP guards.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { LensStats } from '../../protocol/model';
import { silentLogger } from '../../server/src/core/logger';
import { GatewayHttpServer } from '../../server/src/gateway/http';
import { META_TOOL_NAMES } from '../../server/src/gateway/metaToolDefs';
import { MAX_QUERY_CHARS } from '../../server/src/gateway/metaToolArgs';
import { CRASH, EVERYTHING, SLOW, filesystem, startLens, until, type LensWorld } from '../fixtures/gatewayLens';

const TOKEN = 'test-token-' + Math.random().toString(36).slice(2);

function text(r: unknown): string {
  return ((r as CallToolResult).content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

describe('gateway over HTTP', () => {
  let world: LensWorld;
  let http: GatewayHttpServer;
  let url: string;
  let port: number;
  let client: Client;

  async function connect(): Promise<Client> {
    const c = new Client({ name: 'gateway-test', version: '1.0.0' });
    await c.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
      }),
    );
    return c;
  }

  before(async () => {
    world = await startLens({ everything: EVERYTHING, files: filesystem(process.cwd()), crash: CRASH, slow: SLOW }, {});
    http = new GatewayHttpServer({ lens: world.lens, token: TOKEN, log: silentLogger, sessionIdleMs: 60_000 });
    ({ url, port } = await http.start());
    client = await connect();
  });

  after(async () => {
    await client?.close();
    await http?.close();
    await world?.close();
  });

  it('initializes with serverInfo and instructions naming every server', () => {
    assert.equal(client.getServerVersion()?.name, 'mcp-lens');
    const instructions = client.getInstructions() ?? '';
    for (const name of ['crash', 'everything', 'files', 'slow'])
      assert.match(instructions, new RegExp(`\\b${name}\\b`));
    assert.match(instructions, /find_tools/);
  });

  it('lists exactly the meta-tools in search mode', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), [
      'call_tool',
      'find_tools',
      'get_tool_schema',
      'list_servers',
      'run_code',
    ]);
  });

  it('find_tools finds get-sum for "add two numbers" and call_tool returns the sum', async () => {
    const found = await client.callTool({ name: 'find_tools', arguments: { query: 'add two numbers' } });
    assert.ok(!found.isError, text(found));
    const out = found.structuredContent as {
      matches: { name: string; input_schema?: unknown; input?: string }[];
      token_metrics: { baseline_tokens: number; returned_tokens: number; savings_percent: number };
    };
    assert.deepEqual(JSON.parse(text(found)), out);
    const top3 = out.matches.slice(0, 3);
    const sum = top3.find((m) => world.lens.findTool(m.name)?.originalName === 'get-sum');
    assert.ok(sum, `get-sum not in top 3: ${top3.map((m) => m.name).join(', ')}`);
    assert.ok(
      sum.input_schema ?? sum.input,
      'the top hit carries its input schema when confident, close hits a signature',
    );
    assert.ok(
      out.token_metrics.returned_tokens > 0 && out.token_metrics.returned_tokens < out.token_metrics.baseline_tokens,
    );
    const called = await client.callTool({
      name: 'call_tool',
      arguments: { tool_name: sum.name, arguments: { a: 2, b: 40 } },
    });
    assert.ok(!called.isError, text(called));
    assert.match(text(called), /\b42\b/);
  });

  it('answers an unknown tool with the closest names', async () => {
    const sum = world.lens.tools().find((t) => t.originalName === 'get-sum')!;
    const r = await client.callTool({ name: 'call_tool', arguments: { tool_name: sum.name + 'x', arguments: {} } });
    assert.equal(r.isError, true);
    assert.match(text(r), new RegExp(`Unknown tool[\\s\\S]*${sum.name.replace(/[-]/g, '\\-')}`));
    const schema = await client.callTool({ name: 'get_tool_schema', arguments: { tool_name: sum.name + 'x' } });
    assert.equal(schema.isError, true);
    assert.ok(text(schema).includes(sum.name));
  });

  it('refuses bad arguments with the schema problems', async () => {
    const sum = world.lens.tools().find((t) => t.originalName === 'get-sum')!;
    const r = await client.callTool({ name: 'call_tool', arguments: { tool_name: sum.name, arguments: { a: 'two' } } });
    assert.equal(r.isError, true);
    assert.match(text(r), /Invalid arguments/);
    const notObject = await client.callTool({
      name: 'call_tool',
      arguments: { tool_name: sum.name, arguments: [1, 2] },
    });
    assert.equal(notObject.isError, true);
    assert.match(text(notObject), /must be an object/);
    const long = await client.callTool({ name: 'find_tools', arguments: { query: 'x'.repeat(MAX_QUERY_CHARS + 1) } });
    assert.equal(long.isError, true);
    assert.equal(text(long), `find_tools: "query" is longer than ${MAX_QUERY_CHARS} characters, the limit.`);
  });

  it("find_tools with no match says so and what to try: rephrase with the servers' words, or list_servers", async () => {
    const r = await client.callTool({ name: 'find_tools', arguments: { query: 'qwzx vbnmk' } });
    assert.ok(!r.isError, text(r));
    const out = r.structuredContent as { matches: unknown[]; no_match?: { hint: string; servers?: string[] } };
    assert.deepEqual(out.matches, []);
    assert.match(out.no_match?.hint ?? '', /No tool matches[\s\S]*Rephrase[\s\S]*list_servers/);
    // Every searchable server, with the words its tools use.
    for (const s of world.lens.servers().filter((x) => x.state === 'ready'))
      assert.ok(
        out.no_match?.servers?.some((l) => l.startsWith(`${s.name} (`)),
        s.name,
      );
    assert.deepEqual(JSON.parse(text(r)), out);
    // A query that matches has no hint.
    const found = await client.callTool({ name: 'find_tools', arguments: { query: 'add two numbers' } });
    assert.equal((found.structuredContent as { no_match?: unknown }).no_match, undefined);
  });

  it('passes an upstream isError result through untouched', async () => {
    const read = world.lens.tools().find((t) => t.server === 'files' && t.originalName === 'read_text_file')!;
    const r = await client.callTool({
      name: 'call_tool',
      arguments: { tool_name: read.name, arguments: { path: '/etc/definitely-not-allowed-here' } },
    });
    assert.equal(r.isError, true);
    assert.match(text(r), /denied|outside|not allowed/i);
  });

  it('turns an upstream crash during a call into an error result and keeps serving', async () => {
    const crash = world.lens.tools().find((t) => t.server === 'crash' && t.originalName === 'crash')!;
    const r = await client.callTool({ name: 'call_tool', arguments: { tool_name: crash.name, arguments: {} } });
    assert.equal(r.isError, true);
    assert.match(text(r), /crash/);
    const servers = await client.callTool({ name: 'list_servers', arguments: {} });
    const list = JSON.parse(text(servers)) as { servers: { name: string; state: string; summary: string }[] };
    assert.deepEqual(
      list.servers.map((s) => s.name),
      ['crash', 'everything', 'files', 'slow'],
    );
    assert.match(list.servers.find((s) => s.name === 'files')!.summary, /file|director/);
  });

  it('times out a slow call with an error result', async () => {
    // A short timeout for this call alone: every other call here must never race one.
    const settings = world.lens.settings();
    await world.lens.updateSettings({ ...settings, callTimeoutSeconds: 3 });
    try {
      const sleep = world.lens.tools().find((t) => t.server === 'slow' && t.originalName === 'sleep')!;
      const r = await client.callTool({
        name: 'call_tool',
        arguments: { tool_name: sleep.name, arguments: { ms: 30_000, steps: 1 } },
      });
      assert.equal(r.isError, true);
      assert.match(text(r), /timed out after 3 s/);
    } finally {
      await world.lens.updateSettings(settings);
    }
  });

  it('passes progress through and cancels the upstream call when the client aborts', async () => {
    const sleep = world.lens.tools().find((t) => t.server === 'slow' && t.originalName === 'sleep')!;
    const stats = world.lens.tools().find((t) => t.server === 'slow' && t.originalName === 'stats')!;
    const before = JSON.parse(
      text(await client.callTool({ name: 'call_tool', arguments: { tool_name: stats.name } })),
    ) as { cancelled: number };
    const abort = new AbortController();
    const progress: number[] = [];
    const call = client.callTool(
      { name: 'call_tool', arguments: { tool_name: sleep.name, arguments: { ms: 20_000, steps: 200 } } },
      undefined,
      {
        signal: abort.signal,
        onprogress: (p) => {
          progress.push(p.progress);
          abort.abort();
        },
      },
    );
    await assert.rejects(call);
    assert.ok(progress.length >= 1, 'progress notification reached the client');
    let cancelledSeen = false;
    const deadline = Date.now() + 8000;
    // Polls the upstream's own counter: the cancellation travels client → gateway → upstream.
    while (!cancelledSeen && Date.now() < deadline) {
      const now = JSON.parse(
        text(await client.callTool({ name: 'call_tool', arguments: { tool_name: stats.name } })),
      ) as { cancelled: number };
      cancelledSeen = now.cancelled > before.cancelled;
    }
    assert.ok(cancelledSeen, 'the slow upstream saw notifications/cancelled');
  });

  it('serves upstream prompts and resources under their prefixed names', async () => {
    const { prompts } = await client.listPrompts();
    const simple = prompts.find((p) =>
      world.lens
        .prompts()
        .some((lp) => lp.name === p.name && lp.server === 'everything' && lp.originalName === 'simple-prompt'),
    );
    assert.ok(simple, `no everything simple-prompt in ${prompts.map((p) => p.name).join(', ')}`);
    const got = await client.getPrompt({ name: simple.name, arguments: {} });
    assert.ok(got.messages.length > 0);
    const { resources } = await client.listResources();
    const first = resources.find((r) => r.uri.startsWith('mcp-lens://everything/'));
    assert.ok(first, 'everything resources are listed with mcp-lens:// URIs');
    const read = await client.readResource({ uri: first.uri });
    assert.ok(read.contents.length > 0);
    await assert.rejects(client.getPrompt({ name: 'no-such-prompt', arguments: {} }), /no-such-prompt/);
  });

  it('sends tools/list_changed when the pinned set changes, and pinned tools are callable directly', async () => {
    const c = await connect();
    let changed = 0;
    c.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed++;
    });
    try {
      assert.equal((await c.listTools()).tools.length, META_TOOL_NAMES.length);
      const sum = world.lens.tools().find((t) => t.originalName === 'get-sum')!;
      await world.lens.updateSettings({ ...world.lens.settings(), exposure: 'pinned', pinnedTools: [sum.name] });
      await until('tools/list_changed', () => changed > 0);
      const names = (await c.listTools()).tools.map((t) => t.name);
      assert.ok(names.includes(sum.name) && names.includes('find_tools'));
      const r = await c.callTool({ name: sum.name, arguments: { a: 1, b: 2 } });
      assert.match(text(r), /\b3\b/);
    } finally {
      await world.lens.updateSettings({ ...world.lens.settings(), exposure: 'search', pinnedTools: [] });
      await c.close();
    }
  });

  it('serves authenticated stats with baseline, exposed and find_tools figures', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/stats`, { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(res.status, 200);
    const stats = (await res.json()) as LensStats;
    assert.equal(stats.exposure, 'search');
    assert.ok(stats.tokens.baselineTokens > stats.tokens.exposedTokens && stats.tokens.exposedTokens > 0);
    assert.ok(stats.tokens.findToolsCalls >= 1 && stats.tokens.savedTokensTotal > 0);
    assert.deepEqual(
      stats.tokens.perServer.map((p) => p.server),
      ['crash', 'everything', 'files', 'slow'],
    );
    // The dashboard's per-server bars and the server list show the same figure.
    for (const p of stats.tokens.perServer)
      assert.equal(p.tokens, world.lens.servers().find((s) => s.name === p.server)?.tokens, p.server);
    assert.equal(stats.gateway?.url, url);
  });

  it('refuses missing or wrong tokens (401), foreign Origin and wrong Host (403), bad bodies', async () => {
    const init = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const post = (h: Record<string, string>, body = init) =>
      fetch(url, { method: 'POST', headers: { ...headers, ...h }, body });
    const missing = await post({});
    assert.equal(missing.status, 401);
    assert.match(((await missing.json()) as { error: { message: string } }).error.message, /Unauthorized/);
    assert.equal((await post({ authorization: 'Bearer nope' })).status, 401);
    const foreign = await post({ authorization: `Bearer ${TOKEN}`, origin: 'https://evil.example' });
    assert.equal(foreign.status, 403);
    assert.match(((await foreign.json()) as { error: { message: string } }).error.message, /origin/i);
    assert.equal((await post({ authorization: `Bearer ${TOKEN}`, origin: 'vscode-webview://abc' })).status, 403);
    assert.equal((await post({ authorization: `Bearer ${TOKEN}`, origin: `http://localhost:${port}` })).status, 200);
    // fetch sets Host itself; a raw request shows what a rebinding attack sends.
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path: '/mcp',
          method: 'POST',
          headers: { ...headers, host: `evil.example:${port}`, authorization: `Bearer ${TOKEN}` },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end(init);
    });
    assert.equal(status, 403);
    assert.equal((await post({ authorization: `Bearer ${TOKEN}` }, '{"jsonrpc":')).status, 400);
    assert.equal((await post({ authorization: `Bearer ${TOKEN}` }, 'x'.repeat(4 * 1024 * 1024 + 10))).status, 413);
    assert.equal((await post({ authorization: `Bearer ${TOKEN}`, 'mcp-session-id': 'nope' })).status, 404);
    assert.equal((await fetch(`http://127.0.0.1:${port}/stats`)).status, 401);
  });

  it('closes a session on DELETE', async () => {
    const c = await connect();
    const transport = c.transport as StreamableHTTPClientTransport;
    const before = http.sessionCount();
    await transport.terminateSession();
    assert.equal(http.sessionCount(), before - 1);
    await c.close();
  });
});

describe('gateway HTTP session expiry', () => {
  // Behaviour, not capacity: enough sessions that a sweep must close many at once, opened a
  // few at a time so a loaded 2-core machine never sees a burst it resets (1,000 at 100 at a
  // time failed with ECONNRESET under load). The capacity figures are in `npm run bench:load`.
  it('closes every abandoned session, and a closed session is gone for its client', async () => {
    const world = await startLens({});
    // More sessions than the product's cap (MAX_HTTP_SESSIONS): this is about expiry.
    const http = new GatewayHttpServer({
      lens: world.lens,
      token: TOKEN,
      log: silentLogger,
      sessionIdleMs: 1_000,
      maxSessions: 200,
    });
    try {
      const { url } = await http.start();
      const init = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
      });
      const headers = {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${TOKEN}`,
      };
      const ids = new Set<string>();
      for (let batch = 0; batch < 10; batch++) {
        await Promise.all(
          Array.from({ length: 20 }, async () => {
            const res = await fetch(url, { method: 'POST', headers, body: init });
            assert.equal(res.status, 200);
            const id = res.headers.get('mcp-session-id');
            assert.ok(id);
            ids.add(id);
            await res.text();
          }),
        );
      }
      assert.equal(ids.size, 200, 'every initialize opened its own session');
      await until('idle sessions expire', () => http.sessionCount() === 0, 30_000);
      assert.equal(http.gateway.sessionCount(), 0);
      const [first] = ids;
      const stale = await fetch(url, { method: 'POST', headers: { ...headers, 'mcp-session-id': first }, body: init });
      assert.equal(stale.status, 404);
      await stale.text();
    } finally {
      await http.close();
      await world.close();
    }
  });
});
