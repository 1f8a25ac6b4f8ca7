/**
 * "MCP Lens: List Servers": every server behind MCP Lens with its state; picking one that waits
 * for approval asks for it (a refused server can be approved later here), a failed one is
 * restarted, a config file that does not parse is opened.
 */
import * as vscode from 'vscode';
import { RestartServerRequest, ServersRequest } from '../../../protocol/lspProtocol';
import type { ExtensionServices } from '../services';
import { serverItems, type ServerAction } from './serverItems';

export async function listServers(s: ExtensionServices): Promise<void> {
  const servers = await s.sidecar.request(ServersRequest);
  if (servers.length === 0) {
    void vscode.window.showInformationMessage(
      'MCP Lens: no MCP server is configured (.vscode/mcp.json, .mcp.json or mcpLens.servers).',
    );
    return;
  }
  const picked = await vscode.window.showQuickPick(
    serverItems(servers).map((i) => ({ ...i, picked: false })),
    {
      title: 'MCP Lens: Servers',
      placeHolder: 'Select a server to approve, restart or open it',
      matchOnDescription: true,
    },
  );
  if (picked) await run(s, picked.action);
}

async function run(s: ExtensionServices, action: ServerAction): Promise<void> {
  switch (action.kind) {
    case 'approve':
      if (await s.approvals.promptAll([action.name])) await s.pushSettings();
      return;
    case 'signIn':
      await vscode.commands.executeCommand('mcpLens.signIn', action.name);
      return;
    case 'restart':
      await s.sidecar.request(RestartServerRequest, { name: action.name });
      return;
    case 'open':
      await vscode.window.showTextDocument(vscode.Uri.file(action.file));
      return;
    case 'none':
      return;
  }
}
