/**
 * Test-only code never ships (issue #23): the VSIX carried the e2e test's switches
 * (`MCP_LENS_E2E_OUT`, and `MCP_LENS_E2E_AUTO_APPROVE`, which approves servers without asking)
 * in its production bundle. They are now compiled in only by `esbuild.mjs --e2e` (the e2e
 * VSIX, `npm run package:e2e`); this reads every file of the VSIX `npm run package` built and
 * fails if any mentions them.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT } from '../fixtures/gatewayLens';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
/** What only the test hooks say: their environment switches and their command. */
const HOOKS = /MCP_LENS_E2E_|mcpLens\.e2e\./;

test('the VSIX that ships carries no e2e test hook', async () => {
  const { ZipFile } = await import('../../scripts/vsix/zipEntries.mjs');
  const { hostTarget, vsixFileName } = await import('../../scripts/vsix/targets.mjs');
  const file = join(ROOT, vsixFileName(pkg, hostTarget()));
  assert.ok(existsSync(file), `${file} is missing: run npm run package first`);
  // The words exist where the hooks are written, so finding none in the VSIX means something.
  assert.match(readFileSync(join(ROOT, 'client/src/e2eHooks.ts'), 'utf8'), HOOKS);
  const zip = new ZipFile(file);
  const text = zip.entries.filter((e: { name: string }) => /^extension\/(dist\/.*\.js|package\.json)$/.test(e.name));
  assert.ok(
    text.some((e: { name: string }) => e.name === 'extension/dist/client.js'),
    'the extension bundle is in the VSIX',
  );
  for (const entry of text) {
    const content = zip.read(entry).toString('utf8');
    assert.doesNotMatch(content, HOOKS, `${entry.name} carries test-only hooks`);
  }
});
