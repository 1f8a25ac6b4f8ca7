// Runs the tests that use LanceDB (test/server/annIndex, annMemory, toolStore, index and
// indexSnapshot) against each LanceDB version the VSIXs ship (scripts/vsix/targets.mjs:
// 0.22.3, 0.31.0, 0.37.1), so the README's claim that the store works the same in all of them
// has a command behind it.
//
// The registry here carries native builds of all three only for linux-x64 (glibc), so that is
// what runs: for each version, @lancedb/lancedb and @lancedb/lancedb-linux-x64-gnu at that
// version are installed from the npm registry into a temp folder (optional and peer
// dependencies left out), and the server sources and tests are copied into a second temp folder
// whose node_modules links every package of this checkout except @lancedb, which is the
// installed one. apache-arrow stays this checkout's single copy (LanceDB's peer): two copies
// would fail instanceof checks. Each run first prints the LanceDB version it actually loaded.
// This checkout's node_modules is never touched.
//
// Usage: node scripts/lance-versions.mjs [--versions 0.22.3,0.31.0,0.37.1] [--keep]
// Exit code 0 when every version passed.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { TARGETS } from './vsix/targets.mjs';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const argv = process.argv.slice(2);
const listed = argv.includes('--versions') ? argv[argv.indexOf('--versions') + 1] : undefined;
const versions = listed
  ? listed
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean)
  : [...new Set(TARGETS.flatMap((t) => (t.lance ? [t.lance.version] : [])))].sort(semver);
const keep = argv.includes('--keep');
const TESTS = [
  'test/server/annIndex.test.ts',
  'test/server/annMemory.test.ts',
  'test/server/toolStore.test.ts',
  'test/server/index.test.ts',
  'test/server/indexSnapshot.test.ts',
];
const NATIVE = '@lancedb/lancedb-linux-x64-gnu';

/**
 * Prints `@lancedb/lancedb <version>, <native package> <version>` as the file in argv[1] resolves
 * them, then a second line: the Node versions LanceDB declares and what loading it added to RSS.
 */
const PROBE = `
const { createRequire } = require('node:module');
const path = require('node:path');
const fs = require('node:fs');
const req = createRequire(process.argv[1]);
const manifest = (id) => {
  for (let d = path.dirname(req.resolve(id)); ; d = path.dirname(d)) {
    const f = path.join(d, 'package.json');
    if (fs.existsSync(f) && JSON.parse(fs.readFileSync(f, 'utf8')).name === id) return JSON.parse(fs.readFileSync(f, 'utf8'));
    if (path.dirname(d) === d) return { version: '?' };
  }
};
const before = process.memoryUsage().rss;
req('@lancedb/lancedb');
const added = process.memoryUsage().rss - before;
const lance = manifest('@lancedb/lancedb');
console.log('@lancedb/lancedb ' + lance.version + ', ' + process.argv[2] + ' ' + manifest(process.argv[2]).version);
console.log('engines.node ' + JSON.stringify(lance.engines && lance.engines.node) + ', loading it added ' + (added / 2 ** 20).toFixed(1) + ' MiB RSS');
`;

function semver(a, b) {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i] - pb[i];
  return 0;
}

function run(cmd, args, cwd, env = process.env) {
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { status: r.status, out: `${r.stdout ?? ''}${r.stderr ?? ''}` };
}

/** LanceDB `version` and its linux-x64-gnu build, from the registry, into `<dir>/node_modules`. */
function install(version, dir) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({
      name: 'lance-versions',
      private: true,
      dependencies: { '@lancedb/lancedb': version, [NATIVE]: version },
    }),
  );
  const r = run(
    'npm',
    [
      'install',
      '--omit=optional',
      '--omit=peer',
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
      '--no-package-lock',
      '--loglevel=error',
    ],
    dir,
  );
  if (r.status !== 0) throw new Error(`npm install of LanceDB ${version} failed:\n${r.out}`);
  // LanceDB's peer: this checkout's copy, the one the store code loads too.
  const arrow = join(dir, 'node_modules', 'apache-arrow');
  rmSync(arrow, { recursive: true, force: true });
  symlinkSync(join(root, 'node_modules', 'apache-arrow'), arrow, 'dir');
}

