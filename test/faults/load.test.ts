/**
 * The load benchmark (bench/src/load.ts), short: 200 concurrent find_tools and 200
 * concurrent call_tool across server-everything, server-memory and server-filesystem for 5 s
 * against `node dist/cli.js serve --http` as a child process. Asserts no request failed;
 * the figures are printed as diagnostics (the 60 s run is `npm run bench:load`).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { formatLoad, runLoad } from '../../bench/src/load';
import { ROOT } from '../fixtures/gatewayLens';

test('5 s of 200 + 200 concurrent requests through the sidecar: no errors', async (t) => {
  const build = spawnSync(process.execPath, ['esbuild.mjs', 'server'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(build.status, 0, build.stderr);
  const r = await runLoad({ root: ROOT, seconds: 5, concurrency: 200 });
  for (const line of formatLoad(r).split('\n')) t.diagnostic(line);
  assert.ok(r.findTools.requests >= 200 && r.callTool.requests >= 200, 'every worker got at least one answer');
  assert.equal(r.findTools.errors, 0, r.findTools.errorSamples.join('\n'));
  assert.equal(r.callTool.errors, 0, r.callTool.errorSamples.join('\n'));
});
