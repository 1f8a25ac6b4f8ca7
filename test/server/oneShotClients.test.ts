/**
 * One-shot clients: the MCP Inspector's CLI (@modelcontextprotocol/inspector 2.12.0,
 * `mcp-inspector --cli … -- node dist/cli.js serve …`) starts `serve`, asks one thing and leaves.
 * Its one answer must hold what the servers give directly: with no catalog cache (a fresh state
 * folder), the first list waits for the servers still starting, and so do a call, a prompt and a
 * resource of a server still starting. Against the demo workspace (examples/demo, exactly as
 * README's example runs it) and a copy of it with exposure `all`; compared with a listing of
 * each demo server made directly with the SDK's client.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Prompt, Resource, Tool } from '@modelcontextprotocol/sdk/types.js';
import { parse } from 'jsonc-parser';
import { ROOT } from '../fixtures/gatewayLens';
import { assignToolNames } from '../../server/src/core/toolNames';
import { resourceUri } from '../../server/src/core/resourceUris';
import { META_TOOL_NAMES } from '../../protocol/metaToolNames';
import { UPSTREAM_CLIENT_CAPABILITIES } from '../../server/src/adapters/upstream/followUps';

const run = promisify(execFile);
const INSPECTOR = join(ROOT, 'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js');
const DEMO = join(ROOT, 'examples/demo');
const DEMO_CONFIG = join(DEMO, '.vscode/mcp.json');

interface DemoServer {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

/** The demo's servers with `${workspaceFolder}` as MCP Lens resolves it for `workspace`. */
function demoServers(workspace: string): Record<string, DemoServer> {
  const text = readFileSync(DEMO_CONFIG, 'utf8').replaceAll('${workspaceFolder}', workspace);
  return (parse(text) as { servers: Record<string, DemoServer> }).servers;
}

interface Listing {
  tools: (Tool & { server: string })[];
  resources: (Resource & { server: string })[];
  prompts: (Prompt & { server: string })[];
}

/**
 * Every demo server listed by a client of its own, every page. It declares what MCP Lens declares
 * to its upstreams: servers list by what their client can do (server-everything adds its
 * sampling, elicitation and roots tools).
 */
async function listDirectly(workspace: string): Promise<Listing> {
  const out: Listing = { tools: [], resources: [], prompts: [] };
  for (const [server, s] of Object.entries(demoServers(workspace))) {
    const client = new Client({ name: 'direct', version: '1.0.0' }, { capabilities: UPSTREAM_CLIENT_CAPABILITIES });
    await client.connect(
      new StdioClientTransport({
        command: s.command === 'node' ? process.execPath : s.command,
        args: s.args,
        env: { ...(process.env as Record<string, string>), ...s.env },
        stderr: 'ignore',
      }),
    );
    try {
      const caps = client.getServerCapabilities() ?? {};
      for (let cursor: string | undefined, first = true; caps.tools && (first || cursor); first = false) {
        const page = await client.listTools(cursor ? { cursor } : {});
        out.tools.push(...page.tools.map((t) => ({ ...t, server })));
        cursor = page.nextCursor;
      }
      for (let cursor: string | undefined, first = true; caps.resources && (first || cursor); first = false) {
        const page = await client.listResources(cursor ? { cursor } : {});
        out.resources.push(...page.resources.map((r) => ({ ...r, server })));
        cursor = page.nextCursor;
      }
      if (caps.prompts) out.prompts.push(...(await client.listPrompts()).prompts.map((p) => ({ ...p, server })));
    } finally {
      await client.close();
    }
  }
  return out;
}

const namesOf = (items: { server: string; name: string }[]) =>
  [...assignToolNames(items.map((i) => ({ server: i.server, name: i.name }))).values()].sort();

