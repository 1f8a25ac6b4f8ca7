// Checks a packed VSIX can run: it holds the bundles, the manifest and LanceDB's runtime, and
// LanceDB loads from the extracted extension (native binary + apache-arrow) and can write and
// query a table. Usage: node scripts/verify-vsix.mjs FILE.vsix
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const vsix = process.argv[2];
if (!vsix || !existsSync(vsix)) throw new Error(`usage: verify-vsix.mjs FILE.vsix (got ${vsix})`);
const dir = mkdtempSync(join(tmpdir(), 'mcp-lens-vsix-'));
try {
  execFileSync('unzip', ['-q', vsix, '-d', dir]);
  const ext = join(dir, 'extension');
  for (const f of ['package.json', 'dist/client.js', 'dist/server.js', 'dist/webview/dashboard.js', 'media/icon.png', 'LICENSE.txt', 'node_modules/@lancedb/lancedb/package.json']) {
    if (!existsSync(join(ext, f))) throw new Error(`VSIX lacks ${f}`);
  }
  const probe = `
    const lancedb = require(${JSON.stringify(join(ext, 'node_modules/@lancedb/lancedb'))});
    (async () => {
      const db = await lancedb.connect(${JSON.stringify(join(dir, 'db'))});
      const t = await db.createTable('t', [{ id: 'a', vector: [1, 0] }, { id: 'b', vector: [0, 1] }]);
      const hits = await t.search([0.9, 0.1]).limit(1).toArray();
      if (hits[0].id !== 'a') throw new Error('unexpected nearest row ' + hits[0].id);
      process.stderr.write('LanceDB from the VSIX: ok\\n');
    })().catch((e) => { console.error(e); process.exit(1); });`;
  execFileSync(process.execPath, ['-e', probe], { stdio: 'inherit', cwd: dir });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
