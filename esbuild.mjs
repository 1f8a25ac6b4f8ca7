// One build for the three parts. Each bundle is a named option object so a reader sees
// at a glance what runs where: client (the VS Code extension host), server (the sidecar
// and the CLI, plain Node), webview (the browser).
import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

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
  // jsonc-parser's "main" is a UMD build with runtime requires esbuild cannot follow.
  mainFields: ['module', 'main'],
};

/** @type {esbuild.BuildOptions} */
const server = {
  ...common,
  // The sidecar (LSP front door) and the CLI share one core; both are plain Node.
  entryPoints: { server: 'server/src/main.ts', cli: 'server/src/cli/main.ts' },
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  outdir: 'dist',
  // LanceDB loads a native binary next to its JS: it must stay a real node_module.
  external: ['@lancedb/lancedb', 'apache-arrow'],
  // jsonc-parser's "main" is a UMD build with runtime requires esbuild cannot follow.
  mainFields: ['module', 'main'],
  banner: { js: '#!/usr/bin/env node' },
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

const parts = { client, server, webview };

async function main() {
  const wanted = process.argv.filter((a) => a in parts);
  const selected = (wanted.length ? wanted : Object.keys(parts)).map((name) => parts[name]);
  if (watch) {
    const contexts = await Promise.all(selected.map((o) => esbuild.context(o)));
    await Promise.all(contexts.map((c) => c.watch()));
    console.error('[esbuild] watching', wanted.length ? wanted.join(', ') : 'client, server, webview');
    return;
  }
  await Promise.all(selected.map((o) => esbuild.build(o)));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