/** The sources and tests, with this checkout's packages linked in and `@lancedb` from `lance`. */
function workspace(dir, lance) {
  for (const d of ['server', 'protocol', 'test']) cpSync(join(root, d), join(dir, d), { recursive: true });
  for (const f of ['package.json', 'tsconfig.json', 'tsconfig.base.json']) cpSync(join(root, f), join(dir, f));
  const nm = join(dir, 'node_modules');
  mkdirSync(nm);
  for (const name of readdirSync(join(root, 'node_modules'))) {
    if (name.startsWith('.') || name === '@lancedb') continue;
    symlinkSync(join(root, 'node_modules', name), join(nm, name), 'dir');
  }
  symlinkSync(join(lance, 'node_modules', '@lancedb'), join(nm, '@lancedb'), 'dir');
}

/** `# pass N` / `# fail N` from the test runner's TAP summary. */
function counts(out) {
  const n = (k) => Number(new RegExp(`^# ${k} (\\d+)$`, 'm').exec(out)?.[1] ?? NaN);
  return { pass: n('pass'), fail: n('fail') };
}

const base = mkdtempSync(join(tmpdir(), 'mcp-lens-lance-versions-'));
const results = [];
try {
  for (const version of versions) {
    const lance = join(base, `lance-${version}`);
    const work = join(base, `work-${version}`);
    console.log(`\n== LanceDB ${version} (${NATIVE})`);
    try {
      install(version, lance);
      workspace(work, lance);
    } catch (err) {
      console.log(String(err instanceof Error ? err.message : err));
      results.push({ version, loaded: '-', pass: 0, fail: NaN, ok: false });
      continue;
    }
    // Resolved from where the store code requires it; loading it loads its native module, so a
    // build that does not fit fails here.
    const probe = run(
      process.execPath,
      ['-e', PROBE, join(work, 'server', 'src', 'adapters', 'store', 'lanceModule.ts'), NATIVE],
      work,
    );
    const [loaded, facts = ''] =
      probe.status === 0
        ? probe.out.trim().split('\n')
        : [`failed to load: ${probe.out.trim().split('\n').slice(0, 3).join(' ')}`];
    console.log(`loaded: ${loaded}\n${facts}`);
    const t = run(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=1', ...TESTS], work);
    const c = counts(t.out);
    for (const line of t.out.split('\n')) if (/^(not ok|ok) \d+ - /.test(line)) console.log(line);
    console.log(`# pass ${c.pass}  # fail ${c.fail}  (exit ${t.status})`);
    if (t.status !== 0)
      console.log(
        t.out
          .split('\n')
          .filter((l) => /not ok|Error|error:/.test(l))
          .slice(0, 40)
          .join('\n'),
      );
    results.push({
      version,
      loaded,
      facts,
      ...c,
      ok: t.status === 0 && c.fail === 0 && loaded === `@lancedb/lancedb ${version}, ${NATIVE} ${version}`,
    });
  }
} finally {
  if (keep) console.log(`\nkept ${base}`);
  else rmSync(base, { recursive: true, force: true });
}

console.log(
  `\nLanceDB versions, ${TESTS.map((t) => t.replace('test/server/', '').replace('.test.ts', '')).join(', ')} on linux-x64 (node ${process.version}):`,
);
for (const r of results)
  console.log(
    `  ${r.version}: ${r.ok ? 'PASS' : 'FAIL'}  (${r.pass} passed, ${r.fail} failed; loaded ${r.loaded}; ${r.facts ?? ''})`,
  );
process.exitCode = results.length === versions.length && results.every((r) => r.ok) ? 0 : 1;
