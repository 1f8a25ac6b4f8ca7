/**
 * The CLI's pure parts: one option table makes both the parser and the help (commandLine.ts),
 * the exit code a workspace earns (workspaceVerdict.ts), and text cut at a word with an
 * ellipsis (cutAtWord).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerStatus } from '../../protocol/model';
import { cutAtWord } from '../../protocol/untrustedText';
import { commandHelp, parseCommand, type CliOptions, type CommandSpec } from '../../server/src/cli/commandLine';
import { EXIT } from '../../server/src/cli/exitCodes';
import { unknownServerMessage, workspaceVerdict } from '../../server/src/cli/workspaceVerdict';

const SPEC = {
  name: 'demo',
  args: 'QUERY',
  positionals: { min: 1, max: 2 },
  summary: 'a demo',
  description: 'Does a demo.',
  options: {
    limit: { short: 'n', value: 'N', integer: { min: 1, max: 50 }, help: 'how many (default 5)' },
    http: { value: 'PORT', optionalValue: true, integer: { min: 0, max: 65535 }, help: 'serve over HTTP' },
    name: { value: 'NAME', help: 'a name' },
    json: { help: 'as JSON' },
  },
} as const satisfies CommandSpec<CliOptions>;

/** parseCommand prints usage errors; keep them out of the test output and return them. */
function parse(argv: string[]) {
  const write = process.stderr.write.bind(process.stderr);
  let stderr = '';
  process.stderr.write = ((chunk: string) => ((stderr += chunk), true)) as typeof process.stderr.write;
  try {
    return { parsed: parseCommand(SPEC, argv), stderr };
  } finally {
    process.stderr.write = write;
  }
}

test('parseCommand: typed values from the table; --http with and without its port', () => {
  const ok = (argv: string[]) => {
    const { parsed } = parse(argv);
    assert.ok(!('exit' in parsed), JSON.stringify(parsed));
    return parsed;
  };
  assert.deepEqual(ok(['q', '-n', '7', '--json']).values, { limit: 7, json: true });
  assert.deepEqual(ok(['q', '--http']).values, { http: true });
  assert.deepEqual(ok(['--http', '8080', 'q']).values, { http: 8080 });
  assert.deepEqual(ok(['q', '--http=0', '--name', 'x']).values, { http: 0, name: 'x' });
  assert.deepEqual(ok(['a', 'b']).positionals, ['a', 'b']);
});

test('parseCommand: a usage error is exit 2 and one line plus a hint', () => {
  for (const [argv, said] of [
    [['q', '--limit', '99'], /--limit wants a whole number from 1 to 50, got "99"/],
    [['q', '--http=70000'], /--http wants a whole number from 0 to 65535/],
    [['q', '--bogus'], /Unknown option '--bogus'$/m],
    [[], /missing QUERY/],
    [['a', 'b', 'c'], /unexpected argument "c"/],
  ] as const) {
    const { parsed, stderr } = parse([...argv]);
    assert.deepEqual(parsed, { exit: EXIT.usage }, argv.join(' '));
    assert.match(stderr, said);
    assert.deepEqual(stderr.trimEnd().split('\n').length, 2, stderr);
    assert.match(stderr, /Run `mcp-lens demo --help` for its options\.$/m);
  }
});

test('commandHelp lists every option of the table, and --help, with its value', () => {
  const help = commandHelp(SPEC);
  assert.match(help, /^Usage: mcp-lens demo QUERY \[--limit N\] \[--http \[PORT\]\] \[--name NAME\] \[--json\]$/m);
  for (const line of [
    /^ {2}--limit, -n N +how many \(default 5\)$/m,
    /^ {2}--http \[PORT\] +serve/m,
    /^ {2}--help, -h +show this help$/m,
  ])
    assert.match(help, line);
  assert.ok(
    help.split('\n').every((l) => l.length <= 100),
    help,
  );
});

const row = (name: string, state: ServerStatus['state'], extra: Partial<ServerStatus> = {}): ServerStatus =>
  ({
    name,
    state,
    transport: 'stdio',
    source: 'vscode-mcp-json',
    sourceFile: '/w/.vscode/mcp.json',
    toolCount: 0,
    ...extra,
  }) as ServerStatus;

test('workspaceVerdict: the exit code and its one line for each way a workspace can fail', () => {
  const facts = (servers: ServerStatus[], problems: Parameters<typeof workspaceVerdict>[0]['problems'] = []) =>
    workspaceVerdict({ servers, problems, looked: ['.vscode/mcp.json', '.mcp.json'], workspace: '/w' });
  assert.deepEqual(facts([row('a', 'ready'), row('b', 'error')]), { code: EXIT.ok, usable: true });
  assert.equal(facts([row('a', 'idle')]).code, EXIT.ok, 'left stopped on purpose (cached catalog) is not a failure');
  const none = facts([]);
  assert.equal(none.code, EXIT.config);
  assert.equal(none.message, 'no MCP server configured in /w: looked in .vscode/mcp.json and .mcp.json');
  const broken = facts(
    [row('.vscode/mcp.json', 'error', { configFile: true }), row('a', 'ready')],
    [{ severity: 'error', file: '/w/.vscode/mcp.json', path: '', message: 'not valid JSON', line: 2, column: 3 }],
  );
  assert.equal(broken.code, EXIT.config);
  assert.ok(broken.usable, 'the other servers still answer');
  assert.equal(facts([row('a', 'awaiting-approval'), row('b', 'error')]).code, EXIT.notApproved);
  assert.equal(facts([row('a', 'error'), row('b', 'needs-sign-in')]).code, EXIT.failure);
  assert.equal(facts([row('a', 'disabled')]).code, EXIT.config);
});

test('unknownServerMessage: close names and the servers there are', () => {
  const servers = [row('memory', 'ready'), row('github', 'ready'), row('x.json', 'error', { configFile: true })];
  assert.equal(unknownServerMessage('memory', servers), undefined);
  assert.equal(
    unknownServerMessage('memry', servers),
    `unknown server "memry" (did you mean memory?); the workspace's servers: memory, github`,
  );
  assert.equal(
    unknownServerMessage('x.json', servers),
    `unknown server "x.json"; the workspace's servers: memory, github`,
  );
});

test('cutAtWord: whole when it fits, else at a word with an ellipsis, within the width', () => {
  assert.equal(cutAtWord('short text', 20), 'short text');
  assert.equal(cutAtWord('Read the complete contents of a file', 20), 'Read the complete…');
  assert.equal(cutAtWord('Relations should be in active voice.', 28), 'Relations should be in…');
  // One long word: cut inside it, still marked.
  assert.equal(cutAtWord('a_very_long_identifier_without_spaces', 10), 'a_very_lo…');
  for (const max of [5, 17, 40]) assert.ok(cutAtWord('word '.repeat(30), max).length <= max);
});
