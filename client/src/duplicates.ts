/**
 * Servers MCP Lens aggregates from .vscode/mcp.json are also started by VS Code itself, so
 * their tools reach the agent twice and every process runs twice. This explains that once and
 * offers the command that moves those entries into `mcpLens.servers` (workspace settings):
 * backup first, modal confirmation, then a comment-preserving edit of mcp.json.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { plural } from '../../protocol/figureText';
import type { ServerStatus } from '../../protocol/model';
import { extractServers } from './mcpJsonEdit';
import type { Sidecar } from './sidecar';

const DONT_SHOW = 'mcpLens.duplicates.dontShow';
const MOVE = 'Move into MCP Lens';
const HOW = 'How to turn them off';
const NEVER = "Don't show again";

export function duplicateServers(servers: readonly ServerStatus[]): ServerStatus[] {
  return servers.filter((s) => s.source === 'vscode-mcp-json' && s.alsoStartedByEditor !== false);
}

/** Watches the sidecar's server list and explains duplicates once per session (or never again). */
export function watchDuplicates(context: vscode.ExtensionContext, sidecar: Sidecar): vscode.Disposable {
  let explained = false;
  return sidecar.onDidChangeLens((state) => {
    if (explained || context.workspaceState.get<boolean>(DONT_SHOW)) return;
    const dups = duplicateServers(state.servers);
    if (dups.length === 0) return;
    explained = true;
    const names = dups.map((s) => s.name).join(', ');
    void vscode.window
      .showInformationMessage(
        `MCP Lens aggregates ${plural(dups.length, 'server')} from .vscode/mcp.json (${names}) that VS Code also starts itself, so the agent sees their tools twice.`,
        MOVE,
        HOW,
        NEVER,
      )
      .then(async (pick) => {
        if (pick === MOVE) await vscode.commands.executeCommand('mcpLens.moveDuplicates');
        if (pick === HOW) await explainTurningOff();
        if (pick === NEVER) await context.workspaceState.update(DONT_SHOW, true);
      });
  });
}

async function explainTurningOff(): Promise<void> {
  await vscode.window.showInformationMessage('Turning off VS Code\'s own copy of a server', {
    modal: true,
    detail: [
      'Either move the entries into MCP Lens (command "MCP Lens: Move Duplicate Servers into MCP Lens"): they then live in the workspace setting mcpLens.servers, which only MCP Lens reads.',
      '',
      'Or keep them in .vscode/mcp.json and stop VS Code\'s copy: run "MCP: List Servers", pick the server and choose "Stop Server" (or disable it in the Extensions view under MCP SERVERS). MCP Lens keeps using them.',
    ].join('\n'),
  });
}

/** The "Move Duplicate Servers into MCP Lens" command. */
export async function moveDuplicates(sidecar: Sidecar): Promise<void> {
  const dups = duplicateServers(sidecar.lens?.servers ?? []);
  const files = [...new Set(dups.map((s) => s.sourceFile))];
  if (dups.length === 0 || files.length === 0) {
    void vscode.window.showInformationMessage('MCP Lens: no server from .vscode/mcp.json is started twice.');
    return;
  }
  for (const file of files) {
    const names = dups.filter((s) => s.sourceFile === file).map((s) => s.name);
    await moveFrom(file, names);
  }
}

async function moveFrom(file: string, names: string[]): Promise<void> {
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
  const config = vscode.workspace.getConfiguration('mcpLens', folder?.uri);
  const current = config.inspect<Record<string, unknown>>('servers')?.workspaceValue ?? {};
  const target = folder && (vscode.workspace.workspaceFolders?.length ?? 0) > 1 ? vscode.ConfigurationTarget.WorkspaceFolder : vscode.ConfigurationTarget.Workspace;
  await config.update('servers', { ...current, ...extraction.entries }, target);
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(extraction.text));
  void vscode.window.showInformationMessage(`MCP Lens: moved ${moved.join(', ')} into mcpLens.servers. Backup: ${path.basename(backup.fsPath)}.`);
}
