/**
 * MCP Lens with the official Python SDK (mcp 2.3.0, in a venv the test makes: pythonEnv.ts; the
 * tests skip, saying why, where Python or the package cannot be had), both ways:
 *
 * - its client, pinned to 2026-07-28 and in auto mode, over streamable HTTP and over stdio
 *   (`mcp-lens serve`), in front of a 2025-era upstream: discovery without initialize, find_tools,
 *   call_tool (and an upstream elicitation through input-required rounds), run_code, resources,
 *   prompts, errors and ping (test/fixtures/python/lens_client.py prints each step);
 * - a server on it that speaks only 2026-07-28 (test/fixtures/python/modern_server.py), over stdio
 *   and HTTP, behind MCP Lens, for a 2025 client (the TypeScript SDK 1.x): the same steps.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it, type TestContext } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  CLI,
  ROOT,
  makeWorkspace,
  startHttpLens,
  until,
  type HttpLensWorld,
  type TestWorkspace,
} from '../fixtures/gatewayLens';
import { startConformanceServer, type ConformanceServer } from '../fixtures/servers/conformance/http';
import { pythonEnv, type PythonEnv } from '../fixtures/python/pythonEnv';

const TOKEN = 'python-' + Math.random().toString(36).slice(2);
const CLIENT_SCRIPT = join(ROOT, 'test/fixtures/python/lens_client.py');
const SERVER_SCRIPT = join(ROOT, 'test/fixtures/python/modern_server.py');
const STEPS = [
  'discovery',
  'find_tools',
  'call_tool',
  'call_tool_elicitation',
  'run_code',
  'resources',
  'prompts',
  'errors',
  'ping',
];

const text = (r: unknown) =>
  ((r as CallToolResult).content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('');

/** Runs the Python client; resolves its steps, in order. */
function pythonClient(python: string, args: string[]): Promise<Array<{ step: string; ok: boolean; detail: string }>> {
  return new Promise((resolve) => {
    const child = spawn(python, [CLIENT_SCRIPT, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', () => {
      const steps = out
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { step: string; ok: boolean; detail: string });
      if (steps.length === 0) steps.push({ step: 'fatal', ok: false, detail: err.slice(-1500) });
      resolve(steps);
    });
  });
}

function assertSteps(steps: Array<{ step: string; ok: boolean; detail: string }>): void {
  for (const s of steps) assert.ok(s.ok, `${s.step}: ${s.detail}`);
  assert.deepEqual(
    steps.map((s) => s.step),
    STEPS,
  );
}

function skipWithout(env: PythonEnv, t: TestContext): env is { python: string } {
  if ('skip' in env) t.skip(env.skip);
  return !('skip' in env);
}

describe('the Python SDK client (mcp 2.3.0) in front of MCP Lens', () => {
  let env: PythonEnv;
  let upstream: ConformanceServer;
  let world: HttpLensWorld;
  let ws: TestWorkspace;

  before(async () => {
    env = await pythonEnv();
    upstream = await startConformanceServer();
    world = await startHttpLens({ conf: { type: 'http', url: upstream.url } }, TOKEN, {});
    ws = makeWorkspace({ conf: { type: 'http', url: upstream.url } });
  });

  after(async () => {
    await world?.close();
    ws?.close();
    await upstream?.close();
  });

  for (const mode of ['2026-07-28', 'auto']) {
    it(`over streamable HTTP, ${mode}: every step`, async (t) => {
      if (!skipWithout(env, t)) return;
      assertSteps(
        await pythonClient(env.python, [
          '--mode',
          mode,
          '--url',
          world.url,
          '--token',
          TOKEN,
          '--tool-prefix',
          'conf_',
        ]),
      );
    });

    it(`over stdio (mcp-lens serve), ${mode}: every step`, async (t) => {
      if (!skipWithout(env, t)) return;
      const argv = [process.execPath, ...CLI, 'serve', '--workspace', ws.dir, '--config', ws.configFile, '--trust'];
      assertSteps(
        await pythonClient(env.python, [
          '--mode',
          mode,
          '--stdio',
          JSON.stringify(argv),
          '--cwd',
          ROOT,
          '--tool-prefix',
          'conf_',
        ]),
      );
    });
  }
});

describe('a 2025 client (TypeScript SDK 1.x) in front of a Python server that speaks only 2026-07-28', () => {
  let env: PythonEnv;
  let world: HttpLensWorld | undefined;
  let httpServer: ChildProcess | undefined;
  let client: Client;

  before(async () => {
    env = await pythonEnv();
    if ('skip' in env) return;
    const python = env.python;
    const url = await new Promise<string>((resolve, reject) => {
      httpServer = spawn(python, [SERVER_SCRIPT, '--http'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] });
      let out = '';
      httpServer.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /listening (\S+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      httpServer.once('exit', (code) => reject(new Error(`the Python server exited (${code})`)));
    });
    world = await startHttpLens(
      { py: { type: 'stdio', command: python, args: [SERVER_SCRIPT] }, pyhttp: { type: 'http', url } },
      TOKEN,
      {},
    );
    await until('both Python servers ready', () => world!.lens.servers().every((s) => s.state === 'ready'), 60_000);
    client = new Client({ name: 'vscode-like', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { name: 'Ada' } }));
    await client.connect(
      new StreamableHTTPClientTransport(new URL(world.url), {
        requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
      }),
    );
  });

  after(async () => {
    await client?.close().catch(() => undefined);
    await world?.close();
    httpServer?.kill();
  });

  for (const server of ['py', 'pyhttp']) {
    it(`${server}: discovery, find_tools, call_tool (an elicitation round), run_code, resources, prompts, errors, ping`, async (t) => {
      if (!skipWithout(env, t)) return;
      assert.equal(client.getServerVersion()?.name, 'mcp-lens');
      const found = await client.callTool({ name: 'find_tools', arguments: { query: 'echo text', server } });
      const matches = (found.structuredContent as { matches: Array<{ name: string }> }).matches.map((m) => m.name);
      assert.ok(matches.includes(`${server}_echo`), matches.join());
      const echoed = await client.callTool({
        name: 'call_tool',
        arguments: { tool_name: `${server}_echo`, arguments: { text: 'hi' } },
      });
      assert.equal(text(echoed), 'echo: hi');
      const named = await client.callTool({
        name: 'call_tool',
        arguments: { tool_name: `${server}_ask_name`, arguments: {} },
      });
      assert.equal(text(named), 'Hello, Ada!');
      const ran = await client.callTool({
        name: 'run_code',
        arguments: { code: `return await call_tool("${server}_echo", { text: "from code" });` },
      });
      assert.match(text(ran), /echo: from code/);
      const note = (await client.listResources()).resources.find((r) => r.name === `${server}: note`);
      const read = await client.readResource({ uri: note!.uri });
      assert.equal((read.contents[0] as { text: string }).text, 'a note from a Python 2026-07-28 server');
      const prompt = await client.getPrompt({ name: `${server}_greeting`, arguments: { name: 'Ada' } });
      assert.match(JSON.stringify(prompt.messages), /Say hello to Ada/);
      const refused = await client
        .callTool({ name: 'call_tool', arguments: { tool_name: `${server}_needs_sampling`, arguments: {} } })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      assert.ok(refused instanceof McpError && refused.code === -32021, String(refused));
      assert.deepEqual(await client.ping(), {});
    });
  }
});
