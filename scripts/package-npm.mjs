// Builds the `mcp-lens` CLI package for the npm registry (`npx -y mcp-lens serve`): the CLI
// bundle, its bench bundle and the token ranks, a README and the licence, with a manifest of
// its own — the repository's package.json is the VS Code extension's and stays private.
// LanceDB (and apache-arrow, which only it needs) are optional dependencies: where npm has no
// LanceDB build for the platform the install still succeeds and search runs keyword-only,
// saying why (server/src/adapters/store/lanceModule.ts).
// Usage: node scripts/package-npm.mjs [--out-dir DIR]   (npm run package:npm) → DIR/mcp-lens-<version>.tgz
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { execFileSync } from 'node:child_process';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const stage = join(root, '.npm-build', 'mcp-lens');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const outArg = process.argv.indexOf('--out-dir');
const outDir = resolve(root, outArg > 0 ? process.argv[outArg + 1] : '.');

/**
 * What the CLI loads at run time: dist/cli.js runs dist/cliMain.js (from a code cache), which
 * requires dist/bench.js for `mcp-lens bench` only, forks dist/selectChild.js to evaluate
 * `select`, runs run_code's scripts on dist/sandboxWorker.js (a worker thread) and reads the
 * learned-search file on a dist/learnedFileWorker.js thread.
 */
const FILES = [
  'dist/cli.js',
  'dist/cliMain.js',
  'dist/bench.js',
  'dist/selectChild.js',
  'dist/sandboxWorker.js',
  'dist/learnedFileWorker.js',
  'dist/o200k.ranks',
];

export function cliManifest(root) {
  return {
    name: 'mcp-lens',
    version: pkg.version,
    description:
      'One MCP server in front of all your MCP servers: tool search instead of hundreds of tool schemas, call routing and measured token savings. For Claude Code, Cursor and any MCP client.',
    license: pkg.license,
    keywords: ['mcp', 'model-context-protocol', 'mcp-server', 'tool-search', 'claude', 'cursor', 'ollama'],
    repository: pkg.repository,
    bugs: pkg.bugs,
    homepage: pkg.homepage,
    bin: { 'mcp-lens': 'dist/cli.js' },
    files: FILES,
    engines: { node: pkg.engines.node },
    optionalDependencies: {
      '@lancedb/lancedb': root.dependencies['@lancedb/lancedb'],
      'apache-arrow': root.dependencies['apache-arrow'],
    },
  };
}

execFileSync(process.execPath, ['esbuild.mjs', '--production', 'server', 'bench'], {
  cwd: root,
  stdio: ['ignore', 'inherit', 'inherit'],
});
rmSync(stage, { recursive: true, force: true });
mkdirSync(join(stage, 'dist'), { recursive: true });
for (const f of FILES) cpSync(join(root, f), join(stage, f));
cpSync(join(root, 'LICENSE'), join(stage, 'LICENSE'));
cpSync(join(root, 'docs', 'npm-readme.md'), join(stage, 'README.md'));
writeFileSync(join(stage, 'package.json'), JSON.stringify(cliManifest(pkg), null, 2) + '\n');
mkdirSync(outDir, { recursive: true });
const printed = execFileSync('npm', ['pack', '--pack-destination', outDir, '--silent'], {
  cwd: stage,
  encoding: 'utf8',
  shell: process.platform === 'win32',
}).trim();
const tarball = join(outDir, printed.split('\n').pop());
rmSync(stage, { recursive: true, force: true });
console.log(tarball);
