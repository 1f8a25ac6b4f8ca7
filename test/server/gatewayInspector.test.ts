/**
 * The MCP Inspector's CLI (@modelcontextprotocol/inspector-cli, what `inspector --cli` runs)
 * as an independent client: tools/list, find_tools and call_tool over stdio (spawning
 * `mcp-lens serve`) and over streamable HTTP with the bearer token.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { silentLogger } from '../../server/src/core/logger';
import { GatewayHttpServer } from '../../server/src/gateway/http';
import { EVERYTHING, ROOT, makeWorkspace, startLens, type LensWorld, type TestWorkspace } from '../fixtures/gatewayLens';

const run = promisify(execFile);
// The inspector reads its own package.json relative to the working directory.
const INSPECTOR_DIR = join(ROOT, 'node_modules/@modelcontextprotocol/inspector-cli/build');

async function inspector(args: string[]): Promise<unknown> {
  const { stdout } = await run(process.execPath, ['index.js', ...args], { cwd: INSPECTOR_DIR, timeout: 60_000, maxBuffer: 10 * 1024 * 1024 });
  return JSON.parse(stdout);
}

type ToolResult = { content: { type: string; text?: string }[]; structuredContent?: { matches: { name: string; server: string }[] }; isError?: boolean };

/**
 * `options` are the inspector's; `target` is the server command and its arguments, or a URL.
 * The inspector wants the command first and the command's own arguments after `--`.
 */
async function exercise(options: string[], target: string[]): Promise<void> {
  const [first, ...rest] = target;
  const call = (args: string[]) => inspector([first!, ...options, ...args, ...(rest.length ? ['--', ...rest] : [])]);
  const list = (await call(['--method', 'tools/list'])) as { tools: { name: string }[] };
  assert.deepEqual(list.tools.map((t) => t.name).sort(), ['call_tool', 'find_tools', 'get_tool_schema', 'list_servers', 'run_code']);
  const found = (await call(['--method', 'tools/call', '--tool-name', 'find_tools', '--tool-arg', 'query=add two numbers'])) as ToolResult;
  const sum = found.structuredContent?.matches.find((m) => m.server === 'everything' && /sum/.test(m.name));
  assert.ok(sum, JSON.stringify(found).slice(0, 500));
  const called = (await call(['--method', 'tools/call', '--tool-name', 'call_tool', '--tool-arg', `tool_name=${sum.name}`, '--tool-arg', 'arguments={"a":20,"b":22}'])) as ToolResult;
  assert.ok(!called.isError, JSON.stringify(called));
  assert.match(called.content.map((c) => c.text ?? '').join(''), /\b42\b/);
}

describe('MCP Inspector CLI against the gateway', () => {
  let ws: TestWorkspace;
  let world: LensWorld;
  let http: GatewayHttpServer;
  let url: string;
  const token = 'inspector-' + Math.random().toString(36).slice(2);

  before(async () => {
    ws = makeWorkspace({ everything: EVERYTHING });
    world = await startLens({ everything: EVERYTHING });
    http = new GatewayHttpServer({ lens: world.lens, token, log: silentLogger });
    ({ url } = await http.start());
  });

  after(async () => {
    await http?.close();
    await world?.close();
    ws?.close();
  });

  it('over stdio', async () => {
    await exercise([], [process.execPath, '--import', 'tsx', join(ROOT, 'server/src/cli/main.ts'), 'serve', '--workspace', ws.dir, '--config', ws.configFile]);
  });

  it('over streamable HTTP with the bearer token', async () => {
    await exercise(['--transport', 'http', '--header', `Authorization: Bearer ${token}`], [url]);
  });
});
