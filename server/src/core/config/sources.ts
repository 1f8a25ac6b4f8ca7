/**
 * Where each config source lives and which key holds its servers. Pure: the platform,
 * home folder and environment come in as values so tests can ask for any of them.
 */
import * as path from 'node:path';
import type { ConfigSourceKind } from '../../../../protocol/model';
import type { ImportSource } from '../../../../protocol/settings';

/**
 * `mcpLens.importFrom` names → the kinds recorded on servers read from that source, in
 * precedence order: `cursor` is the workspace's `.cursor/mcp.json`, then the user's own
 * `~/.cursor/mcp.json` ('cursor-user'), as Cursor itself lets the project's entry win.
 */
export const IMPORT_KINDS: Readonly<Record<ImportSource, readonly ConfigSourceKind[]>> = {
  vscode: ['vscode-mcp-json'],
  'mcp-json': ['mcp-json'],
  'claude-desktop': ['claude-desktop'],
  cursor: ['cursor', 'cursor-user'],
  settings: ['settings'],
};

/** The top-level keys that hold servers, per kind (a `--config` file may use either). */
export function serverKeys(kind: ConfigSourceKind): ('servers' | 'mcpServers')[] {
  switch (kind) {
    case 'vscode-mcp-json':
      return ['servers'];
    case 'cli-config':
      return ['servers', 'mcpServers'];
    case 'settings':
      return [];
    default:
      return ['mcpServers'];
  }
}

/** Claude Desktop's config file: macOS Application Support, Windows %APPDATA%, else XDG. */
export function claudeDesktopConfigPath(
  userHome: string,
  env: Record<string, string | undefined>,
  platform: string,
): string {
  const p = platform === 'win32' ? path.win32 : path.posix;
  if (platform === 'darwin')
    return p.join(userHome, 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json');
  if (platform === 'win32')
    return p.join(env.APPDATA || p.join(userHome, 'AppData', 'Roaming'), 'Claude', 'claude_desktop_config.json');
  return p.join(env.XDG_CONFIG_HOME || p.join(userHome, '.config'), 'Claude', 'claude_desktop_config.json');
}

/** Cursor's user-level config file: `~/.cursor/mcp.json` on every OS (`%USERPROFILE%\.cursor\mcp.json` on Windows). */
export function cursorUserConfigPath(userHome: string, platform: string): string {
  return (platform === 'win32' ? path.win32 : path.posix).join(userHome, '.cursor', 'mcp.json');
}

export interface ConfigCandidate {
  kind: ConfigSourceKind;
  path: string;
  /** The workspace folder it belongs to; absent for a user-level file. */
  folder?: string;
}

/** Each folder-level source's file, relative to its folder. */
const FOLDER_FILES: Partial<Record<ImportSource, readonly string[]>> = {
  vscode: ['.vscode', 'mcp.json'],
  'mcp-json': ['.mcp.json'],
  cursor: ['.cursor', 'mcp.json'],
};

/**
 * The files the selected import sources would read, in `importFrom` order (settings has none);
 * a folder-level source once per workspace folder, in folder order.
 */
export function configCandidates(
  workspaceFolders: string | readonly string[],
  importFrom: readonly ImportSource[],
  userHome: string,
  env: Record<string, string | undefined>,
  platform: string,
): ConfigCandidate[] {
  const out: ConfigCandidate[] = [];
  const p = platform === 'win32' ? path.win32 : path.posix;
  const folders = typeof workspaceFolders === 'string' ? [workspaceFolders] : workspaceFolders;
  for (const source of new Set(importFrom)) {
    const [kind] = IMPORT_KINDS[source];
    const rel = FOLDER_FILES[source];
    if (rel && kind) for (const folder of folders) out.push({ kind, path: p.join(folder, ...rel), folder });
    // A user-level file is read once, as the folder's when a folder is the home folder itself.
    const user = (kind: ConfigSourceKind, file: string): void => {
      if (!out.some((c) => c.path === file)) out.push({ kind, path: file });
    };
    if (source === 'cursor') user('cursor-user', cursorUserConfigPath(userHome, platform));
    else if (source === 'claude-desktop') user('claude-desktop', claudeDesktopConfigPath(userHome, env, platform));
  }
  return out;
}
