// Builds the platform VSIX (linux-x64) from a staging folder, so it holds only what runs:
// the production bundles (dist/), media/, README, CHANGELOG, LICENSE and LanceDB's runtime
// (@lancedb/lancedb, its linux-x64-gnu native package, apache-arrow and their dependencies).
// The extension and the sidecar are bundled by esbuild; LanceDB cannot be (native binary).
// Usage: node scripts/package-vsix.mjs [--out FILE]   (npm run package)
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { execFileSync } from 'node:child_process';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const stage = join(root, '.e2e', 'vsix-stage');
const TARGET = 'linux-x64';
const RUNTIME_ROOTS = ['@lancedb/lancedb', '@lancedb/lancedb-linux-x64-gnu', 'apache-arrow'];

const outArg = process.argv.indexOf('--out');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const out = resolve(root, outArg > 0 ? process.argv[outArg + 1] : `${pkg.name}-${TARGET}-${pkg.version}.vsix`);

function run(cmd, args, cwd) {
  execFileSync(cmd, args, { cwd, stdio: ['ignore', 'inherit', 'inherit'] });
}

/** The runtime closure: each root plus its `dependencies`, recursively (optional ones only if named). */
function closure(roots) {
  const seen = new Set();
  const queue = [...roots];
  while (queue.length) {
    const name = queue.shift();
    if (seen.has(name)) continue;
    const dir = join(root, 'node_modules', name);
    if (!existsSync(join(dir, 'package.json'))) throw new Error(`${name} is not installed in node_modules (run npm ci)`);
    seen.add(name);
    const deps = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).dependencies ?? {};
    queue.push(...Object.keys(deps));
  }
  return [...seen].sort();
}

run(process.execPath, ['esbuild.mjs', '--production'], root);
rmSync(stage, { recursive: true, force: true });
mkdirSync(stage, { recursive: true });
const keep = ['dist', 'media', 'README.md', 'CHANGELOG.md', 'LICENSE'];
for (const entry of keep) {
  cpSync(join(root, entry), join(stage, entry), { recursive: true, filter: (src) => !src.endsWith('.map') });
}
const modules = closure(RUNTIME_ROOTS);
for (const name of modules) cpSync(join(root, 'node_modules', name), join(stage, 'node_modules', name), { recursive: true, dereference: true });

// The staged manifest: the real one, with only the runtime dependencies and no build scripts.
const staged = { ...pkg };
delete staged.devDependencies;
delete staged.scripts;
delete staged.bin;
staged.dependencies = Object.fromEntries(['@lancedb/lancedb', 'apache-arrow'].map((n) => [n, pkg.dependencies[n]]));
writeFileSync(join(stage, 'package.json'), JSON.stringify(staged, null, 2) + '\n');
writeFileSync(join(stage, '.vscodeignore'), readFileSync(join(root, '.vscodeignore'), 'utf8'));

const vsce = join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
run(process.execPath, [vsce, 'package', '--target', TARGET, '--out', out], stage);
run(process.execPath, [join(root, 'scripts', 'verify-vsix.mjs'), out], root);
const bytes = statSync(out).size;
console.error(`VSIX: ${out} (${(bytes / 1024 / 1024).toFixed(1)} MiB, ${modules.length} runtime packages)`);
