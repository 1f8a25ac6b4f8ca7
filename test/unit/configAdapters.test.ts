// The fs side of config: loading a real temp workspace, reading .vscode/settings.json, and the
// CLI's approval store on a temp file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  configFilesToWatch,
  loadWorkspaceConfig,
  readWorkspaceSettings,
} from '../../server/src/adapters/config/loadConfig';
import { approvalsFilePath, loadApprovals, saveApprovals } from '../../server/src/adapters/config/approvalStore';
import { formatProblem } from '../../server/src/core/config/resolve';
import { DEFAULT_SETTINGS, sanitizeSettings } from '../../protocol/settings';

function tempDir(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-lens-config-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
function write(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

test('loadWorkspaceConfig reads the selected files of a real workspace', (t) => {
  const ws = tempDir(t);
  const home = path.join(ws, 'home');
  write(
    path.join(ws, '.vscode', 'mcp.json'),
    '{ "servers": { "a": { "command": "./bin/a", "envFile": "${workspaceFolder}/.env" } } }',
  );
  write(
    path.join(ws, '.mcp.json'),
    '{ "mcpServers": { "b": { "url": "https://b.example/mcp" }, "a": { "command": "dup" } } }',
  );
  write(path.join(ws, '.cursor', 'mcp.json'), '{ "mcpServers": { "c": { "command": "c" } } }');
  write(
    path.join(home, '.config', 'Claude', 'claude_desktop_config.json'),
    '{ "mcpServers": { "d": { "command": "d" } } }',
  );
  write(path.join(ws, '.env'), 'K=v\n');
  const settings = {
    ...DEFAULT_SETTINGS,
    importFrom: ['vscode', 'mcp-json', 'claude-desktop'] as typeof DEFAULT_SETTINGS.importFrom,
  };
  const r = loadWorkspaceConfig({ workspaceFolder: ws, settings, userHome: home, env: {} });
  assert.deepEqual(
    r.servers.map((s) => s.name),
    ['a', 'b', 'd'],
  );
  const a = r.servers[0];
  assert.ok(a.type === 'stdio');
  assert.deepEqual([a.command, a.env], [path.join(ws, 'bin', 'a'), { K: 'v' }]);
  assert.deepEqual(
    r.problems.map((p) => formatProblem(p, ws)),
    [
      '.mcp.json: mcpServers.a: server "a" is also defined in .vscode/mcp.json (servers.a), which takes precedence; this definition is ignored',
    ],
  );
  assert.deepEqual(r.files, [
    path.join(ws, '.vscode', 'mcp.json'),
    path.join(ws, '.mcp.json'),
    path.join(home, '.config', 'Claude', 'claude_desktop_config.json'),
    path.join(ws, '.env'),
  ]);
  assert.deepEqual(configFilesToWatch({ workspaceFolder: ws, settings, userHome: home, env: {} }), [
    path.join(ws, '.vscode', 'mcp.json'),
    path.join(ws, '.mcp.json'),
    path.join(home, '.config', 'Claude', 'claude_desktop_config.json'),
  ]);
});

test('loadWorkspaceConfig: no files is an empty config; an unreadable one is a problem', (t) => {
  const ws = tempDir(t);
  assert.deepEqual(loadWorkspaceConfig({ workspaceFolder: ws, settings: DEFAULT_SETTINGS, env: {} }).servers, []);
  mkdirSync(path.join(ws, '.mcp.json')); // a folder where the file should be
  const r = loadWorkspaceConfig({ workspaceFolder: ws, settings: DEFAULT_SETTINGS, env: {} });
  assert.deepEqual(
    r.problems.map((p) => formatProblem(p, ws)),
    ['.mcp.json: not read: it is a folder, not a regular file'],
  );
});

test('loadWorkspaceConfig with configFile reads only that file', (t) => {
  const ws = tempDir(t);
  write(path.join(ws, '.vscode', 'mcp.json'), '{ "servers": { "ws": { "command": "x" } } }');
  write(path.join(ws, 'mine.json'), '{ "mcpServers": { "mine": { "command": "m" } } }');
  const settings = { ...DEFAULT_SETTINGS, servers: { fromSettings: { command: 's' } } };
  const r = loadWorkspaceConfig({ workspaceFolder: ws, settings, configFile: path.join(ws, 'mine.json'), env: {} });
  assert.deepEqual(
    r.servers.map((s) => [s.name, s.source.kind]),
    [['mine', 'cli-config']],
  );
  const missing = loadWorkspaceConfig({
    workspaceFolder: ws,
    settings,
    configFile: path.join(ws, 'nope.json'),
    env: {},
  });
  assert.deepEqual(missing.servers, []);
  assert.deepEqual(
    missing.problems.map((p) => formatProblem(p, ws)),
    ['nope.json: config file not found'],
  );
});

test('readWorkspaceSettings gathers flat and nested mcpLens.* keys', (t) => {
  const ws = tempDir(t);
  write(
    path.join(ws, '.vscode', 'settings.json'),
    `{
      // JSONC
      "editor.tabSize": 2,
      "mcpLens.servers": { "s": { "command": "x" } },
      "mcpLens.search.defaultLimit": 5,
      "mcpLens": { "search": { "inlineSchemas": 1 }, "exclude": ["*/delete_*"] },
      "mcpLens.__proto__.polluted": true,
      "mcpLens.importFrom": ["vscode", "cursor"],
    }`,
  );
  const r = readWorkspaceSettings(ws);
  assert.equal(r.file, path.join(ws, '.vscode', 'settings.json'));
  assert.deepEqual(r.problems, []);
  assert.deepEqual(r.settings, {
    servers: { s: { command: 'x' } },
    search: { defaultLimit: 5, inlineSchemas: 1 },
    exclude: ['*/delete_*'],
    importFrom: ['vscode', 'cursor'],
  });
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  const s = sanitizeSettings(r.settings);
  assert.deepEqual(
    [s.search, s.importFrom],
    [{ defaultLimit: 5, inlineSchemas: 1, learnFromUsage: true }, ['vscode', 'cursor']],
  );
});

test('readWorkspaceSettings: missing file is empty, a syntax error is one problem at its line and column', (t) => {
  const ws = tempDir(t);
  assert.deepEqual(readWorkspaceSettings(ws).settings, {});
  write(path.join(ws, '.vscode', 'settings.json'), '{ "mcpLens.include": [ }');
  const r = readWorkspaceSettings(ws);
  assert.deepEqual(r.settings, {});
  assert.deepEqual(
    r.problems.map((p) => formatProblem(p, ws)),
    ['.vscode/settings.json:1:24: not valid JSON: expected a value'],
  );
});

test('approvalsFilePath: env override, XDG, default', () => {
  assert.equal(
    approvalsFilePath({ MCP_LENS_APPROVALS_FILE: '/tmp/a.json', XDG_CONFIG_HOME: '/x' }, '/h'),
    '/tmp/a.json',
  );
  assert.equal(approvalsFilePath({ XDG_CONFIG_HOME: '/x' }, '/h'), '/x/mcp-lens/approvals.json');
  assert.equal(approvalsFilePath({ XDG_CONFIG_HOME: 'relative' }, '/h'), '/h/.config/mcp-lens/approvals.json');
  assert.equal(approvalsFilePath({}, '/h'), '/h/.config/mcp-lens/approvals.json');
});

test('approval store round trip on a temp file', (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, 'nested', 'approvals.json');
  const wsA = path.join(dir, 'wsA');
  const wsB = path.join(dir, 'wsB');
  assert.deepEqual(loadApprovals(wsA, file), {}, 'no file = nothing approved');
  saveApprovals(wsA, { gh: '0123456789abcdef' }, file);
  saveApprovals(wsB, { fs: 'fedcba9876543210' }, file);
  saveApprovals(`${wsA}/sub/..`, { ...loadApprovals(wsA, file), web: '1111111111111111' }, file);
  assert.deepEqual(loadApprovals(wsA, file), { gh: '0123456789abcdef', web: '1111111111111111' });
  assert.deepEqual(loadApprovals(wsB, file), { fs: 'fedcba9876543210' });
  assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), {
    [wsA]: { gh: '0123456789abcdef', web: '1111111111111111' },
    [wsB]: { fs: 'fedcba9876543210' },
  });
  if (process.platform !== 'win32') {
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(statSync(path.dirname(file)).mode & 0o777, 0o700);
  }
  assert.deepEqual(readdirSync(path.dirname(file)), ['approvals.json'], 'no temp files left');
  saveApprovals(wsB, {}, file);
  assert.deepEqual(loadApprovals(wsB, file), {});
});

test('approval store: the env override is honoured and a corrupt file reads as nothing approved', (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, 'a.json');
  const saved = process.env.MCP_LENS_APPROVALS_FILE;
  process.env.MCP_LENS_APPROVALS_FILE = file;
  t.after(() =>
    saved === undefined ? delete process.env.MCP_LENS_APPROVALS_FILE : (process.env.MCP_LENS_APPROVALS_FILE = saved),
  );
  saveApprovals(dir, { a: 'x' });
  assert.deepEqual(loadApprovals(dir), { a: 'x' });
  assert.ok(readFileSync(file, 'utf8').includes('"a": "x"'));
  writeFileSync(file, '{ not json');
  assert.deepEqual(loadApprovals(dir), {});
  writeFileSync(file, JSON.stringify({ [dir]: { a: 1, b: 'ok' }, other: 'bad' }));
  assert.deepEqual(loadApprovals(dir), { b: 'ok' });
  saveApprovals(dir, { c: 'y' });
  assert.deepEqual(loadApprovals(dir), { c: 'y' });
});
