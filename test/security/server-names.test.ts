/**
 * Server names come from a repository's files and reached agents raw: list_servers' `name`,
 * find_tools' `server`, get_tool_schema's `server` (JSON escapes neither U+202E nor U+200B).
 * They are now made safe once, where config is loaded (core/config/entry.ts shownServerName): a
 * name with a control, bidi or invisible character is refused like any other config problem
 * (an error naming the file and the entry), its server never starts, and it goes by its escaped
 * form (`evil\u{202e}txt.exe`) everywhere it is shown — meta-tool results, instructions,
 * tools/list, the CLI, logs.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { formatProblem } from '../../server/src/core/config/resolve';
import { faulty, startGatewayWorld, text, type GatewayWorld } from '../faults/faultWorld';
import { cliEnv, hostileWorkspace, mcpJson, runCli } from './hostileWorkspace';

/** What must never reach an agent or a terminal from a name: C0 (tab and newline too), C1, bidi, zero-width and other invisible characters, line separators. */
const FORBIDDEN =
  /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\u2028\u2029\ufeff\u00ad]/;

/** In a terminal, newlines between lines are fine; anything else hidden is not. */
const FORBIDDEN_TERMINAL =
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\u2028\u2029\ufeff\u00ad]/;

const HOSTILE = {
  'evil\u202etxt.exe': 'evil\\u{202e}txt.exe',
  'git\u200bhub': 'git\\u{200b}hub',
  'esc\u001b[31mred\nline': 'esc\\e[31mred\\nline',
} as const;

const upstreams = {
  plain: faulty('none'),
  ...Object.fromEntries(Object.keys(HOSTILE).map((name) => [name, faulty('none')])),
};

let g: GatewayWorld;
before(async () => {
  g = await startGatewayWorld(upstreams, { exposure: 'all' });
});
after(async () => {
  await g?.close();
});

interface ListedServer {
  name: string;
  state: string;
  tools: number;
  error?: string;
}

function structured<T>(r: CallToolResult): T {
  assert.ok(!r.isError, text(r));
  return r.structuredContent as T;
}

test('list_servers: a name with control, bidi or invisible characters is refused and shown escaped; nothing raw reaches the agent', async () => {
  const r = await g.call('list_servers');
  assert.doesNotMatch(text(r), FORBIDDEN);
  const servers = (JSON.parse(text(r)) as { servers: ListedServer[] }).servers;
  for (const s of servers) assert.doesNotMatch(`${s.name} ${s.error ?? ''}`, FORBIDDEN, JSON.stringify(s));
  assert.equal(servers.find((s) => s.name === 'plain')?.state, 'ready');
  for (const shown of Object.values(HOSTILE)) {
    const s = servers.find((x) => x.name === shown);
    assert.ok(s, `${shown} in ${JSON.stringify(servers.map((x) => x.name))}`);
    assert.equal(s.state, 'disabled');
    assert.equal(s.tools, 0, 'it never started');
    assert.match(s.error ?? '', /control, bidi or invisible characters .*rename the server/);
  }
});

test('the refusal is a config problem naming the file and the entry, with the name written out', () => {
  const lines = g.world.lens.configProblems().map((p) => formatProblem(p, g.world.workspace.dir));
  for (const shown of Object.values(HOSTILE)) {
    const line = lines.find((l) => l.includes(`servers["${shown}"]`));
    assert.ok(line, `${shown}:\n${lines.join('\n')}`);
    assert.match(line, /^mcp\.json: servers\["/);
    assert.ok(
      line.endsWith(
        `servers["${shown}"]: this server name has control, bidi or invisible characters (written out in the path); rename the server`,
      ),
      line,
    );
    assert.doesNotMatch(line, FORBIDDEN);
  }
});

test('find_tools: every server field is clean, and only servers with safe names have tools', async () => {
  const found = structured<{ matches: { name: string; server: string }[] }>(
    await g.call('find_tools', { query: 'ping answers pong', limit: 10 }),
  );
  assert.ok(found.matches.length > 0);
  for (const m of found.matches) assert.doesNotMatch(m.server, FORBIDDEN, JSON.stringify(m));
  assert.deepEqual([...new Set(found.matches.map((m) => m.server))], ['plain']);
  const sig = await g.call('find_tools', { query: 'ping answers pong', input_format: 'signature' });
  assert.doesNotMatch(text(sig), FORBIDDEN);
  // Nothing matches: the answer names the servers that are not searched (the refused ones), cleaned.
  const none = await g.call('find_tools', { query: 'qqqzzz xyzzy frobnicate' });
  assert.doesNotMatch(text(none), FORBIDDEN);
  // The server filter takes the name as shown.
  const filtered = await g.call('find_tools', { query: 'ping', server: HOSTILE['evil\u202etxt.exe'] });
  assert.doesNotMatch(text(filtered), FORBIDDEN);
});

test('get_tool_schema, tools/list (exposure all) and the instructions carry no raw name', async () => {
  const schema = await g.call('get_tool_schema', { tool_name: 'plain_ping' });
  assert.doesNotMatch(text(schema), FORBIDDEN);
  const { tools } = await g.client.listTools();
  assert.doesNotMatch(JSON.stringify(tools), FORBIDDEN);
  assert.ok(tools.some((t) => t.name === 'plain_ping'));
  assert.doesNotMatch(g.client.getInstructions() ?? '', FORBIDDEN);
});

test('the CLI refuses the name on stderr, by file and entry, and prints nothing raw', async () => {
  const ws = hostileWorkspace({
    '.vscode/mcp.json': mcpJson(Object.fromEntries(Object.keys(HOSTILE).map((name) => [name, faulty('none')]))),
  });
  try {
    const run = await runCli(['tools', '--workspace', ws.dir, '--config', ws.path('.vscode/mcp.json')], cliEnv(ws));
    // Exit 3: every entry of the configuration was refused, so no server can start.
    assert.equal(run.code, 3, run.stderr);
    assert.doesNotMatch(run.stdout, FORBIDDEN_TERMINAL);
    assert.doesNotMatch(run.stderr, FORBIDDEN_TERMINAL);
    assert.match(
      run.stderr,
      /\.vscode\/mcp\.json: servers\["evil\\u\{202e\}txt\.exe"\]: this server name has control, bidi or invisible characters/,
    );
    assert.match(
      run.stdout,
      /evil\\\\u\{202e\}txt\.exe {2}disabled/,
      'listed, escaped (the CLI escapes the backslash of the escape again)',
    );
  } finally {
    ws.close();
  }
});
