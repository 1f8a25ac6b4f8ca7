// Makes the README's pictures (media/screenshots/) from the demo workspace, examples/demo, run
// from a temp copy: the dashboard through the real `mcp-lens serve --http` with an agent (an MCP
// SDK client) and a person (headless Chromium), and the editor in code-server with the packed
// VSIX. Every picture light and dark from the same data, and media/screenshots/manifest.json
// saying which scenario made each (test/tooling/readmePictures.test.ts reads it). Nothing is
// written until every picture was taken. The driver is test/screenshots/main.ts.
//   npm run screenshots              (all; needs scripts/install-code-server.sh once)
//   npm run screenshots -- --no-vscode (the dashboard's pictures only; the editor's are kept)
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const ROOT = join(import.meta.dirname, '..');
const withVsCode = !process.argv.includes('--no-vscode');
const run = (args) => spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit' }).status ?? 1;

// The editor's pictures need the VSIX with the agent hook (the e2e build), built like the e2e suite's.
if (run(['esbuild.mjs']) !== 0 || (withVsCode && run(['scripts/package-vsix.mjs', '--e2e']) !== 0)) {
  console.error('screenshots: the build failed; media/screenshots/ is left as it was');
  process.exit(1);
}
process.exit(run(['--import', 'tsx', 'test/screenshots/main.ts', ...(withVsCode ? [] : ['--no-vscode'])]));
