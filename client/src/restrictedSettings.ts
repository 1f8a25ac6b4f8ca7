/**
 * Restricted settings in the editor (protocol/settings.ts RESTRICTED_SETTINGS: they send data
 * out or change what runs, like `mcpLens.ollama.host`). VS Code itself hides workspace values of
 * the settings the manifest lists in `restrictedConfigurations` while the workspace is untrusted;
 * MCP Lens also asks before it uses a workspace's value in a trusted one, as it does for a
 * server, and remembers the approved values per workspace. Until then the user's own value (or
 * the default) is used, and the log and a notification say why.
 */
import * as vscode from 'vscode';
import {
  RESTRICTED_SETTINGS,
  gateRestricted,
  restrictedApprovalValue,
  type RestrictedGate,
  type SettingLevels,
} from '../../protocol/settings';
import { quotedForDisplay } from '../../protocol/untrustedText';

const KEY = 'mcpLens.restrictedSettingsApproved';

let state: vscode.Memento | undefined;

/** Called once at activation: where approvals of restricted values are kept. */
export function initRestrictedSettings(workspaceState: vscode.Memento): void {
  state = workspaceState;
}

/** The gate for the current configuration, trust and approval. */
export function restrictedGate(cfg: vscode.WorkspaceConfiguration): RestrictedGate {
  const levels: Record<string, SettingLevels> = {};
  for (const key of RESTRICTED_SETTINGS) levels[key] = cfg.inspect(key) ?? {};
  return gateRestricted(levels, vscode.workspace.isTrusted, state?.get<string>(KEY));
}

let asked: string | undefined;

/**
 * Tells the user why a workspace's restricted values are not used and, in a trusted workspace,
 * asks (modal) whether to use them. True when the user approved them (the caller restarts the
 * sidecar: these settings need it).
 */
export async function reviewRestrictedSettings(gate: RestrictedGate, log: vscode.LogOutputChannel): Promise<boolean> {
  if (gate.state === 'none' || gate.state === 'applied') return false;
  const lines = Object.entries(gate.workspaceValues).map(([k, v]) => `mcpLens.${k}: ${quotedForDisplay(v)}`);
  const value = restrictedApprovalValue(gate.workspaceValues);
  if (gate.state === 'untrusted') {
    log.info(
      `not using the workspace's ${lines.join(', ')}: the workspace is not trusted; your own setting or the default applies`,
    );
    return false;
  }
  if (asked === value) return false;
  asked = value;
  log.warn(`the workspace sets ${lines.join(', ')}; it is not used until you allow it`);
  const pick = await vscode.window.showWarningMessage(
    'This workspace sets MCP Lens settings that send data out of your machine. Use them?',
    {
      modal: true,
      detail: `${lines.join('\n')}\n\nmcpLens.ollama.host receives every tool description and every search query. Until you allow it, your own setting or the default is used.`,
    },
    'Allow',
    "Don't Allow",
  );
  if (pick !== 'Allow') return false;
  await state?.update(KEY, value);
  return true;
}