describe('one-shot clients (the MCP Inspector CLI) against mcp-lens serve', () => {
  let home: string;
  let direct: Listing;
  let allWorkspace: string;

  /** One Inspector run with a state folder of its own (`state`): a fresh one has no catalog cache. */
  async function inspect(state: string, workspace: string, config: string, args: string[]): Promise<unknown> {
    const { stdout } = await run(
      process.execPath,
      [
        INSPECTOR,
        '--cli',
        ...args,
        '--',
        process.execPath,
        join(ROOT, 'dist/cli.js'),
        'serve',
        '--workspace',
        workspace,
        '--config',
        config,
      ],
      {
        cwd: home,
        timeout: 120_000,
        maxBuffer: 20 * 1024 * 1024,
        env: {
          ...process.env,
          HOME: home,
          XDG_STATE_HOME: state,
          XDG_CACHE_HOME: join(home, 'cache'),
          XDG_CONFIG_HOME: join(home, 'config'),
        },
      },
    );
    return JSON.parse(stdout);
  }
  const freshState = () => mkdtempSync(join(home, 'state-'));

  before(async () => {
    home = mkdtempSync(join(tmpdir(), 'mcp-lens-oneshot-'));
    direct = await listDirectly(DEMO);
    // The demo's servers with exposure `all`: every tool listed as the host's own.
    allWorkspace = join(home, 'demo-all');
    mkdirSync(join(allWorkspace, '.vscode'), { recursive: true });
    writeFileSync(
      join(allWorkspace, '.vscode/mcp.json'),
      readFileSync(DEMO_CONFIG, 'utf8').replaceAll('${workspaceFolder}/../../', `${ROOT}/`),
    );
    writeFileSync(
      join(allWorkspace, '.vscode/settings.json'),
      JSON.stringify({ mcpLens: { exposure: 'all', embedding: { enabled: false } } }),
    );
  });

  after(() => rmSync(home, { recursive: true, force: true }));

  it('the demo workspace as README runs it: resources and prompts whole, read and got, cache or not', async () => {
    const expectedResources = direct.resources.map((r) => resourceUri(r.server, r.uri)).sort();
    const expectedPrompts = namesOf(direct.prompts);
    assert.ok(expectedResources.length > 0 && expectedPrompts.length > 0);
    const state = freshState();
    for (const round of ['no catalog cache', 'with the catalog cache the first run wrote']) {
      const resources = (await inspect(state, DEMO, DEMO_CONFIG, ['--method', 'resources/list'])) as {
        resources: Resource[];
      };
      assert.deepEqual(resources.resources.map((r) => r.uri).sort(), expectedResources, round);
      const prompts = (await inspect(state, DEMO, DEMO_CONFIG, ['--method', 'prompts/list'])) as { prompts: Prompt[] };
      assert.deepEqual(prompts.prompts.map((p) => p.name).sort(), expectedPrompts, round);
    }
    // A resource and a prompt of a server still starting, each in a run of its own.
    const resource = direct.resources[0]!;
    const read = (await inspect(freshState(), DEMO, DEMO_CONFIG, [
      '--method',
      'resources/read',
      '--uri',
      resourceUri(resource.server, resource.uri),
    ])) as { contents: { uri: string }[] };
    assert.equal(read.contents[0]!.uri, resourceUri(resource.server, resource.uri));
    const prompt = direct.prompts.find((p) => !p.arguments?.some((a) => a.required))!;
    const promptName = assignToolNames(direct.prompts.map((p) => ({ server: p.server, name: p.name }))).get(
      `${prompt.server}/${prompt.name}`,
    )!;
    const got = (await inspect(freshState(), DEMO, DEMO_CONFIG, [
      '--method',
      'prompts/get',
      '--prompt-name',
      promptName,
    ])) as { messages: unknown[] };
    assert.ok(got.messages.length > 0, JSON.stringify(got));
  });

  it('exposure all: the first tools/list holds every tool of every server, and a first call finds its tool', async () => {
    const config = join(allWorkspace, '.vscode/mcp.json');
    const expected = [...META_TOOL_NAMES, ...namesOf(direct.tools)].sort();
    const state = freshState();
    for (const round of ['no catalog cache', 'with the catalog cache the first run wrote']) {
      const tools = (await inspect(state, allWorkspace, config, ['--method', 'tools/list'])) as { tools: Tool[] };
      assert.deepEqual(tools.tools.map((t) => t.name).sort(), expected, round);
    }
    const echoed = (await inspect(freshState(), allWorkspace, config, [
      '--method',
      'tools/call',
      '--tool-name',
      'everything_echo',
      '--tool-arg',
      'message=one shot',
    ])) as { content: { text?: string }[]; isError?: boolean };
    assert.ok(!echoed.isError, JSON.stringify(echoed));
    assert.match(echoed.content.map((c) => c.text ?? '').join(''), /one shot/);
  });
});
