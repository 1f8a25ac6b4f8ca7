/**
 * The dashboard mounted on the real stack, as `mcp-lens serve --http` mounts it: LensApp over
 * a workspace config (server-everything, server-memory), GatewayHttpServer owning /mcp, the
 * dashboard routes on every other path. A find_tools call over MCP must show up in the
 * dashboard's savings, and a search from the page must carry schemas for "Try it".
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { LensStats, SearchResponse } from '../../protocol/model';
import { LensApp } from '../../server/src/app/lensApp';
import { silentLogger } from '../../server/src/core/logger';
import { createDashboardRoutes, type DashboardRoutes } from '../../server/src/gateway/dashboard/routes';
import { GatewayHttpServer } from '../../server/src/gateway/http';
import { inMemoryLensOptions } from '../../bench/src/inMemoryLens';

const ROOT = resolve(__dirname, '../..');

describe('dashboard on the real gateway', () => {
  let dir: string;
  let lens: LensApp;
  let http: GatewayHttpServer;
  let routes: DashboardRoutes;
  let origin: string;
  let cookie: string;
  const token = 'dashboard-gateway-test-token-0123456789';

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-lens-dash-gw-'));
    mkdirSync(join(dir, '.vscode'));
    const mod = (p: string) => join(ROOT, 'node_modules/@modelcontextprotocol', p);
    writeFileSync(
      join(dir, '.vscode/mcp.json'),
      JSON.stringify({
        servers: {
          everything: {
            type: 'stdio',
            command: process.execPath,
            args: [mod('server-everything/dist/index.js'), 'stdio'],
          },
          memory: {
            type: 'stdio',
            command: process.execPath,
            args: [mod('server-memory/dist/index.js')],
            env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') },
          },
        },
      }),
    );
    lens = await LensApp.start(inMemoryLensOptions(dir));
    routes = createDashboardRoutes({
      lens,
      stats: () => http.stats(),
      token,
      staticDir: join(ROOT, 'dist/webview'),
      log: silentLogger,
    });
    http = new GatewayHttpServer({ lens, token, log: silentLogger, routes });
    const { port } = await http.start();
    origin = `http://127.0.0.1:${port}`;
    const res = await fetch(`${origin}/?token=${token}`, { redirect: 'manual' });
    assert.equal(res.status, 303);
    cookie = (res.headers.get('set-cookie') ?? '').split(';')[0]!;
  });
  after(async () => {
    routes?.close();
    await http?.close();
    await lens?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const post = async <T>(method: string, body: unknown): Promise<T> => {
    const res = await fetch(`${origin}/api/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, origin },
      body: JSON.stringify(body),
    });
    assert.equal(res.status, 200, `${method}: ${res.status}`);
    return (await res.json()) as T;
  };

  it('keeps /mcp behind the bearer token and the dashboard behind its cookie', async () => {
    assert.equal((await fetch(`${origin}/mcp`, { method: 'POST', headers: { cookie }, body: '{}' })).status, 401);
    assert.equal((await fetch(`${origin}/`)).status, 401);
    assert.equal((await fetch(`${origin}/nothing-here`, { headers: { cookie } })).status, 404);
  });

  it('shows savings from a real find_tools call and searches with schemas', async () => {
    const before = await post<LensStats>('stats', {});
    assert.equal(before.tools, lens.tools().length);
    const client = new Client({ name: 'dashboard-test', version: '0.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    await client.callTool({ name: 'find_tools', arguments: { query: 'add two numbers' } });
    await client.close();
    const afterCall = await post<LensStats>('stats', {});
    assert.equal(afterCall.tokens.findToolsCalls, before.tokens.findToolsCalls + 1);
    assert.ok(afterCall.tokens.history.length > before.tokens.history.length);
    assert.ok(afterCall.tokens.perServer.some((s) => s.server === 'memory' && s.tokens > 0));

    const search = await post<SearchResponse>('search', { query: 'sum of two numbers' });
    const sum = search.hits.find((h) => h.originalName === 'get-sum');
    assert.ok(sum, JSON.stringify(search.hits.map((h) => h.name)));
    assert.deepEqual((sum.inputSchema as { required?: string[] }).required?.sort(), ['a', 'b']);
  });
});
