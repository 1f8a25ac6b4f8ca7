/**
 * Stdio upstream commands per platform, over the pure resolver with the platform, environment
 * and files passed in: POSIX spawns as written; Windows finds `npx` as npx.cmd through PATH and
 * PATHEXT, runs .cmd/.bat through cmd.exe with every part quoted and cmd's metacharacters
 * escaped (one argument stays one argument), runs .exe directly, and never looks in the
 * current folder. Plus line endings and a BOM in config files, as Windows editors save them.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  escapeArgument,
  findOnWindows,
  resolveStdioCommand,
  type StdioCommandContext,
} from '../../server/src/core/stdioCommand';
import { parseConfigFile } from '../../server/src/core/config/configFile';
import { configCandidates } from '../../server/src/core/config/sources';

const NODEJS = 'C:\\Program Files\\nodejs';
function win(
  files: string[],
  env: Record<string, string> = { Path: `C:\\Windows\\system32;${NODEJS}`, ComSpec: 'C:\\Windows\\system32\\cmd.exe' },
): StdioCommandContext {
  const set = new Set(files.map((f) => f.toLowerCase()));
  return { platform: 'win32', env, isFile: (f) => set.has(f.toLowerCase()) };
}

test('POSIX: spawned as written, PATH left to execvp', () => {
  for (const platform of ['linux', 'darwin']) {
    const r = resolveStdioCommand('npx', ['-y', '@modelcontextprotocol/server-memory'], {
      platform,
      env: { PATH: '/usr/bin' },
      isFile: () => true,
    });
    assert.deepEqual(r, {
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-memory'],
      windowsVerbatimArguments: false,
    });
  }
});

test('Windows: npx is npx.cmd on PATH, run by cmd.exe with the line quoted', () => {
  const r = resolveStdioCommand('npx', ['-y', '@modelcontextprotocol/server-memory'], win([`${NODEJS}\\npx.cmd`]));
  assert.equal(r.command, 'C:\\Windows\\system32\\cmd.exe');
  assert.equal(r.windowsVerbatimArguments, true);
  assert.deepEqual(r.args, [
    '/d',
    '/s',
    '/c',
    '"C:\\Program^ Files\\nodejs\\npx.cmd ^"-y^" ^"@modelcontextprotocol/server-memory^""',
  ]);
});

test('Windows: PATHEXT order decides, .exe runs directly, Path is case-insensitive, no ComSpec means cmd.exe', () => {
  const both = [`${NODEJS}\\tool.exe`, `${NODEJS}\\tool.cmd`];
  assert.deepEqual(resolveStdioCommand('tool', ['a b'], win(both)), {
    command: `${NODEJS}\\tool.exe`,
    args: ['a b'],
    windowsVerbatimArguments: false,
  });
  const cmdFirst = win(both, { PATH: NODEJS, PATHEXT: '.CMD;.EXE' });
  const r = resolveStdioCommand('tool', [], cmdFirst);
  assert.equal(r.command, 'cmd.exe');
  assert.match(r.args[3]!, /tool\.cmd"$/);
  assert.equal(
    findOnWindows('node.exe', win([`${NODEJS}\\node.exe`])),
    `${NODEJS}\\node.exe`,
    'an extension given is not extended again',
  );
  assert.equal(
    findOnWindows('C:\\tools\\server', win(['C:\\tools\\server.bat'])),
    'C:\\tools\\server.bat',
    'a path gets PATHEXT too',
  );
});

test('Windows: not found stays as written (spawn names it in ENOENT); the current folder is never searched', () => {
  const ctx = win(['C:\\ws\\npx.cmd'], { Path: NODEJS });
  assert.deepEqual(resolveStdioCommand('npx', ['-y', 'x'], ctx), {
    command: 'npx',
    args: ['-y', 'x'],
    windowsVerbatimArguments: false,
  });
});

test('Windows: cmd metacharacters and quotes in arguments cannot start a second command', () => {
  assert.equal(escapeArgument('a&calc'), '^"a^&calc^"');
  assert.equal(escapeArgument('say "hi"'), '^"say^ \\^"hi\\^"^"');
  assert.equal(
    escapeArgument('C:\\dir with space\\'),
    '^"C:\\dir^ with^ space\\\\^"',
    'trailing backslashes doubled before the closing quote',
  );
  assert.equal(escapeArgument('%PATH%|x'), '^"^%PATH^%^|x^"');
  // A node_modules/.bin shim re-parses its arguments once more: escaped twice.
  const r = resolveStdioCommand(
    'C:\\ws\\node_modules\\.bin\\server.cmd',
    ['a&b'],
    win(['C:\\ws\\node_modules\\.bin\\server.cmd']),
  );
  assert.match(r.args[3]!, /\^\^\^"a\^\^\^&b\^\^\^"/);
});

test('config files saved with a BOM and CRLF line endings read like any other, problems at the right line', () => {
  const text =
    '\uFEFF{\r\n  // Windows editor\r\n  "servers": {\r\n    "memory": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"] }\r\n  }\r\n}\r\n';
  const parsed = parseConfigFile('C:\\w\\.vscode\\mcp.json', 'vscode-mcp-json', text);
  assert.deepEqual(parsed.problems, []);
  assert.deepEqual(
    parsed.entries.map((e) => [e.name, JSON.parse(JSON.stringify(e.raw))]),
    [['memory', { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] }]],
  );
  const broken = parseConfigFile(
    'C:\\w\\.vscode\\mcp.json',
    'vscode-mcp-json',
    '\uFEFF{\r\n  "servers": {\r\n    "a": { "command": "x" },,\r\n  }\r\n}\r\n',
  );
  assert.equal(broken.problems[0]!.line, 3);
});

test("workspace config paths use the platform's separators", () => {
  assert.deepEqual(
    configCandidates('C:\\w', ['vscode', 'mcp-json', 'cursor'], 'C:\\Users\\u', {}, 'win32').map((c) => c.path),
    ['C:\\w\\.vscode\\mcp.json', 'C:\\w\\.mcp.json', 'C:\\w\\.cursor\\mcp.json', 'C:\\Users\\u\\.cursor\\mcp.json'],
  );
  assert.deepEqual(
    configCandidates('/w', ['vscode', 'cursor'], '/home/u', {}, 'darwin').map((c) => c.path),
    ['/w/.vscode/mcp.json', '/w/.cursor/mcp.json', '/home/u/.cursor/mcp.json'],
  );
});
