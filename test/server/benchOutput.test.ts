// Where `mcp-lens bench --all` writes its sections: into the repository's tracked
// bench-results.md only when run inside the repository's checkout; run anywhere else (another
// project, an installed package) into bench-results.md in the working folder, or `--out FILE`;
// and it says where it wrote. The run from outside goes through the built CLI (dist/cli.js →
// dist/bench.js) on a three-request set; the choice inside the checkout is checked on the
// function that makes it, so no test rewrites the tracked file.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchResultsFile, repoRoot } from '../../bench/src/benchFiles';

const ROOT = join(__dirname, '..', '..');
const TRACKED = join(ROOT, 'bench-results.md');

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-lens-bench-out-'));
  const set = join(dir, 'sets', 'tiny');
  mkdirSync(set, { recursive: true });
  writeFileSync(
    join(set, 'tools.json'),
    JSON.stringify([
      { server: 'weather', name: 'get_forecast', description: 'Weather forecast for a city' },
      { server: 'files', name: 'read_file', description: 'Read a file from disk' },
    ]),
  );
  writeFileSync(
    join(set, 'queries.json'),
    JSON.stringify([
      { id: 't1', query: 'forecast for Paris', gold: ['weather/get_forecast'] },
      { id: 't2', query: 'read the file', gold: ['files/read_file'] },
    ]),
  );
  mkdirSync(join(dir, 'work'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

function benchFrom(cwd: string, args: string[]) {
  return spawnSync(process.execPath, [join(ROOT, 'dist', 'cli.js'), 'bench', '--all', ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, MCP_LENS_BENCH_DIR: join(dir, 'sets') },
    timeout: 120_000,
  });
}

test('run outside the checkout, `bench --all` writes bench-results.md in the working folder and leaves the tracked one alone', () => {
  const tracked = { text: readFileSync(TRACKED, 'utf8'), mtime: statSync(TRACKED).mtimeMs };
  const work = join(dir, 'work');
  const r = benchFrom(work, []);
  assert.equal(r.status, 0, r.stderr);
  const written = join(work, 'bench-results.md');
  assert.match(readFileSync(written, 'utf8'), /<!-- search bench: start -->[\s\S]*## tiny/);
  assert.ok(r.stderr.includes(`bench: wrote the search section of ${written}`), r.stderr);
  assert.equal(readFileSync(TRACKED, 'utf8'), tracked.text);
  assert.equal(statSync(TRACKED).mtimeMs, tracked.mtime);
});

test('`--out FILE` is taken relative to the working folder, and the run names it', () => {
  const work = join(dir, 'work');
  const r = benchFrom(work, ['--out', 'figures.md']);
  assert.equal(r.status, 0, r.stderr);
  assert.match(readFileSync(join(work, 'figures.md'), 'utf8'), /## tiny/);
  assert.ok(r.stderr.includes(`bench: wrote the search section of ${join(work, 'figures.md')}`), r.stderr);
});

test("inside the checkout, anywhere below its root, the file is the checkout's own; a root without .git is no checkout", () => {
  assert.equal(repoRoot(), ROOT);
  assert.equal(benchResultsFile(undefined, ROOT), TRACKED);
  assert.equal(benchResultsFile(undefined, join(ROOT, 'test', 'server')), TRACKED);
  assert.equal(benchResultsFile(undefined, dir), join(dir, 'bench-results.md'));
  assert.equal(benchResultsFile('x.md', join(ROOT, 'test')), join(ROOT, 'test', 'x.md'));
  // An installed package: a package.json at its root, no .git.
  const installed = join(dir, 'node_modules', 'mcp-lens');
  mkdirSync(join(installed, 'dist'), { recursive: true });
  writeFileSync(join(installed, 'package.json'), '{}');
  assert.equal(
    benchResultsFile(undefined, join(installed, 'dist'), installed),
    join(installed, 'dist', 'bench-results.md'),
  );
});
