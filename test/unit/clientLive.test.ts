// The pure parts of the extension behind #15's editor fixes: the server definition's version,
// the approval status item, the List Servers rows, which duplicates the notice counts, and the
// log level of a clean sidecar exit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import type { ServerStatus } from '../../protocol/model';
import { duplicateServers } from '../../client/src/duplicateServers';
import { launchVersion } from '../../client/src/launchVersion';
import { levelRoutingChannel } from '../../client/src/logChannel';
import { serverItems } from '../../client/src/commands/serverItems';
import { approvalText, signInText } from '../../client/src/statusText';
import { parseConfigFile } from '../../server/src/core/config/configFile';
import { configFileRows } from '../../server/src/app/serverStatuses';

function status(name: string, state: ServerStatus['state'], extra: Partial<ServerStatus> = {}): ServerStatus {
  return {
    name,
    transport: 'stdio',
    state,
    source: 'vscode-mcp-json',
    sourceFile: '/w/.vscode/mcp.json',
    toolCount: 2,
    promptCount: 0,
    resourceCount: 0,
    stderrTail: [],
    restarts: 0,
    alsoStartedByEditor: true,
    ...extra,
  };
}

test('the definition version follows the URL and token only, and hides the token', () => {
  const a = launchVersion({ url: 'http://127.0.0.1:4000/mcp', token: 'secret-token' });
  assert.equal(a, launchVersion({ url: 'http://127.0.0.1:4000/mcp', token: 'secret-token' }));
  assert.notEqual(a, launchVersion({ url: 'http://127.0.0.1:4001/mcp', token: 'secret-token' }));
  assert.notEqual(a, launchVersion({ url: 'http://127.0.0.1:4000/mcp', token: 'other-token' }));
  assert.doesNotMatch(a, /secret/);
});

test('the approval item counts the waiting servers and is absent when none wait', () => {
  assert.equal(approvalText([]), undefined);
  assert.equal(approvalText(['gh'])?.text, '$(shield) 1 server awaiting approval');
  assert.equal(approvalText(['gh', 'db'])?.text, '$(shield) 2 servers awaiting approval');
  assert.match(approvalText(['gh', 'db'])!.tooltip, /gh, db/);
  // A wider workspace tool filter waiting for approval shows too, alone or beside servers.
  assert.equal(approvalText([], true)?.text, '$(shield) tool filter change awaiting approval');
  assert.match(approvalText([], true)!.tooltip, /mcpLens\.include \/ mcpLens\.exclude/);
  assert.equal(approvalText(['gh'], true)?.text, '$(shield) 1 server and a tool filter change awaiting approval');
});

test('List Servers puts what needs the user first and says what picking does', () => {
  const items = serverItems([
    status('b-ok', 'ready'),
    status('a-failed', 'error', { error: 'exited' }),
    status('z-new', 'awaiting-approval', { error: 'Not started: … It runs: node x.js' }),
    status('.vscode/mcp.json', 'error', { configFile: true, error: 'invalid JSONC: … line 3, column 5' }),
    status('lazy', 'idle', { fromCache: true }),
    status('$(bomb)', 'ready'),
  ]);
  assert.deepEqual(
    items.map((i) => i.action.kind),
    ['approve', 'open', 'restart', 'none', 'none', 'none'],
  );
  assert.match(items[0]!.description, /awaiting approval — select to approve/);
  assert.match(
    items.find((i) => i.label.includes('lazy'))!.description,
    /idle: starts on its first call · 2 tools \(last known\)/,
  );
  assert.ok(
    items.some((i) => i.label.includes('\\$(bomb)')),
    'icons in names are escaped',
  );
});

/** Characters a row of VS Code's quick pick shows whole at its default width (600 px) and font. */
const ROW_CHARS = 90;

