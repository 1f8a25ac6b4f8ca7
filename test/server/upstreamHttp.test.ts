/**
 * The upstream pool over HTTP: an SDK server on 127.0.0.1:0 started in the test, reached over
 * streamable HTTP, over SSE, and with type 'http' falling back to SSE.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { UpstreamCallError, UpstreamPool } from '../../server/src/adapters/upstream/pool';
import { lineLogger } from '../../server/src/core/logger';
import { startHttpFixture, type HttpFixture } from '../fixtures/servers/httpServer';
import { remoteConfig, statusOf } from '../fixtures/servers/poolWorld';

const text = (r: { content?: unknown }) =>
  (r.content as { type: string; text?: string }[]).map((c) => c.text ?? '').join('');

describe('upstream pool: remote servers', () => {
  let streamable: HttpFixture;
  let sse: HttpFixture;
  let pool: UpstreamPool;
  const logged: string[] = [];

  before(async () => {
    streamable = await startHttpFixture('streamable');
    sse = await startHttpFixture('sse');
    pool = new UpstreamPool({
      log: lineLogger((_, l) => logged.push(l), 'trace'),
      connectTimeoutMs: 5000,
      requestTimeoutMs: 5000,
    });
    await pool.setServers([
      remoteConfig('streamable', 'http', streamable.url, { 'X-Api-Key': 'secret-streamable-value' }),
      remoteConfig('legacy', 'sse', sse.url, { 'X-Api-Key': 'secret-sse-value' }),
      remoteConfig('fallback', 'http', sse.url),
      remoteConfig('nowhere', 'http', 'http://127.0.0.1:9/mcp'),
    ]);
  });

  after(async () => {
    await pool.close();
    await Promise.all([streamable.close(), sse.close()]);
  });

  test('streamable HTTP: listed and called, headers sent', async () => {
    assert.equal(statusOf(pool, 'streamable').state, 'ready');
    assert.deepEqual(
      pool
        .tools()
        .filter((t) => t.server === 'streamable')
        .map((t) => t.name),
      ['echo', 'whoami'],
    );
    assert.equal(
      text(await pool.callTool('streamable', 'echo', { text: 'over http' }, { timeoutMs: 5000 })),
      'echo: over http',
    );
    assert.equal(
      text(await pool.callTool('streamable', 'whoami', { header: 'x-api-key' }, { timeoutMs: 5000 })),
      'secret-streamable-value',
    );
  });

  test('SSE: listed and called, headers sent on the stream and the posts', async () => {
    assert.equal(statusOf(pool, 'legacy').state, 'ready');
    assert.equal(
      text(await pool.callTool('legacy', 'echo', { text: 'over sse' }, { timeoutMs: 5000 })),
      'echo: over sse',
    );
    assert.equal(
      text(await pool.callTool('legacy', 'whoami', { header: 'x-api-key' }, { timeoutMs: 5000 })),
      'secret-sse-value',
    );
  });

  test("type 'http' falls back to SSE when streamable HTTP is refused", async () => {
    const s = statusOf(pool, 'fallback');
    assert.equal(s.state, 'ready', s.error);
    assert.equal(
      text(await pool.callTool('fallback', 'echo', { text: 'fell back' }, { timeoutMs: 5000 })),
      'echo: fell back',
    );
  });

  test('an unreachable server is an error naming both attempts; nothing secret is logged', async () => {
    const s = statusOf(pool, 'nowhere');
    assert.equal(s.state, 'error');
    assert.match(s.error ?? '', /streamable HTTP: .*; SSE: /);
    await assert.rejects(
      pool.callTool('nowhere', 'echo', {}, { timeoutMs: 1000 }),
      (e: unknown) => e instanceof UpstreamCallError && e.kind === 'not-ready',
    );
    assert.ok(!logged.some((l) => l.includes('secret-')), 'header values never logged');
  });
});
