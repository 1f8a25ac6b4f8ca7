// Runs node's test runner over test files found by folder (Node 20's --test has no globs).
// Usage: node test/run.mjs [folder ...]   (default: test/unit test/server)
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

function collect(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...collect(p));
    else if (name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

const dirs = process.argv.slice(2).length ? process.argv.slice(2) : ['test/unit', 'test/server'];
const files = dirs.flatMap(collect).sort();
if (files.length === 0) {
  console.error('no test files under', dirs.join(', '));
  process.exit(1);
}
// The CLI keeps each workspace's caches in the user's state folder: tests' go to a temp one.
const state = mkdtempSync(join(tmpdir(), 'mcp-lens-test-state-'));
const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', ...files], {
  stdio: 'inherit',
  env: { ...process.env, XDG_STATE_HOME: state },
});
rmSync(state, { recursive: true, force: true });
process.exit(r.status ?? 1);
