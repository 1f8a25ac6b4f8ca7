/**
 * Where each config source lives and which key holds its servers. Pure: the platform,
 * home folder and environment come in as values so tests can ask for any of them.
 */
import * as path from 'node:path';
import type { ConfigSourceKind } from '../../../../protocol/model';
import type { ImportSource } from '../../../../protocol/settings';

/** `mcpLens.importFrom` names → the kind recorded on servers read from that source. */
export const IMPORT_KIND: Record<ImportSource, ConfigSourceKind> = {
  vscode: 'vscode-mcp-json',
  'mcp-json': 'mcp-json',
  'claude-desktop': 'claude-desktop',
  cursor: 'cursor',
  settings: 'settings',
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
export function claudeDesktopConfigPath(userHome: string, env: Record<string, string | undefined>, platform: string): string {
  const p = platform === 'win32' ? path.win32 : path.posix;
  if (platform === 'darwin') return p.join(userHome, 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json');
  if (platform === 'win32') return p.join(env.APPDATA || p.join(userHome, 'AppData', 'Roaming'), 'Claude', 'claude_desktop_config.json');
  return p.join(env.XDG_CONFIG_HOME || p.join(userHome, '.config'), 'Claude', 'claude_desktop_config.json');
}

export interface ConfigCandidate {
  kind: ConfigSourceKind;
  path: string;
}

/** The files the selected import sources would read, in `importFrom` order (settings has none). */
export function configCandidates(
  workspaceFolder: string,
  importFrom: readonly ImportSource[],
  userHome: string,
  env: Record<string, string | undefined>,
  platform: string,
): ConfigCandidate[] {
  const out: ConfigCandidate[] = [];
  const p = platform === 'win32' ? path.win32 : path.posix;
  for (const source of new Set(importFrom)) {
    const kind = IMPORT_KIND[source];
    if (source === 'vscode') out.push({ kind, path: p.join(workspaceFolder, '.vscode', 'mcp.json') });
    else if (source === 'mcp-json') out.push({ kind, path: p.join(workspaceFolder, '.mcp.json') });
    else if (source === 'cursor') out.push({ kind, path: p.join(workspaceFolder, '.cursor', 'mcp.json') });
    else if (source === 'claude-desktop') out.push({ kind, path: claudeDesktopConfigPath(userHome, env, platform) });
  }
  return out;
}
