// The official conformance suite's main branch, which the npm registry does not have: the repo
// carries its source (vendor/, see vendor/meta.json), and this builds it and its reference server
// with npm from the registry into the cache folder install.mjs uses (`.conformance/main-<commit>/`).
// Cached: a marker holding the tarball's sha256 says the build there is this tarball's, so a second
// run (and CI with `.conformance/` restored) costs nothing.
//
// As a module: `const main = await installMainSuite({ node })` with the Node 22 from install.mjs;
// `main.run(args)` runs its CLI (`server --url … --requirements 2026-07-28`), `main.reference` is
// the folder holding the reference server (`everything-server.ts`, its dependencies installed).
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { conformanceDir } from './install.mjs';

const vendor = resolve(dirname(fileURLToPath(import.meta.url)), 'vendor');

function npm(args, cwd) {
  const r = spawnSync('npm', args, {
    cwd,
    // Its output goes to stderr: stdout carries the tables.
    stdio: ['ignore', 2, 2],
    // CI=true: its lefthook dependency would otherwise install git hooks into the enclosing
    // repository (this one, and every worktree sharing its .git) on install.
    env: { ...process.env, npm_config_update_notifier: 'false', CI: 'true' },
  });
  if (r.status !== 0) throw new Error(`npm ${args.join(' ')} in ${cwd} failed (exit ${r.status ?? r.signal})`);
}

/** Builds what is missing and returns `{ dir, cli, reference, requirements, run }`. */
export async function installMainSuite({ node, log = (line) => process.stderr.write(`${line}\n`) }) {
  const meta = JSON.parse(readFileSync(join(vendor, 'meta.json'), 'utf8'));
  const tarball = join(vendor, meta.file);
  const sha256 = createHash('sha256').update(readFileSync(tarball)).digest('hex');
  if (sha256 !== meta.sha256) throw new Error(`${tarball}: sha256 ${sha256} is not the one vendor/meta.json names`);
  const dir = join(conformanceDir(), `main-${meta.commit.slice(0, 7)}`);
  const suite = join(dir, 'conformance');
  const reference = join(suite, 'examples', 'servers', 'typescript');
  const marker = join(dir, 'installed.json');
  const installed = existsSync(marker) && JSON.parse(readFileSync(marker, 'utf8')).sha256 === sha256;
  if (!installed) {
    const started = Date.now();
    log(`building the conformance suite ${meta.version} (main ${meta.commit.slice(0, 7)}) into ${dir}`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const tar = spawnSync('tar', ['-xzf', tarball, '-C', dir], { stdio: 'inherit' });
    if (tar.status !== 0) throw new Error(`tar -xzf ${tarball} failed (exit ${tar.status ?? tar.signal})`);
    // Its lock files pin what it was tested with; `prepare` builds dist/index.js.
    npm(['ci', '--no-audit', '--no-fund', '--loglevel=error'], suite);
    npm(['ci', '--no-audit', '--no-fund', '--loglevel=error'], reference);
    writeFileSync(marker, JSON.stringify({ sha256, commit: meta.commit, builtMs: Date.now() - started }));
    log(`built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  const cli = join(suite, 'dist', 'index.js');
  for (const file of [cli, join(reference, 'everything-server.ts'), join(reference, 'node_modules', '.bin', 'tsx')])
    if (!existsSync(file)) throw new Error(`${file} is missing after the build; delete ${dir} and run again`);
  const run = (args, options = {}) => runCli(node, cli, args, options);
  return { dir, cli, reference, version: meta.version, commit: meta.commit, run };
}

/** Runs the suite's CLI; resolves with its exit status and, when captured, its output. */
function runCli(node, cli, args, { capture = false, env = process.env, cwd } = {}) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(node, [cli, ...args], { stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit', env, cwd });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d) => (stdout += d));
    child.stderr?.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolvePromise({ status, stdout, stderr }));
  });
}
