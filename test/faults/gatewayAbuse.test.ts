/**
 * Abuse of the HTTP gateway: malformed JSON-RPC, unknown methods, odd HTTP methods (the token,
 * Host, Origin, bad-JSON and oversize refusals are in test/server/gatewayHttp.test.ts);
 * exclusion as a security boundary (an excluded tool looks exactly like one that does not
 * exist, through every door); and 1,000 abandoned sessions giving their memory back.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sanitizeSettings } from '../../protocol/settings';
import { EVERYTHING, ROOT } from '../fixtures/gatewayLens';
import { startGatewayWorld, text, type GatewayWorld } from './faultWorld';

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'abuser', version: '1' } },
};
const ACCEPT = 'application/json, text/event-stream';

interface Raw {
  status: number;
  body: string;
}

describe('gateway abuse', () => {
  let g: GatewayWorld;
  let session: string;

  async function raw(method: string, body: string | undefined, headers: Record<string, string> = {}): Promise<Raw> {
    const init: RequestInit = {
      method,
      headers: { 'content-type': 'application/json', accept: ACCEPT, authorization: `Bearer ${g.token}`, ...headers },
    };
    if (body !== undefined) init.body = body;
    const res = await fetch(g.url, init);
    return { status: res.status, body: await res.text() };
  }
  const inSession = (body: unknown) =>
    raw('POST', typeof body === 'string' ? body : JSON.stringify(body), { 'mcp-session-id': session });

  before(async () => {
    g = await startGatewayWorld(
      { everything: EVERYTHING },
      { exclude: ['everything/get-env', 'everything/*-long-running-*'], exposure: 'all' },
    );
    const res = await fetch(g.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: ACCEPT, authorization: `Bearer ${g.token}` },
      body: JSON.stringify(INIT),
    });
    session = res.headers.get('mcp-session-id')!;
    await res.text();
    await inSession({ jsonrpc: '2.0', method: 'notifications/initialized' });
  });
  after(() => g?.close());

  it('refuses malformed JSON-RPC with protocol errors and keeps serving', async () => {
    const cases: [string, unknown, RegExp][] = [
      ['wrong jsonrpc version', { jsonrpc: '1.0', id: 5, method: 'tools/list' }, /"error"/],
      ['a batch of garbage', [1, 'two', { three: 3 }, null], /"error"/],
      ['an empty batch', [], /^$|"error"/],
      ['a bare number', 42, /"error"/],
      ['null', null, /"error"/],
      [
        'a method that does not exist',
        { jsonrpc: '2.0', id: 6, method: 'tools/explode', params: {} },
        /-32601|Method not found/,
      ],
      ['params of the wrong type', { jsonrpc: '2.0', id: 7, method: 'tools/call', params: 'find_tools' }, /"error"/],
    ];
    for (const [what, body, expected] of cases) {
      const r = await inSession(body);
      assert.ok(r.status >= 200 && r.status < 500, `${what}: status ${r.status}`);
      assert.match(r.body, expected, `${what}: ${r.body.slice(0, 200)}`);
    }
    await g.healthy();
  });

  it('answers odd HTTP requests with 4xx and a reason', async () => {
    assert.equal((await raw('PUT', '{}')).status, 405);
    assert.equal((await raw('GET', undefined)).status, 400, 'GET without a session id');
    assert.equal((await raw('DELETE', undefined, { 'mcp-session-id': 'no-such-session' })).status, 404);
    const noInit = await raw('POST', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
    assert.equal(noInit.status, 400);
    assert.match(noInit.body, /Open a session with initialize/);
    const notFound = await fetch(new URL('/admin', g.url), { headers: { authorization: `Bearer ${g.token}` } });
    assert.equal(notFound.status, 404);
    const unauthorizedBig = await fetch(g.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: 'x'.repeat(5 * 1024 * 1024),
    });
    assert.equal(unauthorizedBig.status, 401, 'the token is checked before the body is read');
    await g.healthy();
  });

  it('an excluded tool is not listed, not found, and looks exactly like an unknown tool to every door', async () => {
    const excluded = 'everything_get-env';
    const { tools } = await g.client.listTools();
    assert.ok(
      tools.length > 4 &&
        !tools.some((t) => t.name === excluded || t.name === 'everything_trigger-long-running-operation'),
      'not in tools/list (all mode)',
    );
    const found = await g.call('find_tools', { query: 'environment variables get-env env', limit: 50 });
    assert.ok(!text(found).includes(excluded), 'not in find_tools');
    assert.ok(!g.world.lens.tools().some((t) => t.originalName === 'get-env'), 'not in the catalog');
    const unknownShape = (name: string) =>
      new RegExp(
        `^Unknown tool "${name}"\\.( Did you mean: [^?]*\\?| Use find_tools to search for the right tool\\.)$`,
      );
    const doors = [
      ['call_tool', await g.call('call_tool', { tool_name: excluded, arguments: {} })],
      ['direct call', await g.call(excluded, {})],
      ['get_tool_schema', await g.call('get_tool_schema', { tool_name: excluded })],
      ['call_tool by key', await g.call('call_tool', { tool_name: 'everything/get-env', arguments: {} })],
    ] as const;
    for (const [door, r] of doors) {
      assert.equal(r.isError, true, door);
      const name = door === 'call_tool by key' ? 'everything/get-env' : excluded;
      assert.match(text(r), unknownShape(name), `${door}: ${text(r)}`);
      assert.ok(
        !text(r).replace(`"${name}"`, '').includes('get-env'),
        `${door} suggests the excluded tool: ${text(r)}`,
      );
    }
    // A name that never existed gets the same answer, word for word apart from the name.
    const never = await g.call('call_tool', { tool_name: 'everything_get-enx', arguments: {} });
    assert.match(text(never), unknownShape('everything_get-enx'));
  });

  it('pinning an excluded tool does not list it', async () => {
    const lens = g.world.lens;
    await lens.updateSettings(
      sanitizeSettings({
        ...lens.settings(),
        exposure: 'pinned',
        pinnedTools: ['everything_get-env', 'everything/get-env', 'everything_echo'],
      }),
    );
    const { tools } = await g.client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name).filter((n) => n.startsWith('everything')),
      ['everything_echo'],
    );
  });

  it('1,000 abandoned sessions are closed and their memory comes back (measured in a child with --expose-gc)', (t) => {
    const child = spawnSync(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', join(__dirname, 'sessionMemory.child.ts')],
      {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 90_000,
        env: { ...process.env, SESSIONS: '1000', IDLE_MS: '1000' },
      },
    );
    assert.equal(child.status, 0, child.stderr);
    const m = JSON.parse(child.stdout.trim()) as Record<
      'start' | 'open' | 'expired',
      { heapMb: number; rssMb: number; sessions?: number }
    >;
    t.diagnostic(
      `heapUsed/RSS MB: start ${m.start.heapMb}/${m.start.rssMb}, 1,000 open ${m.open.heapMb}/${m.open.rssMb}, after expiry+GC ${m.expired.heapMb}/${m.expired.rssMb}`,
    );
    assert.equal(m.open.sessions, 1000, 'all 1,000 were open at once');
    assert.ok(m.open.heapMb - m.start.heapMb > 5, 'the sessions did take memory (the measurement can see them)');
    assert.ok(m.expired.heapMb - m.start.heapMb < 8, `heap kept ${m.expired.heapMb - m.start.heapMb} MB after expiry`);
  });
});
