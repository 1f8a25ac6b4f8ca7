/**
 * The MCP Inspector's CLI client (@modelcontextprotocol/inspector-cli 1.0.3, what `inspector
 * --cli` runs) as an independent MCP client of the real `mcp-lens serve` (dist/cli.js):
 * tools/list, find_tools and call_tool over stdio, and over streamable HTTP (`serve --http`)
 * with the bearer token.
 *
 * The package's bin (build/cli.js) is a launcher: without `--cli` it starts the web inspector,
 * which this package does not ship (a missing module path), and its argument forwarding drops
 * a server command's own arguments. So the test runs the client it launches, build/index.js,
 * from the build folder (1.0.3 looks for its own package.json relative to the working
 * directory).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { EVERYTHING, ROOT, makeWorkspace, type TestWorkspace } from '../fixtures/gatewayLens';
import { connectAgent, findToolsWhenStarted } from '../fixtures/agentClient';
import { startServeWorld, type ServeWorld } from '../fixtures/lens/serveWorld';

const run = promisify(execFile);
const INSPECTOR_DIR = join(ROOT, 'node_modules/@modelcontextprotocol/inspector-cli/build');

async function inspector(args: string[]): Promise<unknown> {
  const { stdout } = await run(process.execPath, ['index.js', ...args], {
    cwd: INSPECTOR_DIR,
    timeout: 60_000,
    maxBuffer: 10 * 1024 * 1024,
  });
  return JSON.parse(stdout);
}

type ToolResult = {
  content: { type: string; text?: string }[];
  structuredContent?: { matches: { name: string; server: string }[] };
  isError?: boolean;
};

/**
 * `options` are the inspector's; `target` is the server command and its arguments, or a URL.
 * The inspector wants the command first and the command's own arguments after `--`.
 */
async function exercise(options: string[], target: string[]): Promise<void> {
  const [first, ...rest] = target;
  const call = (args: string[]) => inspector([first!, ...options, ...args, ...(rest.length ? ['--', ...rest] : [])]);
  const list = (await call(['--method', 'tools/list'])) as { tools: { name: string }[] };
  assert.deepEqual(list.tools.map((t) => t.name).sort(), [
    'call_tool',
    'find_tools',
    'get_tool_schema',
    'list_servers',
    'run_code',
  ]);
  const found = (await call([
    '--method',
    'tools/call',
    '--tool-name',
    'find_tools',
    '--tool-arg',
    'query=add two numbers',
  ])) as ToolResult;
  const sum = found.structuredContent?.matches.find((m) => m.server === 'everything' && /sum/.test(m.name));
  assert.ok(sum, JSON.stringify(found).slice(0, 500));
  const called = (await call([
    '--method',
    'tools/call',
    '--tool-name',
    'call_tool',
    '--tool-arg',
    `tool_name=${sum.name}`,
    '--tool-arg',
    'arguments={"a":20,"b":22}',
  ])) as ToolResult;
  assert.ok(!called.isError, JSON.stringify(called));
  assert.match(called.content.map((c) => c.text ?? '').join(''), /\b42\b/);
}

describe('MCP Inspector CLI against mcp-lens serve', () => {
  let ws: TestWorkspace;
  let served: ServeWorld;

  before(async () => {
    ws = makeWorkspace({ everything: EVERYTHING });
    served = await startServeWorld();
  });

  after(async () => {
    await served?.close();
    ws?.close();
  });

  it('over stdio', async () => {
    // Each inspector call starts its own `serve` and leaves at once: find_tools answers from the
    // catalog the servers listed last (it never waits for one still starting), so list it once
    // first, as any earlier run of MCP Lens in this workspace would have.
    await run(
      process.execPath,
      [
        join(ROOT, 'dist/cli.js'),
        'search',
        '--fresh',
        'add two numbers',
        '--workspace',
        ws.dir,
        '--config',
        ws.configFile,
      ],
      {
        cwd: ROOT,
        timeout: 60_000,
      },
    );
    await exercise(
      [],
      [process.execPath, join(ROOT, 'dist/cli.js'), 'serve', '--workspace', ws.dir, '--config', ws.configFile],
    );
  });

  it('over streamable HTTP (serve --http) with the bearer token', async () => {
    // find_tools never waits for a server still starting once another has listed: on a loaded
    // machine `everything` may still be starting here, so search again until none is.
    const agent = await connectAgent(`${served.origin}/mcp`, served.token);
    try {
      await findToolsWhenStarted(agent, { query: 'add two numbers' });
    } finally {
      await agent.close();
    }
    await exercise(
      ['--transport', 'http', '--header', `Authorization: Bearer ${served.token}`],
      [`${served.origin}/mcp`],
    );
  });
});
