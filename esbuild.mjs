// One build for every part. Each bundle is a named option object so a reader sees at a glance
// what runs where: client (the VS Code extension host), server (the sidecar and the CLI, plain
// Node), bench (`mcp-lens bench`, plain Node), webview (the browser).
import * as esbuild from 'esbuild';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
// The e2e build (test/e2e, `npm run package:e2e`) alone keeps the extension's test-only hooks
// (client/src/e2eHooks.ts, one of which approves servers without asking); every other build,
// and so every VSIX that ships, leaves them out.
const e2e = process.argv.includes('--e2e');

/** @type {esbuild.BuildOptions} */
const common = {
  bundle: true,
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
  legalComments: 'none',
};

/** @type {esbuild.BuildOptions} */
const client = {
  ...common,
  entryPoints: { client: 'client/src/extension.ts' },
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  outdir: 'dist',
  external: ['vscode'],
  define: { __E2E_HOOKS__: String(e2e) },
  // jsonc-parser's "main" is a UMD build with runtime requires esbuild cannot follow.
  mainFields: ['module', 'main'],
};

/** @type {esbuild.BuildOptions} */
const server = {
  ...common,
  // The sidecar (LSP front door) and the CLI share one core; both are plain Node. selectChild is the
  // process both fork to evaluate `select` under a heap limit (adapters/select/selectRunner.ts);
  // sandboxWorker the worker thread both run run_code's scripts on (adapters/sandbox/scriptWorkers.ts).
  entryPoints: {
    server: 'server/src/main.ts',
    // dist/cli.js (`mcp-lens`) is a launcher that runs dist/cliMain.js from a V8 code cache.
    cli: 'server/src/cli/launch.ts',
    cliMain: 'server/src/cli/main.ts',
    selectChild: 'server/src/adapters/select/selectChild.ts',
    sandboxWorker: 'server/src/adapters/sandbox/sandboxWorker.ts',
    // The thread that reads and checks the learned-search file (adapters/usage/learnedFileReader.ts).
    learnedFileWorker: 'server/src/adapters/usage/learnedFileWorker.ts',
  },
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  outdir: 'dist',
  // LanceDB loads a native binary next to its JS: it must stay a real node_module. The bundles
  // count tokens with dist/o200k.ranks; gpt-tokenizer (2.4 MB of ranks as JavaScript) is only
  // the fallback of code run from source, so it stays out of them.
  external: [
    '@lancedb/lancedb',
    'apache-arrow',
    'gpt-tokenizer/bpeRanks/o200k_base',
    'gpt-tokenizer/encoding/o200k_base',
  ],
  // jsonc-parser's "main" is a UMD build with runtime requires esbuild cannot follow.
  mainFields: ['module', 'main'],
  banner: { js: '#!/usr/bin/env node' },
  // Without comments and indentation the bundle parses faster, and V8 holds its source (it
  // keeps it for the life of the process) in a third of the memory. Names stay readable.
  minifyWhitespace: true,
};

/**
 * `mcp-lens bench` (bench/src/): a bundle of its own beside the CLI's, which requires it by path
 * only for that command (server/src/cli/benchEntry.ts), so no other command carries bench code.
 * @type {esbuild.BuildOptions}
 */
const bench = {
  ...server,
  entryPoints: { bench: 'bench/src/benchCommand.ts' },
};

/** @type {esbuild.BuildOptions} */
const webview = {
  ...common,
  entryPoints: { dashboard: 'webview/src/main.ts' },
  platform: 'browser',
  format: 'iife',
  target: 'es2022',
  outdir: 'dist/webview',
  loader: { '.css': 'text' },
};

const parts = { client, server, bench, webview };

async function main() {
  const wanted = process.argv.filter((a) => a in parts);
  const selected = (wanted.length ? wanted : Object.keys(parts)).map((name) => parts[name]);
  if (watch) {
    const contexts = await Promise.all(selected.map((o) => esbuild.context(o)));
    await Promise.all(contexts.map((c) => c.watch()));
    console.error('[esbuild] watching', wanted.length ? wanted.join(', ') : Object.keys(parts).join(', '));
    return;
  }
  await Promise.all(selected.map((o) => esbuild.build(o)));
  if (selected.includes(server)) {
    for (const f of [
      'dist/cli.js',
      'dist/server.js',
      'dist/selectChild.js',
      'dist/sandboxWorker.js',
      'dist/learnedFileWorker.js',
    ])
      asciiOnly(f);
    await writeO200kRanks();
  }
  if (selected.includes(bench)) asciiOnly('dist/bench.js');
}

/**
 * V8 stores a script's source for the life of the process, as one byte per character only if
 * every character is ASCII. esbuild escapes non-ASCII in strings but leaves it in regular
 * expression literals (wink-porter2-stemmer's), which doubled the 2 MB it holds: escape those.
 */
function asciiOnly(file) {
  const text = readFileSync(file, 'utf8');
  if (!/[^\x00-\x7f]/.test(text)) return;
  const escape = (c) =>
    c
      .split('')
      .map((u) => `\\u${u.charCodeAt(0).toString(16).padStart(4, '0')}`)
      .join('');
  // An escaped character (an odd run of backslashes before it) becomes one \u escape, a bare
  // one too; a code point past U+FFFF becomes its two.
  writeFileSync(
    file,
    text.replace(
      /(\\*)([^\x00-\x7f])/gu,
      (_, slashes, c) => slashes.slice(0, slashes.length - (slashes.length % 2)) + escape(c),
    ),
  );
}

/**
 * dist/o200k.ranks: the o200k_base ranks as one compact table the sidecar and the CLI load on
 * their first token count (server/src/adapters/tokens/o200kCounter.ts), built by that module.
 */
async function writeO200kRanks() {
  // Bundled inside the repo so the writer resolves gpt-tokenizer from node_modules.
  const out = join('dist', `.o200k-writer-${process.pid}.cjs`);
  try {
    await esbuild.build({
      ...server,
      entryPoints: ['server/src/adapters/tokens/o200kCounter.ts'],
      outdir: undefined,
      outfile: out,
      sourcemap: false,
      banner: {},
    });
    const { o200kRanksFile } = createRequire(import.meta.url)(resolve(out));
    writeFileSync(join('dist', 'o200k.ranks'), o200kRanksFile());
  } finally {
    rmSync(out, { force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
