/**
 * Every platform VSIX that `npm run package:all` built (run it first; .ci/run does): each holds
 * exactly its own LanceDB binary — checked by file type, machine and libc from the binary's
 * header — with LanceDB's JavaScript at the binary's version, extensionKind ["workspace"], and
 * nothing it does not run. A VSIX checked against another target's expectations fails.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT } from '../fixtures/gatewayLens';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };

// The packaging scripts are ES modules; this test file is CommonJS.
const scripts = async () => ({
  ...(await import('../../scripts/verify-vsix.mjs')),
  ...(await import('../../scripts/vsix/targets.mjs')),
  ...(await import('../../scripts/vsix/zipEntries.mjs')),
});

test('every platform VSIX holds its own LanceDB binary and nothing it does not run', async (t) => {
  const { TARGETS, ZipFile, verifyVsix, vsixFileName } = await scripts();
  for (const { target, lance } of TARGETS) {
    await t.test(target, () => {
      const file = join(ROOT, vsixFileName(pkg, target));
      assert.ok(existsSync(file), `${file} is missing: run npm run package:all first`);
      const r = verifyVsix(file, target);
      assert.equal(r.search, lance ? 'hybrid' : 'keyword-only');
      if (lance) assert.ok(r.native?.startsWith(lance.binary), `${r.native} vs ${lance.binary}`);
      const zip = new ZipFile(file);
      const natives = zip.entries.filter((e) => e.name.endsWith('.node')).map((e) => e.name);
      assert.equal(natives.length, lance ? 1 : 0);
      if (lance) assert.ok(natives[0]!.startsWith(`extension/node_modules/${lance.package}/`), natives[0]);
      assert.equal(zip.entry('extension/dist/bench.js'), undefined);
      assert.equal(zip.entry('extension/dist/cli.js'), undefined);
      assert.equal(zip.entry('extension/dist/cliMain.js'), undefined);
      const manifest = JSON.parse(zip.read('extension/package.json').toString('utf8')) as {
        extensionKind: string[];
        devDependencies?: unknown;
      };
      assert.deepEqual(manifest.extensionKind, ['workspace']);
      assert.equal(manifest.devDependencies, undefined);
      // A budget, not a figure: the README lists each size as measured.
      assert.ok(statSync(file).size < 90 * 1024 * 1024, `${target} VSIX grew past 90 MiB`);
    });
  }
});

test('a VSIX checked as another target fails, naming both', async () => {
  const { verifyVsix, vsixFileName } = await scripts();
  const darwin = join(ROOT, vsixFileName(pkg, 'darwin-arm64'));
  assert.ok(existsSync(darwin), 'run npm run package:all first');
  assert.throws(() => verifyVsix(darwin, 'linux-x64'), /built for darwin-arm64, expected linux-x64/);
});
