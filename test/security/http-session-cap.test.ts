/**
 * A client that opened HTTP sessions without end grew the gateway without bound (issue #23): an
 * abandoned session lives until it has been idle 30 minutes, and nothing capped how many there
 * were. Now one gateway serves at most MAX_HTTP_SESSIONS (64) at once; past that an initialize
 * is answered 503 with a JSON-RPC error naming the limit and what to do, sessions already open
 * go on working, and closing one makes room.
 *
 * The real CLI (`serve --http`), sessions opened with plain initialize requests.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { silentLogger } from '../../server/src/core/logger';
import { GatewayHttpServer, MAX_HTTP_SESSIONS } from '../../server/src/gateway/http';
import { startLens } from '../fixtures/gatewayLens';
import { EVERYTHING, hostileWorkspace, killStarted, mcpJson, serveHttp, type ServedGateway } from './hostileWorkspace';

const ws = hostileWorkspace({ '.vscode/mcp.json': mcpJson({ everything: EVERYTHING }) });
let g: ServedGateway;
before(async () => {
  g = await serveHttp(ws);
});
after(async () => {
  await g?.close().catch(() => killStarted());
  ws.close();
});

const headers = () => ({
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  authorization: `Bearer ${g?.token}`,
});
const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'session-flood', version: '1' } },
});

async function initialize(
  url = g.url,
  token = g.token,
): Promise<{ status: number; id: string | null; body: string; retryAfter: string | null }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { ...headers(), authorization: `Bearer ${token}` },
    body: INITIALIZE,
  });
  return {
    status: res.status,
    id: res.headers.get('mcp-session-id'),
    body: await res.text(),
    retryAfter: res.headers.get('retry-after'),
  };
}

test(`past ${MAX_HTTP_SESSIONS} sessions an initialize gets 503 naming the limit; open sessions work; closing one makes room`, async () => {
  const ids: string[] = [];
  for (let i = 0; i < MAX_HTTP_SESSIONS; i++) {
    const r = await initialize();
    assert.equal(r.status, 200, `session ${i + 1}: ${r.body}`);
    ids.push(r.id!);
  }
  const refused = await initialize();
  assert.equal(refused.status, 503, refused.body);
  assert.equal(refused.id, null);
  assert.equal(refused.retryAfter, '60');
  const error = JSON.parse(refused.body) as { jsonrpc: string; error: { code: number; message: string } };
  assert.equal(error.jsonrpc, '2.0');
  assert.match(error.error.message, new RegExp(`MCP Lens serves at most ${MAX_HTTP_SESSIONS} sessions at once`));
  assert.match(error.error.message, /DELETE \/mcp/);

  const list = await fetch(g.url, {
    method: 'POST',
    headers: { ...headers(), 'mcp-session-id': ids[0]!, 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
  });
  assert.equal(list.status, 200, 'a session already open goes on');
  assert.match(await list.text(), /find_tools/);

  const closed = await fetch(g.url, { method: 'DELETE', headers: { ...headers(), 'mcp-session-id': ids.pop()! } });
  assert.equal(closed.status, 200);
  await closed.text();
  const next = await initialize();
  assert.equal(next.status, 200, next.body);
});

test('at the cap, sessions idle for longer than the idle time are closed to make room, at once', async () => {
  const world = await startLens({});
  let clock = 0;
  const http = new GatewayHttpServer({
    lens: world.lens,
    token: 'cap-token',
    log: silentLogger,
    sessionIdleMs: 60_000,
    now: () => clock,
    maxSessions: 3,
  });
  try {
    const { url } = await http.start();
    for (let i = 0; i < 3; i++) assert.equal((await initialize(url, 'cap-token')).status, 200);
    assert.equal((await initialize(url, 'cap-token')).status, 503);
    clock += 60_001; // all three are now idle past the idle time; the sweep has not run yet
    assert.equal((await initialize(url, 'cap-token')).status, 200);
    assert.equal(http.sessionCount(), 1);
  } finally {
    await http.close();
    await world.close();
  }
});