test('List Servers: awaiting approval is a state with its action, a syntax error is said whole, nothing is cut', () => {
  const file = '/w/.vscode/mcp.json';
  const syntax = parseConfigFile(file, 'vscode-mcp-json', '{\n  "servers": {\n    "a": {}, {\n').problems[0]!;
  const [fileRow] = configFileRows(
    [{ ...syntax, note: 'MCP Lens keeps running the servers of its last valid version' }],
    '/w',
  );
  const waiting = status('later', 'awaiting-approval', {
    error: `Not started: this server is new or its definition changed, and needs your approval. It runs: node ${'/very/long/path'.repeat(8)}/x.js`,
    approval: { fingerprint: 'f', details: ['server: later', 'command: node'] },
  });
  const items = serverItems([waiting, fileRow!]);
  for (const i of items) {
    // An icon is one glyph wide.
    const row = `${i.label.replace(/\$\([a-z~-]+\)/g, 'XX')} ${i.description}`;
    assert.ok(row.length <= ROW_CHARS, row);
    assert.ok((i.detail ?? '').length <= ROW_CHARS, i.detail);
  }
  assert.equal(items[0]!.description, 'awaiting approval — select to approve');
  assert.equal(items[0]!.detail, 'Not started until you approve it; approving shows exactly what it runs.');
  assert.equal(items[1]!.detail, 'line 3, column 14: not valid JSON: expected a property name in double quotes');
  assert.match(items[1]!.description, /select to open it · its last valid version still runs/);
});

test('a server that needs sign-in: List Servers signs in to it, the status bar item names it or counts them', () => {
  const items = serverItems([
    status('b-ok', 'ready'),
    status('a-failed', 'error'),
    status('linear', 'needs-sign-in', { error: 'needs sign-in (…)', fromCache: true }),
  ]);
  assert.deepEqual(
    items.map((i) => [i.action.kind, i.action.kind === 'signIn' ? i.action.name : '']),
    [
      ['signIn', 'linear'],
      ['restart', ''],
      ['none', ''],
    ],
  );
  assert.match(items[0]!.description, /needs sign-in — select to sign in · 2 tools \(last known\)/);
  // The row's line says what signing in does, not the server's reason again (it was cut: "…use Sign in (status bar, "MCP Lens: List …").
  const reason =
    'needs sign-in (the server asks for an account; use Sign in (status bar, "MCP Lens: List Servers" or the dashboard))';
  const [asked] = serverItems([status('linear', 'needs-sign-in', { error: reason })]);
  assert.equal(asked!.detail, 'The server asks for an account; signing in opens its page in your browser.');
  assert.ok(asked!.detail!.length <= ROW_CHARS);
  const [failed] = serverItems([
    status('linear', 'needs-sign-in', { error: 'needs sign-in (sign-in failed: the browser was closed)' }),
  ]);
  assert.equal(failed!.detail, 'Sign-in failed: the browser was closed', 'a failure keeps its cause');
  assert.equal(signInText([]), undefined);
  assert.deepEqual(signInText(['linear']), {
    text: '$(sign-in) linear: needs sign-in',
    tooltip: 'linear needs an account: its tools are found but cannot be called until you sign in. Click to sign in.',
    args: ['linear'],
  });
  assert.equal(signInText(['a', 'b'])?.text, '$(sign-in) 2 servers need sign-in');
  assert.deepEqual(signInText(['a', 'b'])?.args, [], 'several: the command asks which');
  assert.equal(signInText(['$(bomb)'])?.text, '$(sign-in) \\$(bomb): needs sign-in', 'icons in names are escaped');
});

test('the duplicate notice counts only working .vscode/mcp.json servers', () => {
  const servers = [
    status('ok', 'ready'),
    status('broken', 'disabled'),
    status('failing', 'error'),
    status('waiting', 'awaiting-approval'),
    status('.vscode/mcp.json', 'error', { configFile: true }),
    status('settings', 'ready', { source: 'settings' }),
  ];
  assert.deepEqual(
    duplicateServers(servers, { working: true }).map((s) => s.name),
    ['ok'],
  );
  // Moving takes every entry that can run, not invalid ones or the file row.
  assert.deepEqual(
    duplicateServers(servers).map((s) => s.name),
    ['ok', 'failing', 'waiting'],
  );
});

test('a clean sidecar exit (code 0) is info, not an error', () => {
  const lines: string[] = [];
  const at = (level: string) => (text: string) => void lines.push(`${level}: ${text}`);
  const log = {
    name: 'MCP Lens',
    error: at('error'),
    warn: at('warn'),
    info: at('info'),
    debug: at('debug'),
    trace: at('trace'),
  } as unknown as vscode.LogOutputChannel;
  const channel = levelRoutingChannel(log);
  channel.appendLine('[Error - 12:00:00] Server process exited with code 0.');
  channel.appendLine('[Error - 12:00:01] Server process exited with code 1.');
  assert.deepEqual(lines, ['info: Server process exited with code 0.', 'error: Server process exited with code 1.']);
});
