// The lint rule that keeps imports running downward is live: `npm run lint` fails on a
// boundary violation written to a file, and a table of imports is judged as ARCHITECTURE.md says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';

const ROOT = join(__dirname, '..', '..');
const ESLINT_BIN = join(ROOT, 'node_modules', 'eslint', 'bin', 'eslint.js');

test('eslint fails on a deliberate boundary violation in a real file (core importing an adapter)', () => {
  const probe = join(ROOT, 'server', 'src', 'core', `lintProbe${process.pid}.ts`);
  writeFileSync(probe, "import { UpstreamPool } from '../adapters/upstream/pool';\nexport const probe = UpstreamPool;\n");
  try {
    const r = spawnSync(process.execPath, [ESLINT_BIN, '--no-warn-ignored', probe], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(r.status, 1, `eslint should fail: ${r.stdout}${r.stderr}`);
    assert.match(r.stdout, /\(core\) may not import server\/src\/adapters\/upstream\/pool\.ts \(adapters\).*house\/layers/);
  } finally {
    rmSync(probe, { force: true });
  }
});

const CASES: { file: string; imports: string; allowed: boolean }[] = [
  { file: 'server/src/core/x.ts', imports: '../adapters/upstream/pool', allowed: false },
  { file: 'server/src/core/x.ts', imports: '../../../protocol/model', allowed: true },
  { file: 'server/src/core/x.ts', imports: 'node:fs', allowed: false },
  { file: 'server/src/core/x.ts', imports: '@lancedb/lancedb', allowed: false },
  { file: 'protocol/x.ts', imports: '../server/src/core/catalog', allowed: false },
  { file: 'server/src/adapters/x.ts', imports: '../app/lens', allowed: false },
  { file: 'server/src/adapters/x.ts', imports: '../gateway/gateway', allowed: false },
  { file: 'server/src/adapters/x.ts', imports: '../lsp/connection', allowed: false },
  { file: 'server/src/adapters/x.ts', imports: '../cli/main', allowed: false },
  { file: 'server/src/adapters/x.ts', imports: '../core/catalog', allowed: true },
  { file: 'server/src/index/x.ts', imports: '../adapters/store/lanceToolStore', allowed: false },
  { file: 'server/src/index/x.ts', imports: '../adapters/store/toolStore', allowed: true },
  { file: 'server/src/app/x.ts', imports: '../gateway/gateway', allowed: false },
  { file: 'server/src/app/x.ts', imports: '../index/hybridIndex', allowed: true },
  { file: 'server/src/gateway/x.ts', imports: '../lsp/connection', allowed: false },
  { file: 'server/src/lsp/x.ts', imports: '../cli/main', allowed: false },
  { file: 'server/src/cli/x.ts', imports: '../bench/runBench', allowed: false },
  { file: 'client/src/x.ts', imports: '../../server/src/core/catalog', allowed: false },
  { file: 'client/src/x.ts', imports: '../../webview/src/dom', allowed: false },
  { file: 'client/src/x.ts', imports: '../../protocol/lspProtocol', allowed: true },
  { file: 'webview/src/x.ts', imports: '../../protocol/lspProtocol', allowed: false },
  { file: 'webview/src/x.ts', imports: '../../protocol/webviewProtocol', allowed: true },
  { file: 'webview/src/x.ts', imports: 'node:path', allowed: false },
  { file: 'webview/src/x.ts', imports: 'vscode', allowed: false },
  { file: 'test/unit/x.test.ts', imports: '../../server/src/adapters/upstream/pool', allowed: true },
];

test('each layer imports only from the layers below it', async () => {
  const eslint = new ESLint({ cwd: ROOT });
  const wrong: string[] = [];
  for (const c of CASES) {
    const [result] = await eslint.lintText(`import * as m from '${c.imports}';\nexport const used = m;\n`, { filePath: join(ROOT, c.file) });
    const layers = result!.messages.filter((m) => m.ruleId === 'house/layers');
    if ((layers.length === 0) !== c.allowed)
      wrong.push(`${c.file} → ${c.imports}: expected ${c.allowed ? 'allowed' : 'refused'}, got ${layers.map((m) => m.message).join('; ') || 'allowed'}`);
  }
  assert.deepEqual(wrong, []);
});
