// The dashboard's bundle stays free of zod: the contracts' schemas (settings, LSP params) live in
// protocol files the webview does not import, so the page the browser and VS Code load carries
// only plain types and the few functions it uses. Built in memory, as esbuild.mjs builds it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import * as esbuild from 'esbuild';

const ROOT = join(__dirname, '..', '..');

async function inputsOf(entry: esbuild.BuildOptions): Promise<string[]> {
  const r = await esbuild.build({
    ...entry,
    absWorkingDir: ROOT,
    bundle: true,
    write: false,
    metafile: true,
    platform: 'browser',
    format: 'iife',
    logLevel: 'silent',
    loader: { '.css': 'text' },
  });
  return Object.keys(r.metafile.inputs);
}

test('the webview bundle holds no zod', async () => {
  const inputs = await inputsOf({ entryPoints: ['webview/src/main.ts'] });
  assert.ok(
    inputs.some((i) => i.startsWith('protocol/')),
    'it does import protocol/',
  );
  assert.deepEqual(
    inputs.filter((i) => i.includes('node_modules/zod')),
    [],
  );
});

test('the check sees zod when a page imports a schema', async () => {
  const inputs = await inputsOf({
    stdin: {
      contents: "import { DEFAULT_SETTINGS } from './protocol/settings'; console.log(DEFAULT_SETTINGS);",
      resolveDir: ROOT,
      loader: 'ts',
    },
  });
  assert.ok(inputs.some((i) => i.includes('node_modules/zod')));
});
