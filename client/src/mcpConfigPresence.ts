/**
 * Whether this window has any MCP configuration for MCP Lens to aggregate. Without one the
 * extension stays dormant (commands registered, no sidecar), even when VS Code activates it
 * for MCP discovery, and wakes up when a config file appears or a setting names servers.
 */
import * as vscode from 'vscode';
import type { McpLensSettings } from '../../protocol/settings';
import { workspaceFolderInfos } from './settingsReader';

/** Config files in a folder that the default or selected import sources read. */
export function workspaceConfigFiles(settings: McpLensSettings): string[] {
  const files: string[] = [];
  if (settings.importFrom.includes('vscode')) files.push('.vscode/mcp.json');
  if (settings.importFrom.includes('mcp-json')) files.push('.mcp.json');
  if (settings.importFrom.includes('cursor')) files.push('.cursor/mcp.json');
  return files;
}

export async function hasMcpConfiguration(settings: McpLensSettings): Promise<boolean> {
  // Servers in settings (the window's, or a multi-root folder's own), or a user-level source the
  // user chose to import (Claude Desktop's config; `cursor` includes ~/.cursor/mcp.json), are configuration.
  if (
    settings.importFrom.includes('settings') &&
    (Object.keys(settings.servers).length > 0 || workspaceFolderInfos().some((f) => f.servers))
  )
    return true;
  if (settings.importFrom.includes('claude-desktop') || settings.importFrom.includes('cursor')) return true;
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    for (const rel of workspaceConfigFiles(settings)) {
      try {
        await vscode.workspace.fs.stat(vscode.Uri.joinPath(folder.uri, rel));
        return true;
      } catch {
        // not there
      }
    }
  }
  return false;
}

/** Fires once when a config file appears in a workspace folder. */
export function watchForConfiguration(settings: McpLensSettings, onFound: () => void): vscode.Disposable {
  const files = workspaceConfigFiles(settings);
  if (files.length === 0) return new vscode.Disposable(() => undefined);
  const watchers = (vscode.workspace.workspaceFolders ?? []).map((f) =>
    vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(f, `{${files.join(',')}}`), false, true, true),
  );
  const subs = watchers.map((w) => w.onDidCreate(() => onFound()));
  return vscode.Disposable.from(...subs, ...watchers);
}
