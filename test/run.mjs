// Runs node's test runner over test files found by folder, or named (Node 20's --test has no globs).
// Usage: node test/run.mjs [--preflight] [folder-or-file ...]   (default: test/unit test/tooling test/server)
// --preflight only checks that the tests can run (npm test runs it first, before the build).
//
// Browser tests (those that drive headless Chromium through test/fixtures/lens/dashboardPage.ts)
// need the system's Chromium. Without it the run stops at once with one line saying so, rather
// than starting and cancelling them; MCP_LENS_SKIP_BROWSER_TESTS=1 runs everything else and
// names what it left out.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

function collect(path) {
  if (!statSync(path).isDirectory()) return [path];
  const out = [];
  for (const name of readdirSync(path)) {
    const p = join(path, name);
    if (statSync(p).isDirectory()) out.push(...collect(p));
    else if (name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

const args = process.argv.slice(2);
const preflight = args.includes('--preflight');
const named = args.filter((a) => a !== '--preflight');
const dirs = named.length ? named : ['test/unit', 'test/tooling', 'test/server'];
let files = dirs.flatMap(collect).sort();
if (files.length === 0) {
  console.error('no test files under', dirs.join(', '));
  process.exit(1);
}

const BROWSER = /fixtures\/lens\/dashboardPage'|from '\.\/codeServer'/;
const browserTests = files.filter((f) => BROWSER.test(readFileSync(f, 'utf8')));
const chromium =
  process.env.MCP_LENS_CHROMIUM ||
  JSON.parse(readFileSync(new URL('./fixtures/lens/browser.json', import.meta.url), 'utf8')).chromium;
if (browserTests.length && !existsSync(chromium)) {
  if (process.env.MCP_LENS_SKIP_BROWSER_TESTS !== '1') {
    console.error(
      `no Chromium at ${chromium}: ${browserTests.length} browser test files need it. Install it (apt-get install chromium), set MCP_LENS_CHROMIUM to its path, or set MCP_LENS_SKIP_BROWSER_TESTS=1 to run the rest without them.`,
    );
    process.exit(1);
  }
  console.error(`MCP_LENS_SKIP_BROWSER_TESTS=1: not running ${browserTests.join(', ')} (no Chromium at ${chromium})`);
  files = files.filter((f) => !browserTests.includes(f));
}

if (preflight) process.exit(0);

// The CLI keeps each workspace's caches in the user's state folder, and its code cache in the
// user's cache folder: tests' go to temp ones.
const state = mkdtempSync(join(tmpdir(), 'mcp-lens-test-state-'));
const cache = mkdtempSync(join(tmpdir(), 'mcp-lens-test-cache-'));
const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', ...files], {
  stdio: 'inherit',
  env: { ...process.env, XDG_STATE_HOME: state, XDG_CACHE_HOME: cache },
});
rmSync(state, { recursive: true, force: true });
rmSync(cache, { recursive: true, force: true });
process.exit(r.status ?? 1);
