/**
 * Where the CLI keeps what it learns about a workspace — the catalog cache, the tool index, the
 * usage log and its salt, their locks — outside the workspace, in the user's state folder:
 * `$XDG_STATE_HOME/mcp-lens/workspaces/<folder name>-<hash of its real path>/`, else
 * `~/.local/state/mcp-lens/...`. Not `<workspace>/.mcp-lens/`: anything there is the
 * repository's to ship, and a catalog cache made to look like ours (mode 0600) would be served
 * by find_tools under lazy start, fake tools with hostile descriptions and all. A workspace can
 * put nothing in the user's state folder, so nothing of it is read as state.
 *
 * `<workspace>/.mcp-lens/` keeps only what clients of a running `serve --http` look for there
 * (gateway.json, the token: gateway/gatewayFiles.ts), which are believed only once the gateway
 * proves it knows the token. Caches an older version left there are not read, nor moved: they are rebuilt.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, realpathSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ensurePrivateDir } from './privateFiles';

/** The user's state folder for MCP Lens (not created). */
export function stateHome(
  env: Record<string, string | undefined> = process.env,
  userHome: string = os.homedir(),
): string {
  const base =
    env.XDG_STATE_HOME && path.isAbsolute(env.XDG_STATE_HOME)
      ? env.XDG_STATE_HOME
      : path.join(userHome, '.local', 'state');
  return path.join(base, 'mcp-lens');
}

/**
 * The user's cache folder for MCP Lens (not created): `$XDG_CACHE_HOME/mcp-lens`, else
 * `~/.cache/mcp-lens`. What is there is made again when missing (the CLI's code cache).
 */
export function cacheHome(
  env: Record<string, string | undefined> = process.env,
  userHome: string = os.homedir(),
): string {
  const base =
    env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : path.join(userHome, '.cache');
  return path.join(base, 'mcp-lens');
}

/** This workspace's folder in it: named for people, keyed by the real path so two spellings of one folder share it. */
export function workspaceStateDir(
  workspaceFolder: string,
  env: Record<string, string | undefined> = process.env,
  userHome?: string,
): string {
  let real = path.resolve(workspaceFolder);
  try {
    real = realpathSync(real);
  } catch {
    // A folder that does not exist yet is keyed by its path as given.
  }
  const hash = createHash('sha256').update(real).digest('hex').slice(0, 16);
  const name =
    path
      .basename(real)
      .replace(/[^A-Za-z0-9._-]/g, '_')
      .slice(0, 40) || 'root';
  return path.join(stateHome(env, userHome), 'workspaces', `${name}-${hash}`);
}

/** Creates the workspace's state folder (each of MCP Lens's own levels 0700, never a link) and returns it. */
export function ensureWorkspaceStateDir(
  workspaceFolder: string,
  env: Record<string, string | undefined> = process.env,
  userHome?: string,
): string {
  const dir = workspaceStateDir(workspaceFolder, env, userHome);
  const home = stateHome(env, userHome);
  mkdirSync(path.dirname(home), { recursive: true, mode: 0o700 });
  ensurePrivateDir(home);
  ensurePrivateDir(path.join(home, 'workspaces'));
  return ensurePrivateDir(dir);
}

/** The state files earlier versions kept in the workspace, still there (for a one-time notice). */
export function legacyWorkspaceState(workspaceFolder: string): string[] {
  const old = path.join(workspaceFolder, '.mcp-lens');
  return ['catalog.json', 'index', 'usage'].map((f) => path.join(old, f)).filter((f) => existsSync(f));
}
