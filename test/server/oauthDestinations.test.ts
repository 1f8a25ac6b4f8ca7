/**
 * Requests only where the user pointed (issue 31): an approved HTTP upstream answering 401 with
 * metadata that names another local port made MCP Lens send 16 GETs there before any sign-in was
 * asked for. Real HTTP servers on 127.0.0.1 count the requests each receives:
 * - a 401 sends nothing anywhere: the server just needs sign-in;
 * - signing in where the metadata names a cloud metadata address is refused before any
 *   connection, the address named in the error and in the server's status;
 * - for a server that is not on loopback, OAuth requests go to no loopback address, by name or
 *   by what a name resolves to, nor over plain http to another origin; for one on loopback, its
 *   local authorization server is reached.
 * Sign-in against a real provider still works end to end: upstreamOAuth.test.ts, gatewaySignIn.test.ts.
 */
import assert from 'node:assert/strict';
import { lookup } from 'node:dns/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { after, before, describe, test } from 'node:test';
import { MemoryOAuthStore } from '../../server/src/adapters/upstream/auth/oauthStore';
import { OAuthDestinationError, OAuthDestinations } from '../../server/src/adapters/upstream/auth/oauthDestinations';
import { oauthFetch } from '../../server/src/adapters/upstream/auth/oauthFetch';
import { UpstreamPool } from '../../server/src/adapters/upstream/pool';
import { lineLogger } from '../../server/src/core/logger';
import { headlessDoor } from '../conformance/headlessDoor';
import { remoteConfig, statusOf, until } from '../fixtures/servers/poolWorld';

interface Counted {
  origin: string;
  /** `METHOD /path` of every request received. */
  requests: string[];
  close(): Promise<void>;
}

