// The envFile format, read as VS Code reads it (microsoft/vscode src/vs/base/common/envfile.ts):
// each expected value below is what VS Code's parseEnvFile gives for the text. Node's
// util.parseEnv is measured on the same table (a diagnostic: it differs, see dotenv.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as util from 'node:util';
import { parseDotenv } from '../../server/src/core/config/dotenv';

type Case = { name: string; text: string; vscode: Record<string, string>; warnings?: number[] };

const CASES: Case[] = [
  { name: 'plain', text: 'A=1\nB=two', vscode: { A: '1', B: 'two' } },
  { name: 'KEY: value', text: 'A: 1\nB:two', vscode: { A: '1', B: 'two' } },
  { name: 'a colon after = is part of the value', text: 'URL=http://x:80/a', vscode: { URL: 'http://x:80/a' } },
  { name: 'the first = or : separates', text: 'A:b=c', vscode: { A: 'b=c' } },
  { name: 'export prefix', text: 'export A=1\nexport  B=2', vscode: { A: '1', B: '2' } },
  { name: 'spaces around = and indentation', text: '   A = 1 \n\tB=2', vscode: { A: '1', B: '2' } },
  { name: 'comments and blank lines', text: '# top\n\n  # indented\nA=1\n', vscode: { A: '1' } },
  { name: 'trailing comment', text: 'A=1 # one', vscode: { A: '1' } },
  { name: '# without a space before it is a comment too', text: 'A=a#b', vscode: { A: 'a' } },
  { name: '# inside quotes stays', text: 'A=" v # not comment "  # c', vscode: { A: ' v # not comment ' } },
  { name: 'single quotes are literal', text: "A='x\\n ${B}'", vscode: { A: 'x\\n ${B}' } },
  { name: 'double quotes: \\n and \\r become a newline and a CR', text: 'A="x\\ny\\rz"', vscode: { A: 'x\ny\rz' } },
  { name: 'double quotes: other backslashes stay', text: 'A="t\\tq\\"b\\\\"', vscode: { A: 't\\tq\\"b\\\\' } },
  { name: 'backticks', text: 'A=`back tick`', vscode: { A: 'back tick' } },
  { name: 'quotes inside backticks', text: 'A=`say "hi" it\'s`', vscode: { A: 'say "hi" it\'s' } },
  { name: 'empty values', text: 'A=\nB=""\nC=\'\'\nD=``', vscode: { A: '', B: '', C: '', D: '' } },
  { name: '= inside a value', text: 'A=b=c', vscode: { A: 'b=c' } },
  { name: 'duplicate keys: the last wins', text: 'A=1\nA=2', vscode: { A: '2' } },
  { name: 'CRLF, a lone CR and a BOM', text: '\uFEFFA=1\r\nB=2\rC=3\r\n', vscode: { A: '1', B: '2', C: '3' } },
  {
    name: 'a double-quoted value cannot span lines',
    text: 'A="line1\nline2"\nB=3',
    vscode: { A: '"line1', B: '3' },
    warnings: [1, 2],
  },
  {
    name: 'a single-quoted value cannot span lines',
    text: "A='line1\nline2'\nB=3",
    vscode: { A: "'line1", B: '3' },
    warnings: [1, 2],
  },
  {
    name: 'an unterminated quote is taken as written',
    text: 'A="open\nB=2',
    vscode: { A: '"open', B: '2' },
    warnings: [1],
  },
  {
    name: 'a quoted value followed by text is taken as written',
    text: 'A="x" y',
    vscode: { A: '"x" y' },
    warnings: [1],
  },
  { name: 'inner quotes in an unquoted value', text: 'A={"foo": "bar"}', vscode: { A: '{"foo": "bar"}' } },
  { name: 'a line without = or : is skipped', text: 'not a pair\nB=2', vscode: { B: '2' }, warnings: [1] },
  { name: 'a key may start with a digit', text: '1X=2', vscode: { '1X': '2' } },
  { name: 'a key may hold a space', text: 'MY KEY=1', vscode: { 'MY KEY': '1' } },
  { name: 'an empty key is skipped', text: '=1\nB=2', vscode: { B: '2' }, warnings: [1] },
  { name: 'an unquoted value is trimmed', text: 'A=  some spaced out  ', vscode: { A: 'some spaced out' } },
  { name: '"export" needs a space after it', text: 'exportA=1', vscode: { exportA: '1' } },
];

test('parseDotenv gives what VS Code gives', async (t) => {
  for (const c of CASES) {
    await t.test(c.name, () => {
      const r = parseDotenv(c.text);
      assert.deepEqual(r.values, c.vscode);
      assert.deepEqual(
        r.warnings.map((w) => w.line),
        c.warnings ?? [],
      );
    });
  }
});

test('warnings name the line and the key, never the value (env files hold secrets)', () => {
  const r = parseDotenv('TOKEN="s3cr3t-value\nno pair s3cr3t-value\n');
  assert.equal(r.warnings.length, 2);
  for (const w of r.warnings) assert.ok(!w.message.includes('s3cr3t'), w.message);
  assert.match(r.warnings[0]!.message, /TOKEN starts with " but does not end with it/);
});

test("Node's util.parseEnv on the same table (measured, for the choice in dotenv.ts)", (t) => {
  const parseEnv = (util as { parseEnv?: (s: string) => Record<string, string> }).parseEnv;
  if (!parseEnv) return t.skip('util.parseEnv needs Node 20.12');
  const differ = CASES.filter((c) => JSON.stringify({ ...parseEnv(c.text) }) !== JSON.stringify(c.vscode)).map(
    (c) => c.name,
  );
  t.diagnostic(
    `util.parseEnv (${process.version}) agrees with VS Code on ${CASES.length - differ.length}/${CASES.length}; differs on: ${differ.join('; ')}`,
  );
  // It cannot stand in for VS Code's parser: `KEY: value` lines are VS Code's and not Node's.
  assert.ok(differ.includes('KEY: value'));
});
