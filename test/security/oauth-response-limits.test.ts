/**
 * Memory without bounds, in signing in (issue #23, sign-in from issue #24): the SDK's OAuth
 * client reads protected-resource and authorization-server metadata, registrations and token
 * responses whole, with no deadline, through a fetch MCP Lens gave it without any limit. An
 * authorization server that streamed an endless body grew the gateway without bound; one that
 * never finished its answer held the sign-in forever. Now every OAuth request is held to 1 MB
 * and to the server's connect timeout (adapters/upstream/auth/oauthRequestLimits.ts): the
 * sign-in fails with an error naming the server and the limit, memory stays bounded, and the
 * gateway goes on serving its other servers.
 *
 * The real CLI against a hand-written hostile OAuth world on 127.0.0.1
 * (test/fixtures/servers/hostileOAuth.ts): `serve --http` signs in from its dashboard's API;
 * `login --no-browser` signs in as a user does, this test playing the browser (it comes back to
 * the loopback address with a code). Each endless body stops by itself after 512 MB, so against
 * MCP Lens without the limits the tests end too (and fail on the memory bound or the deadline).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startHostileOAuth, type HostileOAuth, type HostileShape } from '../fixtures/servers/hostileOAuth';
import { text } from '../faults/faultWorld';
import {
  EVERYTHING,
  cliEnv,
  hostileWorkspace,
  killStarted,
  mcpJson,
  serveHttp,
  startCli,
  type HostileWorkspace,
  type RunningCli,
  type ServedGateway,
} from './hostileWorkspace';

/** Growth of MCP Lens's RSS a hostile answer may cause: 1 MB read a few times over, not the 512 MB sent. */
const MAX_GROWTH_MB = 100;
const LIMIT = /sent more than 1 MB from http:\/\/127\.0\.0\.1:\d+\/[\w/.-]+ \(the limit for one OAuth answer\)/;

let world: HostileOAuth;
before(async () => (world = await startHostileOAuth()));
after(() => world?.close());

/** Resident set of a process of this test's, from /proc. */
function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

/** Runs `work` while sampling the RSS of `pid`; its result and the peak growth. */
async function sampled<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; growthMb: number }> {
  const start = rssMb(pid);
  let peak = start;
  const sample = () => {
    try {
      peak = Math.max(peak, rssMb(pid));
    } catch {
      // the process ended
    }
  };
  const sampler = setInterval(sample, 20);
  try {
    const result = await work();
    sample();
    return { result, growthMb: peak - start };
  } finally {
    clearInterval(sampler);
  }
}

describe('serve --http: a sign-in whose protected-resource metadata never ends', () => {
  let ws: HostileWorkspace;
  let g: ServedGateway;
  let client: Client;
  let origin: string;
  let cookie: string;
  before(async () => {
    ws = hostileWorkspace({
      '.vscode/mcp.json': mcpJson({
        good: EVERYTHING,
        hostile: { type: 'http', url: world.mcpUrl('endless-metadata') },
      }),
    });
    g = await serveHttp(ws, { MCP_LENS_OAUTH_FILE: join(ws.outside, 'oauth.json') }, ['good']);
    await g.serve.waitFor(/\[hostile\] /);
    client = await g.connect();
    origin = new URL(g.url).origin;
    const login = await fetch(`${origin}/?token=${g.token}`, { redirect: 'manual' });
    cookie = login.headers.get('set-cookie')!.split(';')[0]!;
  });
  after(async () => {
    await g?.close().catch(() => killStarted());
    ws?.close();
  });

  test('the sign-in fails naming the server and the limit; the gateway stays small and serves the other server', async (t) => {
    const { result, growthMb } = await sampled(g.serve.child.pid!, async () => {
      const res = await fetch(`${origin}/api/signInServer`, {
        method: 'POST',
        headers: { cookie, origin, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'hostile' }),
      });
      return (await res.json()) as { ok: boolean; error?: string };
    });
    t.diagnostic(
      `the gateway grew by ${Math.round(growthMb)} MB; the server sent ${Math.round(world.sent() / 2 ** 20)} MB in all`,
    );
    assert.equal(result.ok, false);
    assert.match(result.error ?? '', /^hostile: signing in stopped: the authorization server /);
    assert.match(result.error ?? '', LIMIT);
    assert.ok(growthMb < MAX_GROWTH_MB, `the gateway grew by ${Math.round(growthMb)} MB`);

    const servers = JSON.parse(text(await client.callTool({ name: 'list_servers', arguments: {} }))) as {
      servers: { name: string; state: string }[];
    };
    assert.equal(servers.servers.find((s) => s.name === 'good')?.state, 'ready');
    const echo = (await client.callTool({
      name: 'call_tool',
      arguments: { tool_name: 'good_echo', arguments: { message: 'still here' } },
    })) as CallToolResult;
    assert.match(text(echo), /still here/);
  });
});

