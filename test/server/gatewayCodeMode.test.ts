/**
 * Code mode and result shaping through the real gateway over streamable HTTP, in front of a
 * real LensApp with real upstreams (server-everything, server-filesystem, server-memory and
 * the crash fixture): signatures in find_tools and get_tool_schema.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { silentLogger } from '../../server/src/core/logger';
import { GatewayHttpServer } from '../../server/src/gateway/http';
import { CRASH, EVERYTHING, MEMORY, filesystem, startLens, type LensWorld } from '../fixtures/gatewayLens';

const TOKEN = 'code-mode-' + Math.random().toString(36).slice(2);

function text(r: unknown): string {
  return ((r as CallToolResult).content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

describe('code mode through the gateway', () => {
  let world: LensWorld;
  let http: GatewayHttpServer;
  let url: string;
  let client: Client;
  let files: string;
  const name = (server: string, original: string) => world.lens.tools().find((t) => t.server === server && t.originalName === original)!.name;

  async function connect(): Promise<Client> {
    const c = new Client({ name: 'code-mode-test', version: '1.0.0' });
    await c.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }));
    return c;
  }

  before(async () => {
    files = mkdtempSync(join(tmpdir(), 'mcp-lens-code-files-'));
    for (const [f, v] of [['a.txt', 'total=12'], ['b.txt', 'total=30'], ['c.txt', 'total=100']]) writeFileSync(join(files, f!), v!);
    world = await startLens({ everything: EVERYTHING, files: filesystem(files), memory: { ...MEMORY, env: { MEMORY_FILE_PATH: join(files, 'memory.jsonl') } }, crash: CRASH }, { callTimeoutSeconds: 10 });
    http = new GatewayHttpServer({ lens: world.lens, token: TOKEN, log: silentLogger, sessionIdleMs: 60_000 });
    ({ url } = await http.start());
    client = await connect();
  });

  after(async () => {
    await client?.close();
    await http?.close();
    await world?.close();
    rmSync(files, { recursive: true, force: true });
  });

  it('find_tools gives every match its input as a signature on request; get_tool_schema gives the same', async () => {
    const found = await client.callTool({ name: 'find_tools', arguments: { query: 'add two numbers', input_format: 'signature', limit: 5 } });
    assert.ok(!found.isError, text(found));
    const matches = (found.structuredContent as { matches: { name: string; input?: string; input_schema?: unknown }[] }).matches;
    assert.equal(matches.length, 5);
    for (const m of matches) {
      assert.equal(typeof m.input, 'string', `${m.name} has a signature`);
      assert.equal(m.input_schema, undefined);
    }
    const sum = matches.find((m) => m.name === name('everything', 'get-sum'));
    assert.ok(sum, 'get-sum found');
    assert.match(sum.input!, /^\{ a: number \/\* .* \*\/; b: number \/\* .* \*\/ \}$/);
    const schema = await client.callTool({ name: 'get_tool_schema', arguments: { tool_name: sum.name } });
    const def = JSON.parse(text(schema)) as { signature: string };
    assert.equal(def.signature, `${sum.name}(args: ${sum.input}): Promise<unknown>`);
    const bad = await client.callTool({ name: 'find_tools', arguments: { query: 'x', input_format: 'yaml' } });
    assert.equal(bad.isError, true);
    assert.match(text(bad), /input_format/);
  });

  it('select projects a JSON result with JMESPath; a bad expression is refused before the call', async () => {
    const create = await client.callTool({
      name: 'call_tool',
      arguments: { tool_name: name('memory', 'create_entities'), arguments: { entities: [{ name: 'alpha', entityType: 'probe', observations: ['one', 'two'] }, { name: 'beta', entityType: 'probe', observations: [] }] } },
    });
    assert.ok(!create.isError, text(create));
    const graph = await client.callTool({ name: 'call_tool', arguments: { tool_name: name('memory', 'read_graph'), select: "entities[?entityType=='probe'].name" } });
    assert.ok(!graph.isError, text(graph));
    assert.deepEqual(JSON.parse(text(graph)), ['alpha', 'beta']);
    const bad = await client.callTool({ name: 'call_tool', arguments: { tool_name: name('memory', 'create_entities'), arguments: { entities: [{ name: 'never', entityType: 'x', observations: [] }] }, select: 'entities[.' } });
    assert.equal(bad.isError, true);
    assert.match(text(bad), /not a valid JMESPath expression/);
    const names = await client.callTool({ name: 'call_tool', arguments: { tool_name: name('memory', 'read_graph'), select: 'entities[].name' } });
    assert.ok(!JSON.parse(text(names)).includes('never'), 'the refused call never ran');
    const plain = await client.callTool({ name: 'call_tool', arguments: { tool_name: name('everything', 'get-sum'), arguments: { a: 1, b: 2 }, select: 'sum' } });
    assert.match(text(plain), /The sum of 1 and 2 is 3\.[\s\S]*select was not applied: the result is plain text/);
  });

  it('cuts a long result to max_output_tokens, keeps it whole as a session resource and points to it', async () => {
    const big = Array.from({ length: 4000 }, (_, i) => `line ${i}: ${'lorem ipsum dolor sit amet '.repeat(2)}`).join('\n');
    writeFileSync(join(files, 'big.txt'), big);
    const r = await client.callTool({ name: 'call_tool', arguments: { tool_name: name('files', 'read_text_file'), arguments: { path: join(files, 'big.txt') }, max_output_tokens: 300 } });
    assert.ok(!r.isError, text(r));
    assert.equal(r.structuredContent, undefined, 'a cut result carries no second full copy');
    const note = (r.content as { text: string }[]).at(-1)!.text;
    const m = /Output cut at 300 of ([\d,]+) tokens \((\d+)% cut, max_output_tokens 300\)\. The whole result is kept for this session as (mcp-lens:\/\/results\/[0-9a-f]+)/.exec(note);
    assert.ok(m, note);
    assert.ok(big.startsWith((r.content as { text: string }[])[0]!.text.slice(0, 200)));
    const uri = m[3]!;
    const listed = await client.listResources();
    assert.ok(listed.resources.some((x) => x.uri === uri), 'listed in resources/list');
    const read = await client.readResource({ uri });
    assert.equal((read.contents[0] as { text: string }).text, big, 'nothing lost');
    const other = await connect();
    try {
      await assert.rejects(other.readResource({ uri }), /not kept for this session/);
      assert.ok(!(await other.listResources()).resources.some((x) => x.uri === uri));
    } finally {
      await other.close();
    }
    const stats = http.gateway.stats();
    assert.ok(stats.tokens.keptResults!.some((k) => k.uri === uri && k.tool === name('files', 'read_text_file')), 'visible in the dashboard stats');
    assert.ok(stats.tokens.shaping!.savedTokens > 1000);
    const under = await client.callTool({ name: 'call_tool', arguments: { tool_name: name('files', 'read_text_file'), arguments: { path: join(files, 'a.txt') } } });
    assert.equal(text(under), 'total=12', 'a small result comes back untouched');
  });
});