/** An HTTP server on 127.0.0.1 that counts what it receives and answers with `answer`. */
async function counted(
  answer: (path: string, origin: string) => { status: number; body?: unknown; headers?: Record<string, string> },
): Promise<Counted> {
  const requests: string[] = [];
  let origin = '';
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', origin).pathname;
    requests.push(`${req.method} ${path}`);
    req.resume();
    const a = answer(path, origin);
    res.writeHead(a.status, { 'content-type': 'application/json', ...a.headers });
    res.end(a.body === undefined ? '' : JSON.stringify(a.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('OAuth requests go only where the user pointed', () => {
  /** Where the upstreams' metadata points: another local port (a stand-in for a metadata service). */
  let decoy: Counted;
  /** An MCP server that answers every request 401, naming the decoy for its metadata. */
  let victim: Counted;
  /** An MCP server whose metadata (served by the decoy) names a cloud metadata address as its authorization server. */
  let metadata: Counted;
  let pool: UpstreamPool;
  const opened: URL[] = [];

  before(async () => {
    decoy = await counted((path) =>
      path.endsWith('/prm')
        ? {
            status: 200,
            body: {
              resource: path.startsWith('/metadata/') ? `${metadata.origin}/mcp` : `${victim.origin}/mcp`,
              authorization_servers: path.startsWith('/metadata/')
                ? ['http://169.254.169.254/latest/meta-data/iam/security-credentials']
                : [`${decoy.origin}/latest/meta-data/iam/security-credentials`],
            },
          }
        : { status: 404 },
    );
    const challenge = (prm: string) => () => ({
      status: 401,
      headers: { 'www-authenticate': `Bearer resource_metadata="${decoy.origin}${prm}"` },
      body: { error: 'unauthorized' },
    });
    victim = await counted(challenge('/latest/meta-data/iam/security-credentials/prm'));
    metadata = await counted(challenge('/metadata/prm'));
    pool = new UpstreamPool({
      log: lineLogger(() => undefined),
      connectTimeoutMs: 5000,
      requestTimeoutMs: 5000,
      oauth: {
        store: new MemoryOAuthStore(),
        door: headlessDoor({ onAuthorization: (u) => opened.push(u) }),
        signInTimeoutMs: 5000,
      },
    });
    await pool.setServers([
      remoteConfig('victim', 'http', `${victim.origin}/mcp`),
      remoteConfig('metadata', 'http', `${metadata.origin}/mcp`),
    ]);
  });
  after(async () => {
    await pool?.close();
    await Promise.all([decoy, victim, metadata].map((s) => s?.close()));
  });

  test('a 401 sends nothing anywhere before the user asks to sign in: the server just needs sign-in', async () => {
    await until(pool, () => statusOf(pool, 'victim').state === 'needs-sign-in', 'victim needs sign-in');
    await until(pool, () => statusOf(pool, 'metadata').state === 'needs-sign-in', 'metadata needs sign-in');
    assert.deepEqual(decoy.requests, [], 'no request to the address the metadata named');
    for (const s of [victim, metadata])
      assert.ok(
        s.requests.every((r) => !r.includes('.well-known')),
        `no discovery at the server either: ${s.requests.join(', ')}`,
      );
    assert.equal(opened.length, 0);
  });

  test('signing in where the metadata names a cloud metadata address is refused before connecting, and the status names it', async () => {
    const before = decoy.requests.length;
    await assert.rejects(pool.signIn('metadata'), (e: unknown) => {
      assert.ok(e instanceof OAuthDestinationError, String(e));
      assert.match(
        e.message,
        /^metadata: signing in stopped: MCP Lens does not send OAuth requests to http:\/\/169\.254\.169\.254\/[\w/.-]*: a cloud provider's metadata service$/,
      );
      return true;
    });
    assert.deepEqual(
      decoy.requests.slice(before),
      ['GET /metadata/prm'],
      'only the metadata the server named (loopback, as the server is)',
    );
    const status = statusOf(pool, 'metadata');
    assert.equal(status.state, 'needs-sign-in');
    assert.match(
      status.error ?? '',
      /OAuth requests refused: http:\/\/169\.254\.169\.254\/[\w/.-]* \(a cloud provider's metadata service\)/,
    );
    assert.equal(opened.length, 0, 'no authorization page');
  });

  test('a server not on loopback: no OAuth request reaches a loopback address, by name, by resolution, or plain http elsewhere', async () => {
    const port = new URL(decoy.origin).port;
    const remote = new OAuthDestinations('remote', 'https://mcp.example.com/mcp');
    const fetchRemote = oauthFetch(remote);
    const before = decoy.requests.length;
    for (const url of [
      `${decoy.origin}/x`,
      `http://localhost:${port}/x`,
      `https://localhost:${port}/x`,
      `https://[::1]:${port}/x`,
    ])
      await assert.rejects(fetchRemote(url), OAuthDestinationError, url);
    // A name that resolves to loopback is judged by the address it resolves to.
    const resolvesHome = new OAuthDestinations('remote', 'https://mcp.example.com/mcp', async () => [
      { address: '127.0.0.1', family: 4 },
    ]);
    await assert.rejects(
      oauthFetch(resolvesHome)(`https://auth.example.com:${port}/token`),
      /it resolves to 127\.0\.0\.1, a loopback address/,
    );
    const resolvesCloud = new OAuthDestinations('remote', 'https://mcp.example.com/mcp', async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '169.254.169.254', family: 4 },
    ]);
    await assert.rejects(
      oauthFetch(resolvesCloud)('https://auth.example.com/token'),
      /it resolves to 169\.254\.169\.254/,
    );
    assert.equal(decoy.requests.length, before, 'the decoy received nothing');
    assert.equal(remote.refused.length, 4);
    // The system resolver: this machine's name, where it resolves to loopback.
    const self = hostname();
    const home = await lookup(self).catch(() => undefined);
    if (home && /^127\.|^::1$/.test(home.address))
      await assert.rejects(fetchRemote(`https://${self}:${port}/x`), /it resolves to/);
    // A server on loopback reaches its local authorization server.
    const local = oauthFetch(new OAuthDestinations('local', `${victim.origin}/mcp`));
    const r = await local(`${decoy.origin}/other/prm`);
    assert.equal(r.status, 200);
    assert.equal(decoy.requests.length, before + 1);
  });
});
