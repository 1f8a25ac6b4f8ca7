// Refreshes media/screenshots/ (the README's pictures), which no test writes: the suites that
// take screenshots leave them in test-results/ (git-ignored), so a test run never dirties the
// tree. This runs those suites — the dashboard tests in headless Chromium and the code-server
// end-to-end test (needs scripts/install-code-server.sh and `npm run package`) — then copies
// each picture media/screenshots/ holds from test-results/ when this run wrote it.
//   npm run screenshots            (both)
//   npm run screenshots -- --no-e2e (the dashboard pictures only)
import { copyFileSync, existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const ROOT = join(import.meta.dirname, '..');
const MEDIA = join(ROOT, 'media', 'screenshots');
const RESULTS = join(ROOT, 'test-results');
const withE2e = !process.argv.includes('--no-e2e');

const started = Date.now();
const run = (args) => spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit' }).status ?? 1;
let failed = run(['esbuild.mjs']) !== 0;
failed ||=
  run([
    '--import',
    'tsx',
    '--test',
    'test/server/dashboard.test.ts',
    'test/server/dashboardUx.test.ts',
    'test/server/dashboardLearned.test.ts',
  ]) !== 0;
if (withE2e) failed ||= run(['test/run.mjs', 'test/e2e']) !== 0;
if (failed) {
  console.error('screenshots: a suite failed; media/screenshots/ is left as it was');
  process.exit(1);
}

const fresh = (name) => {
  const file = join(RESULTS, name);
  return existsSync(file) && statSync(file).mtimeMs >= started;
};
const pictures = readdirSync(MEDIA).filter((n) => n.endsWith('.png'));
const copied = pictures.filter(fresh);
for (const name of copied) copyFileSync(join(RESULTS, name), join(MEDIA, name));
const stale = pictures.filter((n) => !copied.includes(n));
console.log(
  `screenshots: ${copied.length} of ${pictures.length} refreshed in media/screenshots/${copied.length ? `: ${copied.join(', ')}` : ''}`,
);
if (stale.length) console.log(`not taken by this run (left as they were): ${stale.join(', ')}`);
