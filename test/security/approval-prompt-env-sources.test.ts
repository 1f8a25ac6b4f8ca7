/**
 * The approval prompt hid where a server's environment comes from: `${env:…}` sources and
 * the envFile path were not shown, so the user approved without seeing what the server gets.
 * Now the prompt (the CLI's, and the lines the sidecar hands VS Code's modal) shows the envFile
 * path, each env name with its source (the variable as written, "from the env file", or the
 * literal value), removed names and the cwd, while no secret value appears.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { LensApp } from '../../server/src/app/lensApp';
import { silentLogger } from '../../server/src/core/logger';
import { sanitizeSettings } from '../../protocol/settings';
import { MemoryToolIndex } from '../../server/src/index/memoryIndex';
import { cliEnv, hostileWorkspace, mcpJson, runCliOnTerminal } from './hostileWorkspace';

const SECRET = 'ghp_b09-secret-value-never-shown';
const FILE_SECRET = 'from-env-file-secret-b09';
const ws = hostileWorkspace({
  '.vscode/mcp.json': mcpJson({
    gh: {
      command: 'node',
      args: ['server.js'],
      cwd: 'tools',
      envFile: '${workspaceFolder}/.env.b09',
      env: { GITHUB_TOKEN: '${env:B09_TOKEN}', NODE_OPTIONS: '--require ./preload.js', HOME_DIR: null },
    },
  }),
  '.env.b09': `PRELOAD_SECRET=${FILE_SECRET}\n`,
});
after(() => ws.close());

const EXPECTED = [
  /^\s+command: node\s*$/,
  /^\s+arg 1: server\.js\s*$/,
  /^\s+cwd: .*\/repo\/tools\s*$/,
  /^\s+envFile: .*\/repo\/\.env\.b09\s*$/,
  /^\s+env GITHUB_TOKEN: \$\{env:B09_TOKEN\}\s*$/,
  /^\s+env NODE_OPTIONS: "--require \.\/preload\.js"\s*$/,
  /^\s+env PRELOAD_SECRET: from the env file\s*$/,
  /^\s+env HOME_DIR: removed\s*$/,
];

test('the CLI approval prompt names every env source and the envFile, never a value from them', async () => {
  const run = await runCliOnTerminal(['tools', '--workspace', ws.dir], cliEnv(ws, { B09_TOKEN: SECRET }), [
    [/\[y\/N\] /, 'n\r'],
  ]);
  const lines = run.stdout.split(/\r?\n/);
  for (const want of EXPECTED)
    assert.ok(
      lines.some((l) => want.test(l)),
      `no line like ${want} in:\n${run.stdout}`,
    );
  assert.ok(!run.stdout.includes(SECRET) && !run.stdout.includes(FILE_SECRET), 'no secret value is shown');
});

test('the sidecar hands the editor the same lines for its modal prompt', async () => {
  const lens = await LensApp.start({
    workspaceFolder: ws.dir,
    storageDir: ws.path('.mcp-lens-b09'),
    settings: sanitizeSettings({ embedding: { enabled: false } }),
    trusted: true,
    approvals: {},
    autoApprove: false,
    inputs: {},
    env: { ...process.env, B09_TOKEN: SECRET },
    log: silentLogger,
    index: new MemoryToolIndex('keyword only'),
  });
  try {
    const pending = lens.pendingApprovals();
    assert.equal(pending.length, 1);
    const details = pending[0]!.details;
    for (const want of EXPECTED)
      assert.ok(
        details.some((l) => want.test(`  ${l}`)),
        `no detail like ${want} in ${JSON.stringify(details)}`,
      );
    assert.ok(!JSON.stringify(pending).includes(SECRET) && !JSON.stringify(pending).includes(FILE_SECRET));
  } finally {
    await lens.close();
  }
});
