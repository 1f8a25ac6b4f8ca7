/**
 * The dashboard's HTTP routes without a browser: the token → cookie exchange, 401 for
 * everything without it, CSRF refusal, the API over a Lens on real upstreams, and the
 * server-sent state event.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { SearchResponse, ToolCallOutcome, UsageStats } from '../../protocol/model';
import type { DashboardEvents } from '../../protocol/webviewProtocol';
import { startDashboardWorld, type DashboardWorld } from '../fixtures/lens/dashboardWorld';

describe('dashboard HTTP routes', () => {
  let world: DashboardWorld;
  let cookie: string;

  before(async () => {
    world = await startDashboardWorld();
    const res = await fetch(world.dashboardUrl, { redirect: 'manual' });
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), '/');
    const setCookie = res.headers.get('set-cookie') ?? '';
    assert.match(setCookie, /HttpOnly/);
    assert.match(setCookie, /SameSite=Strict/);
    assert.match(setCookie, /Path=\//);
    assert.ok(!setCookie.includes(world.token), 'the cookie must not carry the bearer token itself');
    cookie = setCookie.split(';')[0]!;
  });
  after(async () => world?.close());

  const post = (method: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${world.origin}/api/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, origin: world.origin, ...headers },
      body: JSON.stringify(body),
    });

  it('answers 401 with no data on every dashboard route without the cookie', async () => {
    for (const path of ['/', '/dashboard.js', '/api/events']) {
      const res = await fetch(world.origin + path);
      assert.equal(res.status, 401, path);
      const text = await res.text();
      assert.ok(!text.includes('everything') && !text.includes('<script'), `${path} leaks data: ${text}`);
    }
    const api = await fetch(`${world.origin}/api/listServers`, {
      method: 'POST',
      headers: { origin: world.origin },
      body: '{}',
    });
    assert.equal(api.status, 401);
    const wrong = await fetch(`${world.origin}/?token=${'0'.repeat(world.token.length)}`, { redirect: 'manual' });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.headers.get('set-cookie'), null);
  });

  it('serves the page and bundle with the cookie, under a CSP without unsafe-inline', async () => {
    const page = await fetch(`${world.origin}/`, { headers: { cookie } });
    assert.equal(page.status, 200);
    const csp = page.headers.get('content-security-policy') ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'self'/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.ok(!csp.includes('unsafe-inline'));
    assert.match(await page.text(), /<script src="\/dashboard.js"/);
    const js = await fetch(`${world.origin}/dashboard.js`, { headers: { cookie } });
    assert.equal(js.status, 200);
    assert.match(js.headers.get('content-type') ?? '', /javascript/);
  });

  it('refuses POSTs without a same-origin Origin header', async () => {
    assert.equal((await post('listServers', {}, { origin: 'http://evil.example' })).status, 403);
    const noOrigin = await fetch(`${world.origin}/api/listServers`, {
      method: 'POST',
      headers: { cookie },
      body: '{}',
    });
    assert.equal(noOrigin.status, 403);
  });

  it('searches, calls a real tool and rejects bad params', async () => {
    const search = (await (await post('search', { query: 'sum of two numbers' })).json()) as SearchResponse;
    assert.ok(
      search.hits.some((h) => h.originalName === 'get-sum'),
      JSON.stringify(search.hits.map((h) => h.name)),
    );
    const sum = search.hits.find((h) => h.originalName === 'get-sum')!;
    const call = (await (
      await post('callTool', { name: sum.name, arguments: { a: 2, b: 3 } })
    ).json()) as ToolCallOutcome;
    assert.equal(call.isError, false);
    assert.match(JSON.stringify(call.content), /The sum of 2 and 3 is 5/);
    assert.equal((await post('callTool', { name: sum.name, arguments: [1] })).status, 400);
    assert.equal((await post('search', { query: 42 })).status, 400);
    assert.equal((await post('noSuchMethod', {})).status, 404);
    // The call above went through the real Lens, so usage learning recorded it.
    const usage = (await (await post('usage', {})).json()) as UsageStats;
    assert.equal(usage.enabled, true);
    assert.ok(
      usage.topTools.some((t) => t.name === sum.name && t.calls >= 1),
      JSON.stringify(usage.topTools),
    );
  });

  it('pushes the state over server-sent events', async () => {
    const controller = new AbortController();
    const res = await fetch(`${world.origin}/api/events`, { headers: { cookie }, signal: controller.signal });
    assert.match(res.headers.get('content-type') ?? '', /text\/event-stream/);
    const reader = res.body!.getReader();
    let text = '';
    while (!/event: state\ndata: .*\n\n/.test(text)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += Buffer.from(value).toString('utf8');
    }
    controller.abort();
    const data = JSON.parse(/event: state\ndata: (.*)\n\n/.exec(text)![1]!) as DashboardEvents['state'];
    assert.deepEqual(data.servers.map((s) => s.name).sort(), ['everything', 'hostile', 'memory']);
    assert.ok(data.stats.tokens.baselineTokens > data.stats.tokens.exposedTokens);
  });
});
