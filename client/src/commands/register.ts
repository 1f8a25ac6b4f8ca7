/**
 * Every contributed command, as factories over one context. Each degrades while the sidecar is
 * down: the error names what is wrong and what to run, nothing throws into the editor.
 */
import * as vscode from 'vscode';
import { plural } from '../../../protocol/figureText';
import { ClearUsageRequestMethod, ReindexRequestMethod } from '../../../protocol/lspProtocol';
import { showDashboard } from '../dashboardPanel';
import { moveDuplicates } from '../duplicates';
import type { ExtensionServices } from '../services';
import { errorText } from '../sidecar';
import { pullModel } from './pullModel';
import { searchTools } from './searchTools';

type Handler = (s: ExtensionServices) => Promise<unknown>;

const COMMANDS: Record<string, Handler> = {
  'mcpLens.searchTools': (s) => searchTools(s.sidecar, s.docs),
  'mcpLens.showDashboard': async (s) => showDashboard(s.context, s.sidecar),
  'mcpLens.reindex': async (s) =>
    vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'MCP Lens: reindexing tools…' }, () =>
      s.sidecar.request(ReindexRequestMethod),
    ),
  'mcpLens.restartSidecar': async (s) => {
    await s.sidecar.restart();
    void vscode.window.showInformationMessage('MCP Lens: sidecar restarted.');
  },
  'mcpLens.showLogs': async (s) => s.log.show(),
  'mcpLens.pullEmbeddingModel': (s) => pullModel(s.sidecar),
  'mcpLens.forgetInputs': async (s) => {
    const n = await s.inputs.forget();
    await s.pushSettings();
    void vscode.window.showInformationMessage(`MCP Lens: forgot ${plural(n, 'stored input value')}.`);
  },
  'mcpLens.moveDuplicates': (s) => moveDuplicates(s.sidecar),
  'mcpLens.approveServers': async (s) => {
    if (await s.approvals.promptAll()) await s.pushSettings();
  },
  'mcpLens.clearUsage': async (s) => {
    const pick = await vscode.window.showWarningMessage('Clear MCP Lens usage data for this workspace?', { modal: true }, 'Clear');
    if (pick !== 'Clear') return;
    await s.sidecar.request(ClearUsageRequestMethod);
    void vscode.window.showInformationMessage('MCP Lens: usage data cleared.');
  },
};

export function registerCommands(s: ExtensionServices): vscode.Disposable[] {
  return Object.entries(COMMANDS).map(([id, handler]) =>
    vscode.commands.registerCommand(id, async () => {
      try {
        await handler(s);
      } catch (err) {
        s.log.error(`${id}: ${errorText(err)}`);
        void vscode.window.showErrorMessage(`MCP Lens: ${errorText(err)}`);
      }
    }),
  );
}
