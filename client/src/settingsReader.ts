/**
 * Reads the `mcpLens.*` settings once, in one place, through the shared sanitizer: the sidecar
 * only ever sees `McpLensSettings`. Knows which changes need the sidecar restarted.
 */
import * as vscode from 'vscode';
import type { WorkspaceFolderInfo } from '../../protocol/lspProtocol';
import {
  DEFAULT_SETTINGS,
  RESTART_SETTINGS,
  excludeOfAllLevels,
  sanitizeSettings,
  withoutRestricted,
  type SettingsWarn,
  type McpLensSettings,
  type ToolFilterLevels,
} from '../../protocol/settings';
import { restrictedGate } from './restrictedSettings';

export const SECTION = 'mcpLens';

/**
 * Logs each problem of the settings once while it lasts: they are read again at every change,
 * and a value the user fixed and broke again is told again.
 */
export class SettingsProblems {
  private shown = new Set<string>();

  constructor(private readonly warn: SettingsWarn) {}

  report(messages: readonly string[]): void {
    for (const m of messages) if (!this.shown.has(m)) this.warn(m);
    this.shown = new Set(messages);
  }
}

/**
 * Restricted settings (ollama.host) come through the gate: a workspace's value only when trusted
 * and approved, else the user's own value; unset, OLLAMA_HOST or the default applies. `exclude`
 * is the union of every level: a workspace adds to the user's, never replaces it. What the
 * sanitizer repaired goes to `problems`.
 */
export function readSettings(problems?: SettingsProblems): McpLensSettings {
  const cfg = vscode.workspace.getConfiguration(SECTION);
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(DEFAULT_SETTINGS)) raw[key] = cfg.get(key);
  // A multi-root folder's own exclude hides tools too (from every folder: it never shows more).
  const exclude = cfg.inspect('exclude');
  const ownFolders = [exclude?.workspaceFolderValue, ...folderLevel('exclude')].filter(Array.isArray).flat();
  raw.exclude = excludeOfAllLevels({ ...exclude, workspaceFolderValue: ownFolders });
  const gated = withoutRestricted(raw);
  for (const [key, value] of Object.entries(restrictedGate(cfg).values)) {
    if (value === undefined) continue;
    const parts = key.split('.');
    let target = gated;
    for (const part of parts.slice(0, -1)) target = (target[part] ??= {}) as Record<string, unknown>;
    target[parts[parts.length - 1]!] = value;
  }
  const found: string[] = [];
  const settings = sanitizeSettings(gated, process.env, (m) => found.push(m));
  problems?.report(found);
  return settings;
}

/**
 * Which include/exclude patterns are the user's own (user settings, outside the workspace: the
 * user's hand) and which come from the workspace's files (`.vscode/settings.json`, the
 * `.code-workspace` file, each folder's settings), which any tool an agent calls may write. The
 * sidecar applies a workspace change that shows more tools only once the user approves it.
 */
export function toolFilterLevels(): ToolFilterLevels {
  const cfg = vscode.workspace.getConfiguration(SECTION);
  const include = cfg.inspect('include');
  const exclude = cfg.inspect('exclude');
  const strings = (v: unknown): string[] | undefined =>
    Array.isArray(v) ? v.filter((p): p is string => typeof p === 'string') : undefined;
  const level = (inc: unknown, exc: unknown) => {
    const out: { include?: string[]; exclude?: string[] } = {};
    const i = strings(inc);
    const e = strings(exc);
    if (i) out.include = i;
    if (e) out.exclude = e;
    return out;
  };
  const workspaceExclude = excludeOfAllLevels({
    workspaceValue: exclude?.workspaceValue,
    workspaceFolderValue: [exclude?.workspaceFolderValue, ...folderLevel('exclude')].filter(Array.isArray).flat(),
  });
  return {
    user: level(include?.globalValue, exclude?.globalValue),
    workspace: level(include?.workspaceValue, workspaceExclude),
  };
}

/** What a configuration change asks for: nothing, a live update, or a sidecar restart. */
export function changeKind(e: vscode.ConfigurationChangeEvent): 'none' | 'update' | 'restart' {
  if (!e.affectsConfiguration(SECTION)) return 'none';
  return RESTART_SETTINGS.some((k) => e.affectsConfiguration(`${SECTION}.${k}`)) ? 'restart' : 'update';
}

/** In a multi-root workspace, each folder's own value of a setting (none in a single-folder one). */
function folderLevel(key: string): unknown[] {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length < 2) return [];
  return folders
    .map((f) => vscode.workspace.getConfiguration(SECTION, f.uri).inspect(key)?.workspaceFolderValue)
    .filter((v) => v !== undefined);
}

/**
 * The workspace folders for the sidecar, with their names and, in a multi-root workspace, each
 * folder's own `mcpLens.servers` (the window's settings do not include them). The sidecar reads
 * each folder's config as that folder's (server/src/core/config/folders.ts).
 */
export function workspaceFolderInfos(): WorkspaceFolderInfo[] {
  const folders = vscode.workspace.workspaceFolders ?? [];
  return folders.map((f) => {
    const servers =
      folders.length > 1
        ? vscode.workspace.getConfiguration(SECTION, f.uri).inspect<Record<string, unknown>>('servers')
            ?.workspaceFolderValue
        : undefined;
    return {
      path: f.uri.fsPath,
      name: f.name,
      // Only an object is servers: the sidecar refuses folders whose servers are anything else.
      ...(isObject(servers) && Object.keys(servers).length > 0 ? { servers } : {}),
    };
  });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
