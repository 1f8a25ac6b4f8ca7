/**
 * Servers MCP Lens aggregates from .vscode/mcp.json are also offered by VS Code itself (its MCP
 * list shows them, and it starts them when its agent wants their tools), so their tools can
 * reach the agent twice. This explains that once — after the approval prompt has been answered,
 * and counting only duplicates that actually work under MCP Lens — and offers the command that
 * moves those entries into `mcpLens.servers` (workspace settings): backup first, modal
 * confirmation, then settings and a comment-preserving edit of mcp.json applied by the sidecar
 * as one change.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { HoldReloadsRequest, type HoldReloadsParams } from '../../protocol/lspProtocol';
import { plural } from '../../protocol/figureText';
import type { Approvals } from './approvals';
import { duplicateServers } from './duplicateServers';
import { extractServers } from './mcpJsonEdit';
import type { ExtensionServices } from './services';
import type { Sidecar } from './sidecar';

const DONT_SHOW = 'mcpLens.duplicates.dontShow';
const MOVE = 'Move into MCP Lens';
const HOW = 'How to turn them off';
const NEVER = "Don't show again";

/** Watches the sidecar's server list and explains duplicates once per session (or never again). */
export function watchDuplicates(
  context: vscode.ExtensionContext,
  sidecar: Sidecar,
  approvals: Approvals,
): vscode.Disposable {
  let explained = false;
  const check = (): void => {
    const state = sidecar.lens;
    if (!state || explained || context.workspaceState.get<boolean>(DONT_SHOW)) return;
    // The approval prompt comes first; the notice is about servers that run.
    if (approvals.prompting) return;
    const dups = duplicateServers(state.servers, { working: true });
    if (dups.length === 0) return;
    explained = true;
    const names = dups.map((s) => s.name).join(', ');
    const verb = dups.length === 1 ? 'lists it too and starts it' : 'lists them too and starts them';
    void vscode.window
      .showInformationMessage(
        `MCP Lens serves ${plural(dups.length, 'server')} from .vscode/mcp.json (${names}). VS Code ${verb} when its agent wants their tools, so the agent may see those tools twice.`,
        MOVE,
        HOW,
        NEVER,
      )
      .then(async (pick) => {
        if (pick === MOVE) await vscode.commands.executeCommand('mcpLens.moveDuplicates');
        if (pick === HOW) await explainTurningOff();
        if (pick === NEVER) await context.workspaceState.update(DONT_SHOW, true);
      });
  };
  return vscode.Disposable.from(sidecar.onDidChangeLens(check), approvals.onDidChange(check));
}

async function explainTurningOff(): Promise<void> {
  await vscode.window.showInformationMessage("Turning off VS Code's own copy of a server", {
    modal: true,
    detail: [
      'Either move the entries into MCP Lens (command "MCP Lens: Move Duplicate Servers into MCP Lens"): they then live in the workspace setting mcpLens.servers, which only MCP Lens reads.',
      '',
      'Or keep them in .vscode/mcp.json and stop VS Code\'s copy: run "MCP: List Servers", pick the server and choose "Stop Server" (or disable it in the Extensions view under MCP SERVERS). MCP Lens keeps using them.',
    ].join('\n'),
  });
}

/** The "Move Duplicate Servers into MCP Lens" command. */
export async function moveDuplicates(s: ExtensionServices): Promise<void> {
  const dups = duplicateServers(s.sidecar.lens?.servers ?? []);
  const files = [...new Set(dups.map((d) => d.sourceFile))];
  if (dups.length === 0 || files.length === 0) {
    void vscode.window.showInformationMessage('MCP Lens: no server from .vscode/mcp.json is offered twice.');
    return;
  }
  for (const file of files) {
    // A multi-root folder's server goes by `<folder>/<name>`; its file knows it as `<name>`.
    const names = dups.filter((d) => d.sourceFile === file).map((d) => d.localName ?? d.name);
    await moveFrom(s, file, names);
  }
}

async function moveFrom(s: ExtensionServices, file: string, names: string[]): Promise<void> {
  const uri = vscode.Uri.file(file);
  const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  const extraction = extractServers(text, names);
  const moved = Object.keys(extraction.entries);
  if (moved.length === 0) return;
  const folder = vscode.workspace.getWorkspaceFolder(uri);
  const rel = vscode.workspace.asRelativePath(uri);
  const pick = await vscode.window.showWarningMessage(
    `Move ${plural(moved.length, 'server')} from ${rel} into MCP Lens?`,
    {
      modal: true,
      detail: `${moved.join(', ')} will be removed from ${rel} (a backup is written next to it first) and added to the workspace setting mcpLens.servers, so only MCP Lens starts them. Inputs (\${input:…}) stay declared in ${rel}.`,
    },
    'Move',
  );
  if (pick !== 'Move') return;
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const backup = vscode.Uri.file(`${file}.bak-${stamp}`);
  await vscode.workspace.fs.copy(uri, backup, { overwrite: false });
  // Two files change; the sidecar holds its reloads until both are written and then loads the
  // result once, so it never sees a server declared in both (or in neither) in between.
  const hold = (p: HoldReloadsParams) => s.sidecar.request(HoldReloadsRequest, p).catch(() => null);
  await hold({ hold: true });
  try {
    // Settings first: if writing mcp.json then fails, nothing is lost (the entries are in both).
    const config = vscode.workspace.getConfiguration('mcpLens', folder?.uri);
    // Multi-root: into the folder's own settings, where the sidecar reads them as that folder's.
    const toFolder = folder !== undefined && (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
    const levels = config.inspect<Record<string, unknown>>('servers');
    const current = (toFolder ? levels?.workspaceFolderValue : levels?.workspaceValue) ?? {};
    const target = toFolder ? vscode.ConfigurationTarget.WorkspaceFolder : vscode.ConfigurationTarget.Workspace;
    await config.update('servers', { ...current, ...extraction.entries }, target);
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(extraction.text));
    await s.pushSettings();
  } finally {
    await hold({ hold: false });
  }
  void vscode.window.showInformationMessage(
    `MCP Lens: moved ${moved.join(', ')} into mcpLens.servers. Backup: ${path.basename(backup.fsPath)}.`,
  );
}
