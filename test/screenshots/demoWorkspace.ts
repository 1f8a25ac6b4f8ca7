/**
 * The workspace the README's pictures are made from: examples/demo, copied to a temp folder so
 * that no path of this checkout shows, with this checkout's node_modules linked beside it where
 * the demo's .vscode/mcp.json looks (`${workspaceFolder}/../../node_modules`). Added to the copy,
 * in .vscode/settings.json: one remote server that asks for sign-in, "issues" (a real OpenID
 * provider, oidc-provider, on 127.0.0.1 in front of a protected MCP server: nobody signs in, so it
 * stays "needs sign-in"), and embeddings off, since no Ollama runs where the pictures are made.
 *
 * This sits under test/ for the typecheck and the drivers it shares with the e2e suite; it is
 * run by `npm run screenshots` (scripts/screenshots.mjs), never by a test.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse } from 'jsonc-parser';
import { startOidcWorld, type OidcWorld } from '../server/oidcWorld';

export const ROOT = resolve(__dirname, '../..');
export const DEMO = join(ROOT, 'examples', 'demo');
/** The remote server that asks for sign-in, named as a team's would be. */
export const REMOTE = 'issues';

export interface DemoWorkspace {
  /** The copied demo folder: the workspace. */
  dir: string;
  /** Every server the workspace configures, as the pictures may name them. */
  servers: string[];
  /** Writes .vscode/settings.json: the remote server and embeddings off, and `extra`. */
  writeSettings(extra?: Record<string, unknown>): void;
  close(): Promise<void>;
}

/** The servers examples/demo/.vscode/mcp.json configures. */
export function demoServers(): string[] {
  const config = parse(readFileSync(join(DEMO, '.vscode', 'mcp.json'), 'utf8')) as { servers: Record<string, unknown> };
  return Object.keys(config.servers);
}

export async function startDemoWorkspace(): Promise<DemoWorkspace> {
  const base = mkdtempSync(join(tmpdir(), 'mcp-lens-demo-'));
  let oidc: OidcWorld | undefined;
  try {
    const dir = join(base, 'examples', 'demo');
    cpSync(DEMO, dir, { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(base, 'node_modules'), 'dir');
    oidc = await startOidcWorld();
    const remote = { [REMOTE]: { type: 'http', url: oidc.mcpUrl } };
    const writeSettings = (extra: Record<string, unknown> = {}) =>
      writeFileSync(
        join(dir, '.vscode', 'settings.json'),
        `${JSON.stringify({ 'mcpLens.embedding.enabled': false, 'mcpLens.servers': remote, ...extra }, null, 2)}\n`,
      );
    writeSettings();
    const world = oidc;
    return {
      dir,
      servers: [...demoServers(), REMOTE].sort(),
      writeSettings,
      async close() {
        await world.close();
        rmSync(base, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await oidc?.close();
    rmSync(base, { recursive: true, force: true });
    throw err;
  }
}
