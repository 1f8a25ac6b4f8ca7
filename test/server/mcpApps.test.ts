/**
 * MCP Apps through MCP Lens, as an MCP Apps host meets them: a real SDK client that declares the
 * `io.modelcontextprotocol/ui` extension, in front of the npm app servers (server-basic-vanillajs,
 * server-map) and two instances of test/fixtures/servers/appServer.mjs (annotations, icons, CSP,
 * an app-only tool) that share one view URI. Each view is read by exactly the URI its tool names
 * and comes back as the server gives it; a view's calls by its server's own tool names reach that
 * server and no other; app-only tools are never the agent's; call_tool keeps a result's `_meta`.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, ClientCapabilities, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { RawServerEntry } from '../../protocol/settings';
import { ROOT, startHttpLens, type HttpLensWorld } from '../fixtures/gatewayLens';

const TOKEN = 'apps-' + Math.random().toString(36).slice(2).padEnd(24, '0');
const NM = join(ROOT, 'node_modules/@modelcontextprotocol');
const UI = { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } };

const stdio = (args: string[]): RawServerEntry => ({ type: 'stdio', command: process.execPath, args });
const SERVERS: Record<string, RawServerEntry> = {
  basic: stdio([join(NM, 'server-basic-vanillajs/dist/index.js'), '--stdio']),
  map: stdio([join(NM, 'server-map/dist/index.js'), '--stdio']),
  appA: stdio([join(ROOT, 'test/fixtures/servers/appServer.mjs'), '--label', 'A']),
  appB: stdio([join(ROOT, 'test/fixtures/servers/appServer.mjs'), '--label', 'B']),
};

async function client(url: string, capabilities: ClientCapabilities = {}): Promise<Client> {
  const c = new Client({ name: 'apps-host', version: '1.0.0' }, { capabilities });
  await c.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }),
  );
  return c;
}

async function direct(server: string, capabilities: ClientCapabilities = { extensions: UI }): Promise<Client> {
  const { command, args } = SERVERS[server] as { command: string; args: string[] };
  const c = new Client({ name: 'apps-direct', version: '1.0.0' }, { capabilities });
  await c.connect(new StdioClientTransport({ command, args, stderr: 'ignore' }));
  return c;
}

const text = (r: unknown) => (r as CallToolResult).content.map((c) => (c.type === 'text' ? c.text : '')).join('');
const visibility = (t: Tool | undefined) => (t?._meta?.ui as { visibility?: string[] } | undefined)?.visibility;

describe('MCP Apps through MCP Lens', () => {
  let world: HttpLensWorld;
  let host: Client;
  let plain: Client;
  const directs: Client[] = [];

  before(async () => {
    world = await startHttpLens(SERVERS, TOKEN, { exposure: 'all' });
    host = await client(world.url, { extensions: UI });
    plain = await client(world.url);
  });

  after(async () => {
    await Promise.all([host, plain, ...directs].map((c) => c?.close()));
    await world?.close();
  });

  it("lists the npm app servers' tools as they do, and reads each view by exactly the URI its tool names", async () => {
    const listed = (await host.listTools()).tools;
    for (const [server, name] of [
      ['basic', 'get-time'],
      ['map', 'show-map'],
    ] as const) {
      const upstream = await direct(server);
      directs.push(upstream);
      const mine = (await upstream.listTools()).tools.find((t) => t.name === name)!;
      const tool = listed.find((t) => t.name === `${server}_${name}`)!;
      assert.deepEqual({ ...tool, name }, mine, name);
      // The HTML, mime type and _meta the server gives, under the URI asked for.
      const uri = (tool._meta!.ui as { resourceUri: string }).resourceUri;
      assert.deepEqual(await host.readResource({ uri }), await upstream.readResource({ uri }), uri);
      const resource = (await host.listResources()).resources.find((r) => r.uri === uri);
      assert.equal(resource?.mimeType, 'text/html;profile=mcp-app', uri);
    }
    assert.equal(
      (listed.find((t) => t.name === 'basic_get-time')!._meta!.ui as { resourceUri: string }).resourceUri,
      'ui://get-time/mcp-app.html',
    );
    // The map's view carries its CSP on the content it reads (hosts look there first).
    const map = await host.readResource({ uri: 'ui://cesium-map/mcp-app.html' });
    assert.ok((map.contents[0]!._meta!.ui as { csp?: unknown }).csp);
  });

  it('gives two servers sharing a view URI one each, in their tools and resources; CSP, domain, border kept', async () => {
    const tools = (await host.listTools()).tools;
    const show = (server: string) => tools.find((t) => t.name === `${server}_show-counter`)!;
    const uriA = (show('appA')._meta!.ui as { resourceUri: string }).resourceUri;
    const uriB = (show('appB')._meta!.ui as { resourceUri: string }).resourceUri;
    assert.notEqual(uriA, uriB);
    assert.match(uriA, /^ui:\/\//);
    assert.equal(show('appA')._meta!['ui/resourceUri'], uriA, 'the deprecated key names the same view');
    // Everything else of the definition as the fixture lists it.
    const upstream = await direct('appA');
    directs.push(upstream);
    const mine = (await upstream.listTools()).tools.find((t) => t.name === 'show-counter')!;
    assert.deepEqual({ ...show('appA'), name: mine.name, _meta: mine._meta }, mine);
    assert.ok(show('appA').icons?.length && show('appA').annotations?.readOnlyHint && show('appA').outputSchema);
    // The fixture gives `weather` a view only to a client that declared the extension, as MCP Lens does.
    assert.match(
      String((tools.find((t) => t.name === 'appA_weather')!._meta?.ui as { resourceUri?: string })?.resourceUri),
      /^ui:\/\//,
    );
    const expected = await upstream.readResource({ uri: 'ui://fixture-app/view.html' });
    for (const [uri, label] of [
      [uriA, 'A'],
      [uriB, 'B'],
    ]) {
      const read = await host.readResource({ uri: uri! });
      assert.equal(read.contents[0]!.uri, uri);
      assert.match(String((read.contents[0] as { text?: string }).text), new RegExp(`fixture view ${label}`));
      assert.deepEqual(
        { ...read.contents[0], uri: undefined, text: undefined },
        {
          ...expected.contents[0],
          uri: undefined,
          text: undefined,
        },
      );
      const listed = (await host.listResources()).resources.find((r) => r.uri === uri)!;
      assert.deepEqual(listed._meta, expected.contents[0]!._meta);
    }
  });

  it("sends a view's calls by its server's own names to that server, and never guesses between two", async () => {
    const tools = (await host.listTools()).tools;
    // The host lets a view call what it lists, app-only and shown to no model.
    for (const name of ['get-time', 'show-map', 'bump-counter'])
      assert.deepEqual(visibility(tools.find((t) => t.name === name)), ['app'], name);
    const uriOf = (server: string) =>
      (tools.find((t) => t.name === `${server}_show-counter`)!._meta!.ui as { resourceUri: string }).resourceUri;
    // Each session is a host showing the views it read.
    const [first, second] = [await client(world.url, { extensions: UI }), await client(world.url, { extensions: UI })];
    try {
      assert.match(text(await first.callTool({ name: 'get-time', arguments: {} })), /^\d{4}-\d\d-\d\dT/);
      await first.readResource({ uri: uriOf('appB') });
      assert.match(text(await first.callTool({ name: 'bump-counter', arguments: {} })), /at B$/);
      await first.readResource({ uri: uriOf('appA') });
      const both = await first.callTool({ name: 'bump-counter', arguments: {} });
      assert.equal(both.isError, true);
      assert.match(text(both), /"appA_bump-counter" \(server "appA".*"appB_bump-counter" \(server "appB"/);
      await second.readResource({ uri: uriOf('appA') });
      assert.match(text(await second.callTool({ name: 'bump-counter', arguments: {} })), /at A$/);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  it('never offers an app-only tool to an agent: tools/list, find_tools, call_tool, run_code', async () => {
    for (const c of [host, plain]) {
      const names = (await c.listTools()).tools.map((t) => t.name);
      assert.ok(!names.some((n) => /bump/.test(n) && n !== 'bump-counter'), names.join());
    }
    assert.ok(!(await plain.listTools()).tools.some((t) => t.name === 'bump-counter'), 'no view aliases without apps');
    const found = await host.callTool({ name: 'find_tools', arguments: { query: 'add one to the counter bump' } });
    const matches = (found.structuredContent as { matches: { name: string }[] }).matches.map((m) => m.name);
    assert.ok(matches.length && !matches.some((n) => /bump/.test(n)), matches.join());
    const called = await host.callTool({ name: 'call_tool', arguments: { tool_name: 'appA_bump-counter' } });
    assert.equal(called.isError, true);
    assert.match(text(called), /view only/);
    const script = await host.callTool({
      name: 'run_code',
      arguments: { code: 'return await call_tool("appA_bump-counter", {});' },
    });
    assert.equal(script.isError, true);
    assert.match(text(script), /view only/);
  });

  it("forwards the host's UI extension to the upstreams that serve its session, and no one else's", async () => {
    // Each client of `serve --http` has its own connections to stdio servers (core/principal.ts).
    assert.match(text(await host.callTool({ name: 'appA_weather', arguments: {} })), /\(view\)$/);
    assert.match(text(await plain.callTool({ name: 'appA_weather', arguments: {} })), /\(text only\)$/);
  });

  it("get_tool_schema keeps a tool's icons and _meta", async () => {
    const schema = JSON.parse(
      text(await host.callTool({ name: 'get_tool_schema', arguments: { tool_name: 'appA_show-counter' } })),
    );
    assert.equal(schema.icons[0].mimeType, 'image/svg+xml');
    assert.match(schema._meta.ui.resourceUri, /^ui:\/\//);
  });

  it("search mode: call_tool keeps the upstream result's _meta, whole, projected or cut", async () => {
    await world.lens.updateSettings({ ...world.lens.settings(), exposure: 'search' });
    try {
      const names = (await host.listTools()).tools.map((t) => t.name);
      assert.ok(!names.includes('bump-counter') && !names.includes('appA_show-counter'), names.join());
      for (const extra of [{}, { select: 'count' }, { max_output_tokens: 100 }]) {
        const r = await host.callTool({
          name: 'call_tool',
          arguments: { tool_name: 'appA_show-counter', arguments: { start: 7 }, ...extra },
        });
        assert.deepEqual(r._meta, { 'fixture/view-instance': 'A-7' }, JSON.stringify(extra));
      }
    } finally {
      await world.lens.updateSettings({ ...world.lens.settings(), exposure: 'all' });
    }
  });
});

describe('MCP Apps and consent', () => {
  let world: HttpLensWorld;

  before(async () => {
    world = await startHttpLens({ appA: SERVERS.appA! }, TOKEN, { exposure: 'search', consent: 'notReadOnly' });
  });

  after(async () => world?.close());

  it("a view's own call is the user acting in the app: never asked about, while the agent's call_tool is", async () => {
    // No elicitation: a call that asked would be refused as one that cannot be asked.
    const host = await client(world.url, { extensions: UI });
    try {
      assert.match(text(await host.callTool({ name: 'bump-counter', arguments: {} })), /at A$/);
      const agent = await host.callTool({ name: 'call_tool', arguments: { tool_name: 'appA_weather', arguments: {} } });
      assert.equal(agent.isError, true);
      assert.match(text(agent), /"weather" on server "appA" did not run.*cannot show that question/);
    } finally {
      await host.close();
    }
  });
});
