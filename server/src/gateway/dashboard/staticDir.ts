/** Where the dashboard bundle lives: next to the bundled CLI/sidecar, or dist/webview when run from source. */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

export function dashboardStaticDir(): string {
  // Bundled: this code is inside dist/cli.js or dist/server.js, so __dirname is dist/.
  const bundled = join(__dirname, 'webview');
  if (existsSync(join(bundled, 'dashboard.js'))) return bundled;
  // From source (tsx): server/src/gateway/dashboard → <repo>/dist/webview.
  return resolve(__dirname, '../../../../dist/webview');
}