/** `mcp-lens login <shape> --no-browser` in `ws`. */
function login(ws: HostileWorkspace, shape: HostileShape): RunningCli {
  return startCli(
    ['login', shape, '--no-browser', '--workspace', ws.dir, '--config', ws.path('.vscode/mcp.json')],
    cliEnv(ws, { MCP_LENS_OAUTH_FILE: join(ws.outside, 'oauth.json') }),
  );
}

/** A workspace with the one server `shape`, connect timeout `connectSeconds` (default: the default). */
function loginWorkspace(shape: HostileShape, connectSeconds?: number): HostileWorkspace {
  return hostileWorkspace({
    '.vscode/mcp.json': mcpJson({ [shape]: { type: 'http', url: world.mcpUrl(shape) } }),
    ...(connectSeconds !== undefined && {
      '.vscode/settings.json': JSON.stringify({ 'mcpLens.connectTimeoutSeconds': connectSeconds }),
    }),
  });
}

describe('mcp-lens login: a token endpoint whose answer never ends', () => {
  let ws: HostileWorkspace;
  before(() => (ws = loginWorkspace('endless-token')));
  after(() => (killStarted(), ws?.close()));

  test('the login fails naming the server and the limit, and stays small', async (t) => {
    const run = login(ws, 'endless-token');
    // Measured from here: the CLI is loaded and waits for the browser.
    const page = new URL((await run.waitFor(/open this address in a browser:\s+(\S+)/))[1]!);
    const { result: code, growthMb } = await sampled(run.child.pid!, async () => {
      // The browser's part: back to the loopback address with a code and the state it was given.
      const back = new URL(page.searchParams.get('redirect_uri')!);
      back.searchParams.set('code', 'a-code');
      back.searchParams.set('state', page.searchParams.get('state')!);
      await fetch(back).then((r) => r.text());
      return run.stop(undefined, 90_000);
    });
    t.diagnostic(`login grew by ${Math.round(growthMb)} MB`);
    assert.equal(code, 1, run.stderr());
    assert.match(run.stderr(), /mcp-lens login: endless-token: signing in stopped: the authorization server /);
    assert.match(run.stderr(), LIMIT);
    assert.match(run.stderr(), /\/endless-token\/token \(the limit/);
    assert.ok(growthMb < MAX_GROWTH_MB, `login grew by ${Math.round(growthMb)} MB`);
  });
});

describe('mcp-lens login: an authorization server that never finishes its answer', () => {
  for (const shape of ['stalled-body', 'stalled-headers'] as const) {
    test(`${shape}: the login fails at the connect timeout, naming the server and the limit`, async (t) => {
      const ws = loginWorkspace(shape, 2);
      t.after(() => (killStarted(), ws.close()));
      const run = login(ws, shape);
      // Without a deadline the sign-in waits forever; 60 s is far past the 2 s limit (twice: at connect, then the sign-in).
      assert.equal(await run.stop(undefined, 60_000), 1, run.stderr());
      assert.match(
        run.stderr(),
        new RegExp(
          `mcp-lens login: ${shape}: signing in stopped: the authorization server did not finish its answer from http://127\\.0\\.0\\.1:\\d+/\\.well-known/oauth-authorization-server/${shape}/as within 2 s \\(the limit for one OAuth request\\)`,
        ),
      );
    });
  }
});
