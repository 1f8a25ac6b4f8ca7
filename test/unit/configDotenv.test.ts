// The envFile format.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDotenv } from '../../server/src/core/config/dotenv';

test('parseDotenv', async (t) => {
  const cases: { name: string; text: string; values: Record<string, string>; errors?: { line: number; message: string }[] }[] = [
    { name: 'plain', text: 'A=1\nB=two', values: { A: '1', B: 'two' } },
    { name: 'comments and blank lines', text: '# top\n\n  # indented\nA=1\n', values: { A: '1' } },
    { name: 'export prefix', text: 'export A=1\nexport  B=2', values: { A: '1', B: '2' } },
    { name: 'spaces around =', text: 'A = 1 ', values: { A: '1' } },
    { name: 'trailing comment on unquoted', text: 'A=1 # one', values: { A: '1' } },
    { name: '# inside a value without space stays', text: 'A=a#b', values: { A: 'a#b' } },
    { name: 'double quotes with escapes', text: 'A="x\\ny \\"q\\" \\\\"', values: { A: 'x\ny "q" \\' } },
    { name: 'double quotes keep # and spaces', text: 'A=" v # not comment "  # comment', values: { A: ' v # not comment ' } },
    { name: 'single quotes are literal', text: "A='x\\n ${B}'", values: { A: 'x\\n ${B}' } },
    { name: 'multi-line double quoted', text: 'A="line1\nline2"\nB=3', values: { A: 'line1\nline2', B: '3' } },
    { name: 'empty value', text: 'A=\nB=""', values: { A: '', B: '' } },
    { name: '= inside value', text: 'A=b=c', values: { A: 'b=c' } },
    { name: 'later wins', text: 'A=1\nA=2', values: { A: '2' } },
    { name: 'CRLF and BOM', text: '\uFEFFA=1\r\nB=2\r\n', values: { A: '1', B: '2' } },
    {
      name: 'bad lines are reported, not fatal',
      text: 'A=1\nnot a pair\n1X=2\nB=2',
      values: { A: '1', B: '2' },
      errors: [
        { line: 2, message: 'expected KEY=VALUE' },
        { line: 3, message: 'expected KEY=VALUE' },
      ],
    },
    {
      name: 'unterminated quote skips that line only',
      text: 'A="open\nB=2',
      values: { B: '2' },
      errors: [{ line: 1, message: 'unterminated double-quoted value' }],
    },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.deepEqual(parseDotenv(c.text), { values: c.values, errors: c.errors ?? [] }));
  }
});
