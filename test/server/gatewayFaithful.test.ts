/**
 * Nothing is lost through the gateway: a tool's definition (title, output schema, annotations,
 * icons, _meta) and its results (every content type, structuredContent, resource links,
 * annotations, _meta, errors) reach a client of MCP Lens as they reach a client of the upstream
 * itself; prompts and resources keep their fields too. And call_tool's `select` reaches into a
 * JSON file read through the real filesystem server, which wraps the file's text in
 * structuredContent.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { filesystem, startHttpLens, type HttpLensWorld } from '../fixtures/gatewayLens';
import { startConformanceServer, type ConformanceServer } from '../fixtures/servers/conformance/http';

const TOKEN = 'faithful-' + Math.random().toString(36).slice(2);

describe('nothing lost through the gateway', () => {
  let upstream: ConformanceServer;
  let world: HttpLensWorld;
  let viaLens: Client;
  let direct: Client;
  let dir: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-lens-faithful-'));
    writeFileSync(
      join(dir, 'data.json'),
      JSON.stringify({ items: [{ name: 'zero' }, { name: 'one' }, { name: 'two' }, { name: 'three' }] }, null, 2),
    );
    upstream = await startConformanceServer();
    world = await startHttpLens({ conf: { type: 'http', url: upstream.url }, files: filesystem(dir) }, TOKEN, {
      exposure: 'all',
    });
    viaLens = new Client({ name: 'faithful', version: '1.0.0' });
    await viaLens.connect(
      new StreamableHTTPClientTransport(new URL(world.url), {
        requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
      }),
    );
    direct = new Client({ name: 'faithful-direct', version: '1.0.0' });
    await direct.connect(new StreamableHTTPClientTransport(new URL(upstream.url)));
  });

  after(async () => {
    await viaLens?.close();
    await direct?.close();
    await world?.close();
    await upstream?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists a tool with its title, output schema, annotations, icons and _meta', async () => {
    const mine = (await direct.listTools()).tools.find((t) => t.name === 'test_structured')!;
    const listed = (await viaLens.listTools()).tools.find((t) => t.name === 'conf_test_structured')!;
    assert.deepEqual({ ...listed, name: mine.name }, mine);
  });

  it('passes every content type, structuredContent, resource links, annotations, _meta and errors unchanged', async () => {
    const tools = [
      'test_structured',
      'test_multiple_content_types',
      'test_image_content',
      'test_audio_content',
      'test_embedded_resource',
      'test_error_handling',
    ];
    for (const tool of tools) {
      const expected = await direct.callTool({ name: tool, arguments: {} });
      const got = await viaLens.callTool({ name: `conf_${tool}`, arguments: {} });
      assert.deepEqual(got, expected, tool);
    }
  });

  it('keeps the fields prompts, resources and templates are listed with', async () => {
    const prompt = (await viaLens.listPrompts()).prompts.find((p) => p.name === 'conf_test_prompt_with_arguments')!;
    assert.deepEqual(
      prompt.arguments?.map((a) => a.name),
      ['arg1', 'arg2'],
    );
    const resource = (await viaLens.listResources()).resources.find((r) => r.name === 'conf: static-binary')!;
    assert.equal(resource.mimeType, 'image/png');
    // As read directly, under the URI it was read by (a client matches what it read to what it asked for).
    const read = await viaLens.readResource({ uri: resource.uri });
    const mine = await direct.readResource({ uri: 'test://static-binary' });
    assert.deepEqual(read, { ...mine, contents: mine.contents.map((c) => ({ ...c, uri: resource.uri })) });
  });

  it('select reaches into the JSON file the filesystem server wraps as structuredContent text', async () => {
    const r = (await viaLens.callTool({
      name: 'call_tool',
      arguments: {
        tool_name: 'files_read_text_file',
        arguments: { path: join(dir, 'data.json') },
        select: 'items[3].name',
      },
    })) as CallToolResult;
    assert.ok(!r.isError, JSON.stringify(r));
    assert.equal(JSON.parse((r.content[0] as { text: string }).text), 'three');
  });
});
