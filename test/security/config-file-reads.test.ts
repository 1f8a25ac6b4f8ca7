/**
 * Files named by configuration were read whole, before any approval (issue #23): an `envFile` of
 * `/dev/zero` filled memory, and a FIFO (an `envFile`, `.vscode/mcp.json`, settings.json, the
 * approvals file) hung MCP Lens on its open. Every file MCP Lens reads its configuration from
 * now goes through one reader (adapters/config/configFileReader.ts): a regular file of at most
 * 2 MB, opened without blocking, and — inside the workspace — not a link out of it. A refusal is
 * a configuration problem naming the file and the reason; everything else goes on.
 *
 * The real CLI (`mcp-lens tools`) on workspaces built from files; a hang or a crash is the
 * finding, so each run has a deadline.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import {
  EVERYTHING,
  cliEnv,
  hostileWorkspace,
  mcpJson,
  runCli,
  type Entry,
  type HostileWorkspace,
} from './hostileWorkspace';

const worlds: HostileWorkspace[] = [];
after(() => worlds.forEach((w) => w.close()));

async function tools(
  files: Record<string, Entry>,
  outside: Record<string, string> = {},
  extraArgs: (ws: HostileWorkspace) => string[] = () => [],
  env: (ws: HostileWorkspace) => Record<string, string> = () => ({}),
  expectedCode = 0,
): Promise<string> {
  const ws = hostileWorkspace(files, outside);
  worlds.push(ws);
  const run = await runCli(['tools', '--workspace', ws.dir, ...extraArgs(ws)], cliEnv(ws, env(ws)), 45_000);
  assert.equal(run.code, expectedCode, run.stderr);
  return run.stdout + run.stderr;
}

test('an envFile that is a device or a FIFO is refused, and the rest of the workspace is read', async () => {
  // Exit 4: the two servers whose env files were read wait for approval (no terminal, no --trust).
  const out = await tools(
    {
      '.vscode/mcp.json': mcpJson({
        zero: { ...EVERYTHING, envFile: '/dev/zero' },
        pipe: { ...EVERYTHING, envFile: '${workspaceFolder}/pipe.env' },
        fine: { ...EVERYTHING, envFile: '${workspaceFolder}/fine.env' },
        linked: { ...EVERYTHING, envFile: '${workspaceFolder}/linked.env' },
      }),
      'pipe.env': { fifo: true },
      'fine.env': 'GREETING=hello\n',
      // A link that stays inside the workspace is read like the file it names.
      'linked.env': { link: 'fine.env' },
    },
    {},
    undefined,
    undefined,
    4,
  );
  assert.match(out, /no server started: fine, linked wait for approval/);
  assert.match(
    out,
    /servers\.zero\.envFile: env file refused: \/dev\/zero: it is a character device, not a regular file/,
  );
  assert.match(
    out,
    /servers\.pipe\.envFile: env file refused: \S+\/pipe\.env: it is a FIFO \(named pipe\), not a regular file/,
  );
  assert.doesNotMatch(out, /servers\.(fine|linked)\.envFile/);
});

test('a config file or settings.json that is a FIFO, a link out of the workspace or larger than 2 MB is refused, naming it', async () => {
  const out = await tools(
    {
      '.vscode/mcp.json': { fifo: true },
      '.vscode/settings.json': JSON.stringify({ 'mcpLens.importFrom': ['vscode', 'mcp-json', 'cursor'] }),
      '.cursor/mcp.json': { link: 'OUTSIDE/mcp.json' },
      '.mcp.json': JSON.stringify({ mcpServers: { big: EVERYTHING }, padding: 'x'.repeat(3 * 1024 * 1024) }),
    },
    { 'mcp.json': mcpJson({ outsider: EVERYTHING }) },
    undefined,
    undefined,
    3, // config files that could not be used
  );
  assert.match(out, /\.vscode\/mcp\.json: not read: it is a FIFO \(named pipe\), not a regular file/);
  assert.match(out, /\.cursor\/mcp\.json: not read: it is a link to \S+\/outside\/mcp\.json, outside the workspace/);
  assert.match(
    out,
    /\.mcp\.json: not read: it is larger than 2 MB, the limit for a file MCP Lens reads its configuration from/,
  );
  assert.doesNotMatch(out, /outsider|\bbig\b/, 'nothing of the refused files was read');
});

test('a settings.json that is a FIFO, and an approvals file and a --config that are FIFOs, do not hang the CLI', async () => {
  const out = await tools(
    { '.vscode/settings.json': { fifo: true }, 'approvals.fifo': { fifo: true }, 'named.json': { fifo: true } },
    {},
    (ws) => ['--config', ws.path('named.json')],
    (ws) => ({ MCP_LENS_APPROVALS_FILE: ws.path('approvals.fifo') }),
    3, // the --config named cannot be read
  );
  assert.match(out, /settings\.json: not read: it is a FIFO/);
  assert.match(out, /named\.json: not read: it is a FIFO/);
});
