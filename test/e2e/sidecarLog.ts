/**
 * What the e2e tests read from the outside of a running code-server: the packaged VSIX they
 * install, the MCP Lens log the extension writes under the user-data folder, and a poll for
 * either to appear (conditions, not sleeps).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './codeServer';

/**
 * The linux-x64 e2e VSIX `npm run package:e2e` built for this checkout's version: the shipped
 * build with the test-only hooks (client/src/e2eHooks.ts) compiled in; `npm run test:e2e` builds it.
 */
export function vsixPath(): string {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const p = join(ROOT, `${pkg.name}-linux-x64-${pkg.version}-e2e.vsix`);
  if (!existsSync(p)) throw new Error(`${p} is missing: run npm run package:e2e first`);
  return p;
}

/** Every file below `dir` (none when it does not exist yet). */
export function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)],
  );
}

/** The MCP Lens log under a code-server user-data folder, once the extension has written it. */
export function findSidecarLog(userDataDir: string): string | undefined {
  return walk(join(userDataDir, 'logs')).find((f) => f.endsWith('MCP Lens.log'));
}

/** Polls `probe` every 250 ms until it returns a value; throws naming `what` after `timeoutMs`. */
export async function until<T>(what: string, timeoutMs: number, probe: () => T | undefined): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
