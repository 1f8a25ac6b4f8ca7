/**
 * `mcp-lens serve` as a real process: over stdio with the MCP SDK client (nothing but protocol
 * on stdout), and over HTTP with the token and gateway files `mcp-lens stats` uses to read
 * live figures.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CLI, EVERYTHING, ROOT, makeWorkspace, serveOverStdio, type TestWorkspace } from '../fixtures/gatewayLens';
import { findToolsWhenStarted } from '../fixtures/agentClient';

function text(r: unknown): string {
  return ((r as CallToolResult).content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

/**
 * find_tools then call_tool: the whole path through a real client (on a first run, once
 * `everything` is up); `findToolsCalls` is how many find_tools calls that took.
 */
async function addTwoNumbers(client: Client): Promise<{ text: string; findToolsCalls: number }> {
  const { result: found, calls } = await findToolsWhenStarted(client, { query: 'add two numbers' });
  const matches = (found.structuredContent as { matches: { name: string; server: string }[] }).matches;
  const sum = matches.find((m) => m.server === 'everything' && /sum/.test(m.name));
  assert.ok(sum, `no sum tool in ${JSON.stringify(found.structuredContent)}`);
  return {
    text: text(
      await client.callTool({ name: 'call_tool', arguments: { tool_name: sum.name, arguments: { a: 19, b: 23 } } }),
    ),
    findToolsCalls: calls,
  };
}

describe('mcp-lens serve over stdio', () => {
  let ws: TestWorkspace;
  let client: Client;
  const errors: Error[] = [];

  before(async () => {
    ws = makeWorkspace({ everything: EVERYTHING });
    client = new Client({ name: 'gateway-cli-test', version: '1.0.0' });
    client.onerror = (e) => errors.push(e);
    await client.connect(serveOverStdio(ws));
  });

  after(async () => {
    await client?.close();
    ws?.close();
  });

  it('lists the meta-tools, finds and calls get-sum, and writes nothing but MCP to stdout', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), [
      'call_tool',
      'find_tools',
      'get_tool_schema',
      'list_servers',
      'run_code',
    ]);
    assert.match((await addTwoNumbers(client)).text, /\b42\b/);
    assert.deepEqual(errors, [], 'the client saw no unparseable output');
  });
});

describe('mcp-lens serve --http and mcp-lens stats', () => {
  let ws: TestWorkspace;
  let child: ChildProcess;
  let url: string;
  let stderr = '';

  before(async () => {
    ws = makeWorkspace({ everything: EVERYTHING });
    const env = { ...process.env };
    delete env.MCP_LENS_TOKEN;
    child = spawn(process.execPath, [...CLI, 'serve', '--http', '--workspace', ws.dir, '--config', ws.configFile], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    url = await new Promise<string>((resolve, reject) => {
      child.stderr!.on('data', (d: Buffer) => {
        stderr += d.toString();
        // The ready line comes first; the connection help ends with the Ctrl+C line.
        const m = /MCP Lens listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)\n[\s\S]*Ctrl\+C/.exec(stderr);
        if (m) resolve(m[1]!);
      });
      child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
    });
  });

  after(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    ws?.close();
  });

  it('writes the token (0600) and gateway.json, prints how to connect, never the token', () => {
    const tokenFile = join(ws.dir, '.mcp-lens', 'token');
    const token = readFileSync(tokenFile, 'utf8').trim();
    assert.match(token, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(statSync(tokenFile).mode & 0o777, 0o600);
    const info = JSON.parse(readFileSync(join(ws.dir, '.mcp-lens', 'gateway.json'), 'utf8')) as {
      url: string;
      pid: number;
    };
    assert.deepEqual(info, { url, pid: child.pid });
    // The dashboard engineer prints a Jupyter-style one-time dashboard link carrying the token;
    // nothing else (connection help, logs) may contain it.
    const others = stderr.split('\n').filter((l) => !l.startsWith('Dashboard: '));
    assert.ok(!others.some((l) => l.includes(token)), 'the token is printed nowhere but the dashboard link');
    assert.match(
      stderr,
      /claude mcp add --transport http mcp-lens http:\/\/127\.0\.0\.1:\d+\/mcp --header "Authorization: Bearer/,
    );
    assert.equal(stderr.match(/MCP Lens listening on/g)?.length, 1);
  });

  it('serves MCP with the token, and `mcp-lens stats` reads its live figures', async () => {
    const token = readFileSync(join(ws.dir, '.mcp-lens', 'token'), 'utf8').trim();
    const client = new Client({ name: 'gateway-cli-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    let findToolsCalls: number;
    try {
      const added = await addTwoNumbers(client);
      assert.match(added.text, /\b42\b/);
      findToolsCalls = added.findToolsCalls;
    } finally {
      await client.close();
    }
    const r = spawnSync(process.execPath, [...CLI, 'stats', '--json', '--workspace', ws.dir], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(r.status, 0, r.stderr);
    const stats = JSON.parse(r.stdout) as {
      source: string;
      tokens: { findToolsCalls: number; baselineTokens: number; exposedTokens: number };
    };
    assert.equal(stats.source, 'live');
    assert.equal(stats.tokens.findToolsCalls, findToolsCalls);
    assert.ok(stats.tokens.baselineTokens > stats.tokens.exposedTokens);
  });

  it('removes gateway.json and the token on SIGTERM', async () => {
    const exited = new Promise<number | null>((r) => child.once('exit', r));
    child.kill('SIGTERM');
    assert.equal(await exited, 0);
    assert.ok(!existsSync(join(ws.dir, '.mcp-lens', 'gateway.json')));
    assert.ok(!existsSync(join(ws.dir, '.mcp-lens', 'token')));
    // With no gateway running, stats computes the static figures itself.
    const r = spawnSync(process.execPath, [...CLI, 'stats', '--workspace', ws.dir, '--config', ws.configFile], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /computed now; no gateway running/);
    assert.match(
      r.stdout,
      /tools\/list tokens: [\d,]+ for all upstream servers -> [\d,]+ through MCP Lens \([\d.]+% saved\)/,
    );
    assert.match(r.stdout, /everything\s+\d+ tools\s+[\d,]+ tokens/);
  });
});
