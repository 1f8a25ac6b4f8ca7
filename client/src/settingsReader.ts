/**
 * Reads the `mcpLens.*` settings once, in one place, through the shared sanitizer: the sidecar
 * only ever sees `McpLensSettings`. Knows which changes need the sidecar restarted.
 */
import * as vscode from 'vscode';
import { DEFAULT_SETTINGS, RESTART_SETTINGS, sanitizeSettings, type McpLensSettings } from '../../protocol/settings';

export const SECTION = 'mcpLens';

export function readSettings(): McpLensSettings {
  const cfg = vscode.workspace.getConfiguration(SECTION);
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(DEFAULT_SETTINGS)) raw[key] = cfg.get(key);
  // The editor always answers with the declared default; drop it when nobody set the host,
  // so OLLAMA_HOST from the environment wins over the default as it does in the CLI.
  const host = cfg.inspect<string>('ollama.host');
  if (host && host.globalValue === undefined && host.workspaceValue === undefined && host.workspaceFolderValue === undefined) {
    raw.ollama = {};
  }
  return sanitizeSettings(raw, process.env);
}

/** What a configuration change asks for: nothing, a live update, or a sidecar restart. */
export function changeKind(e: vscode.ConfigurationChangeEvent): 'none' | 'update' | 'restart' {
  if (!e.affectsConfiguration(SECTION)) return 'none';
  return RESTART_SETTINGS.some((k) => e.affectsConfiguration(`${SECTION}.${k}`)) ? 'restart' : 'update';
}
