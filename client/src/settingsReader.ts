/**
 * Reads the `mcpLens.*` settings once, in one place, through the shared sanitizer: the sidecar
 * only ever sees `McpLensSettings`. Knows which changes need the sidecar restarted.
 */
import * as vscode from 'vscode';
import { DEFAULT_SETTINGS, RESTART_SETTINGS, excludeOfAllLevels, sanitizeSettings, withoutRestricted, type McpLensSettings } from '../../protocol/settings';
import { restrictedGate } from './restrictedSettings';

export const SECTION = 'mcpLens';

/**
 * Restricted settings (ollama.host) come through the gate: a workspace's value only when trusted
 * and approved, else the user's own value; unset, OLLAMA_HOST or the default applies. `exclude`
 * is the union of every level: a workspace adds to the user's, never replaces it.
 */
export function readSettings(): McpLensSettings {
  const cfg = vscode.workspace.getConfiguration(SECTION);
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(DEFAULT_SETTINGS)) raw[key] = cfg.get(key);
  raw.exclude = excludeOfAllLevels(cfg.inspect('exclude'));
  const gated = withoutRestricted(raw);
  for (const [key, value] of Object.entries(restrictedGate(cfg).values)) {
    if (value === undefined) continue;
    const parts = key.split('.');
    let target = gated;
    for (const part of parts.slice(0, -1)) target = (target[part] ??= {}) as Record<string, unknown>;
    target[parts[parts.length - 1]!] = value;
  }
  return sanitizeSettings(gated, process.env);
}

/** What a configuration change asks for: nothing, a live update, or a sidecar restart. */
export function changeKind(e: vscode.ConfigurationChangeEvent): 'none' | 'update' | 'restart' {
  if (!e.affectsConfiguration(SECTION)) return 'none';
  return RESTART_SETTINGS.some((k) => e.affectsConfiguration(`${SECTION}.${k}`)) ? 'restart' : 'update';
}
