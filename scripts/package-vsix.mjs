// Builds the platform VSIXs from per-target staging folders, so each holds only what runs: the
// extension and sidecar bundles (dist/client.js, dist/server.js, the webview, the token ranks),
// media/, README, CHANGELOG, LICENSE and LanceDB's runtime for that target — @lancedb/lancedb,
// exactly one native package, fetched with `npm pack` at build time (never a postinstall
// download), apache-arrow and their dependencies. The CLI (dist/cli.js) and `mcp-lens bench`
// (dist/bench.js) ship in the npm package, not here. scripts/vsix/targets.mjs says which LanceDB
// build each target gets and why; scripts/verify-vsix.mjs checks every VSIX built.
//
// Usage: node scripts/package-vsix.mjs [--target T ...] [--all] [--out-dir DIR] [--out FILE] [--e2e]
//   npm run package                     the host's target (linux-x64 here)
//   npm run package -- --target T       one target
//   npm run package:all                 every target
//   npm run package:e2e                 the host's target with the e2e test hooks, as
//                                       <name>-<target>-<version>-e2e.vsix: for test/e2e only,
//                                       never shipped (every other build leaves the hooks out)
// Staging and the fetched tarballs live in .vsix-build/ of this checkout (not shared by worktrees).
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { execFileSync } from 'node:child_process';
import { TARGETS, hostTarget, vsixFileName, vsixTarget } from './vsix/targets.mjs';
import { DIST_FILES, verifyVsix } from './verify-vsix.mjs';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const work = join(root, '.vsix-build');
const packs = join(work, 'packs');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

const argv = process.argv.slice(2);
const valueOf = (flag) => {
  const i = argv.indexOf(flag);
  return i >= 0 ? argv[i + 1] : undefined;
};
const named = argv.flatMap((a, i) => (a === '--target' ? [argv[i + 1]] : []));
const targets = argv.includes('--all') ? TARGETS : (named.length ? named : [hostTarget()]).map(vsixTarget);
const outDir = resolve(root, valueOf('--out-dir') ?? '.');
const outFile = valueOf('--out');
const e2e = argv.includes('--e2e');
if (outFile && targets.length !== 1) throw new Error('--out names one file: use it with one --target');

function run(cmd, args, cwd) {
  execFileSync(cmd, args, { cwd, stdio: ['ignore', 'inherit', 'inherit'] });
}

/** `npm pack NAME@VERSION` into .vsix-build/packs (once), then unpacked into `into`. */
function unpackFromRegistry(name, version, into) {
  mkdirSync(packs, { recursive: true });
  const tarball = join(packs, `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`);
  if (!existsSync(tarball)) {
    const printed = execFileSync('npm', ['pack', `${name}@${version}`, '--pack-destination', packs, '--silent'], {
      cwd: packs,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      shell: process.platform === 'win32',
    }).trim();
    const file = join(packs, printed.split('\n').pop());
    if (file !== tarball) throw new Error(`npm pack ${name}@${version} wrote ${file}, expected ${tarball}`);
  }
  mkdirSync(into, { recursive: true });
  run('tar', ['xzf', tarball, '-C', into, '--strip-components=1'], root);
}

/** Installed packages of `names` and their `dependencies`, recursively, from this checkout's node_modules. */
function closure(names) {
  const seen = new Set();
  const queue = [...names];
  while (queue.length) {
    const name = queue.shift();
    if (seen.has(name)) continue;
    const dir = join(root, 'node_modules', name);
    if (!existsSync(join(dir, 'package.json')))
      throw new Error(`${name} is not installed in node_modules (run npm ci)`);
    seen.add(name);
    queue.push(...Object.keys(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).dependencies ?? {}));
  }
  return [...seen].sort();
}

const copyFromRoot = (name, stage) =>
  cpSync(join(root, 'node_modules', name), join(stage, 'node_modules', name), { recursive: true, dereference: true });

