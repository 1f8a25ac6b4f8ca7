// The lint rule that keeps imports running downward is live: ESLint, with the repository's own
// config (the one `npm run lint` uses), refuses a boundary violation in a file under
// server/src/core, and judges a table of imports as ARCHITECTURE.md says. The files are
// virtual (ESLint's lintText with a file path): nothing is written into the tree.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';

const ROOT = join(__dirname, '..', '..');

test('eslint refuses a deliberate boundary violation (core importing an adapter) as an error', async () => {
  const probe = join(ROOT, 'server', 'src', 'core', 'lintProbe.ts');
  assert.equal(existsSync(probe), false, 'the probe is virtual');
  const [result] = await new ESLint({ cwd: ROOT }).lintText(
    "import { UpstreamPool } from '../adapters/upstream/pool';\nexport const probe = UpstreamPool;\n",
    {
      filePath: probe,
    },
  );
  assert.equal(result!.errorCount, 1, JSON.stringify(result!.messages));
  const [m] = result!.messages;
  assert.equal(m!.ruleId, 'house/layers');
  assert.equal(m!.severity, 2, 'an error: npm run lint fails on it');
  assert.match(m!.message, /\(core\) may not import server\/src\/adapters\/upstream\/pool\.ts \(adapters\)/);
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
  // The benches sit above the whole product: they use any of it, and nothing in it uses them.
  { file: 'server/src/cli/x.ts', imports: '../../../bench/src/runBench', allowed: false },
  { file: 'server/src/gateway/x.ts', imports: '../../../bench/src/inMemoryLens', allowed: false },
  { file: 'server/src/core/x.ts', imports: '../../../bench/src/metrics', allowed: false },
  { file: 'protocol/x.ts', imports: '../bench/src/dataset', allowed: false },
  { file: 'bench/src/x.ts', imports: '../../server/src/cli/command', allowed: true },
  { file: 'bench/src/x.ts', imports: '../../server/src/gateway/gateway', allowed: true },
  { file: 'bench/src/x.ts', imports: '../../server/src/core/catalog', allowed: true },
  { file: 'bench/src/x.ts', imports: '../../test/fixtures/benchCli', allowed: false },
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
    const [result] = await eslint.lintText(`import * as m from '${c.imports}';\nexport const used = m;\n`, {
      filePath: join(ROOT, c.file),
    });
    const layers = result!.messages.filter((m) => m.ruleId === 'house/layers');
    if ((layers.length === 0) !== c.allowed)
      wrong.push(
        `${c.file} → ${c.imports}: expected ${c.allowed ? 'allowed' : 'refused'}, got ${layers.map((m) => m.message).join('; ') || 'allowed'}`,
      );
  }
  assert.deepEqual(wrong, []);
});
