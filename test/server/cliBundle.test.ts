// The CLI bundle every command starts (dist/cliMain.js, which dist/cli.js runs from a code
// cache) carries no bench code: `mcp-lens bench` is dist/bench.js, loaded only for that
// command, and works from dist/ like any other. The version is package.json's, built in.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { META_TOOL_NAMES } from '../../protocol/metaToolNames';

const ROOT = join(__dirname, '..', '..');
const dist = (f: string) => join(ROOT, 'dist', f);

test('dist/cli.js and the bundle it runs hold no bench code; dist/bench.js does', () => {
  // The reference searchers exist only in bench/src.
  assert.doesNotMatch(readFileSync(dist('cli.js'), 'utf8'), /tfidf-reference/);
  assert.doesNotMatch(readFileSync(dist('cliMain.js'), 'utf8'), /tfidf-reference/);
  assert.match(readFileSync(dist('bench.js'), 'utf8'), /tfidf-reference/);
});

test('`mcp-lens bench` runs from dist/ on a dataset in the repo', () => {
  const r = spawnSync(
    process.execPath,
    [dist('cli.js'), 'bench', '--dataset', join(ROOT, 'bench', 'datasets', 'mcp-servers'), '--json'],
    {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 120_000,
    },
  );
  assert.equal(r.status, 0, r.stderr);
  const report = JSON.parse(r.stdout) as { dataset: string; results: { searcher: string; 'recall@5': number }[] };
  assert.equal(report.dataset, 'mcp-servers');
  assert.deepEqual(report.results.map((x) => x.searcher).sort(), ['bm25-reference', 'mcp-lens', 'tfidf-reference']);
  for (const x of report.results) assert.ok(x['recall@5'] > 0 && x['recall@5'] <= 1);
  const help = spawnSync(process.execPath, [dist('cli.js'), '--help'], { encoding: 'utf8' });
  assert.match(help.stdout, /mcp-lens bench --dataset DIR\|--all/);
});

test("`mcp-lens --version` is package.json's version, built in", () => {
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
  const r = spawnSync(process.execPath, [dist('cli.js'), '--version'], {
    encoding: 'utf8',
    // npm sets this for its scripts: a version read at run time rather than built in would show it.
    env: { ...process.env, npm_package_version: '9.9.9' },
  });
  assert.equal(r.stdout, `${version}\n`);
});

test('`mcp-lens serve --help` names every meta-tool, from the one declaration', () => {
  const r = spawnSync(process.execPath, [dist('cli.js'), 'serve', '--help'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  // On stderr: serve's stdout is for MCP messages only.
  assert.ok(r.stderr.includes(`meta-tools (${META_TOOL_NAMES.join(', ')})`), r.stderr);
  assert.ok(META_TOOL_NAMES.includes('run_code'));
});