/** Stages LanceDB for `lance` (null: none, a keyword-only build); returns the staged runtime dependencies. */
function stageLance(lance, stage) {
  const arrow = closure(['apache-arrow']);
  if (!lance) return { packages: [], dependencies: {} };
  const lanceDir = join(stage, 'node_modules', '@lancedb', 'lancedb');
  const installed = JSON.parse(
    readFileSync(join(root, 'node_modules', '@lancedb', 'lancedb', 'package.json'), 'utf8'),
  ).version;
  // The JavaScript half must be the native half's version: it calls what that binary exports.
  if (installed === lance.version) copyFromRoot('@lancedb/lancedb', stage);
  else unpackFromRegistry('@lancedb/lancedb', lance.version, lanceDir);
  unpackFromRegistry(lance.package, lance.version, join(stage, 'node_modules', lance.package));
  const lanceDeps = Object.keys(JSON.parse(readFileSync(join(lanceDir, 'package.json'), 'utf8')).dependencies ?? {});
  const shared = closure([...arrow, ...lanceDeps]);
  for (const name of shared) copyFromRoot(name, stage);
  return {
    packages: ['@lancedb/lancedb', lance.package, ...shared],
    dependencies: { '@lancedb/lancedb': lance.version, 'apache-arrow': pkg.dependencies['apache-arrow'] },
  };
}

/**
 * What the extension runs from dist/ (DIST_FILES and their folders), and nothing else there: no
 * source maps, no CLI, no bench (they ship with the npm package), nor what else a build left.
 */
const DIST_KEEP = new Set(
  DIST_FILES.flatMap((f) => f.split('/').map((_, i, parts) => parts.slice(0, i + 1).join('/'))),
);

function buildTarget({ target, lance }) {
  const stage = join(work, `stage-${target}`);
  rmSync(stage, { recursive: true, force: true });
  mkdirSync(stage, { recursive: true });
  for (const entry of ['dist', 'media', 'README.md', 'CHANGELOG.md', 'LICENSE']) {
    cpSync(join(root, entry), join(stage, entry), {
      recursive: true,
      filter: (src) =>
        !src.endsWith('.map') &&
        (entry !== 'dist' ||
          src === join(root, 'dist') ||
          DIST_KEEP.has(relative(join(root, 'dist'), src).split(sep).join('/'))),
    });
  }
  const runtime = stageLance(lance, stage);
  // The staged manifest: the real one, with only the runtime dependencies and no build scripts.
  const staged = { ...pkg };
  delete staged.devDependencies;
  delete staged.scripts;
  delete staged.bin;
  delete staged.files;
  staged.dependencies = runtime.dependencies;
  writeFileSync(join(stage, 'package.json'), JSON.stringify(staged, null, 2) + '\n');
  writeFileSync(join(stage, '.vscodeignore'), readFileSync(join(root, '.vscodeignore'), 'utf8'));

  const name = e2e ? vsixFileName(pkg, target).replace(/\.vsix$/, '-e2e.vsix') : vsixFileName(pkg, target);
  const out = outFile ? resolve(root, outFile) : join(outDir, name);
  mkdirSync(dirname(out), { recursive: true });
  const vsce = join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
  run(process.execPath, [vsce, 'package', '--target', target, '--out', out], stage);
  const report = verifyVsix(out, target);
  rmSync(stage, { recursive: true, force: true });
  return { ...report, packages: runtime.packages.length };
}

run(process.execPath, ['esbuild.mjs', '--production', ...(e2e ? ['--e2e'] : [])], root);
const results = [];
for (const t of targets) results.push(buildTarget(t));
for (const r of results) {
  console.error(`${r.target}: ${r.file} ${(statSync(r.file).size / 1024 / 1024).toFixed(1)} MiB — ${r.summary}`);
}
// Leftover stages from an interrupted run are not kept.
if (existsSync(work))
  for (const d of readdirSync(work))
    if (d.startsWith('stage-')) rmSync(join(work, d), { recursive: true, force: true });
