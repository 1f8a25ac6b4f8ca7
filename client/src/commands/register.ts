/**
 * Every contributed command, as factories over one context. Each degrades while the sidecar is
 * down: the error names what is wrong and what to run, nothing throws into the editor.
 */
import * as vscode from 'vscode';
import { plural } from '../../../protocol/figureText';
import { ClearUsageRequest, DashboardRequest, ReindexRequest } from '../../../protocol/lspProtocol';
import { definitionChangedMessage, type ActionResult } from '../../../protocol/webviewProtocol';
import { showDashboard, type DashboardBackend } from '../dashboardPanel';
import { moveDuplicates } from '../duplicates';
import type { ExtensionServices } from '../services';
import { errorText } from '../sidecar';
import { listServers } from './listServers';
import { pullModel } from './pullModel';
import { searchTools } from './searchTools';
import { signIn, signOut } from './signIn';

/** `args`: what a status bar item or another command passes (a server name); the palette passes none. */
type Handler = (s: ExtensionServices, ...args: unknown[]) => Promise<unknown>;

const COMMANDS: Record<string, Handler> = {
  'mcpLens.searchTools': (s) => searchTools(s.sidecar, s.docs),
  'mcpLens.showDashboard': async (s) => showDashboard(s.context, dashboardBackend(s)),
  'mcpLens.reindex': async (s) =>
    vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'MCP Lens: reindexing tools…' },
      () => s.sidecar.request(ReindexRequest),
    ),
  'mcpLens.restartSidecar': async (s) => {
    if (s.sidecar.state === 'stopped') return s.ensureStarted();
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
  'mcpLens.moveDuplicates': (s) => moveDuplicates(s),
  'mcpLens.approveServers': async (s) => {
    if (await s.approvals.promptAll()) await s.pushSettings();
  },
  'mcpLens.listServers': (s) => listServers(s),
  'mcpLens.signIn': (s, name) => signIn(s, name),
  'mcpLens.signOut': (s, name) => signOut(s, name),
  'mcpLens.clearUsage': async (s) => {
    const pick = await vscode.window.showWarningMessage(
      'Clear MCP Lens usage data for this workspace?',
      { modal: true },
      'Clear',
    );
    if (pick !== 'Clear') return;
    await s.sidecar.request(ClearUsageRequest);
    void vscode.window.showInformationMessage('MCP Lens: usage data cleared.');
  },
  'mcpLens.forgetLearnedSearch': async (s) => {
    const pick = await vscode.window.showWarningMessage(
      "Forget what MCP Lens search learned from this workspace's find_tools requests?",
      { modal: true },
      'Forget',
    );
    if (pick !== 'Forget') return;
    // The dashboard's own request: one place forgets, whether the panel or the palette asks.
    const result = (await s.sidecar.request(DashboardRequest, {
      method: 'forgetLearnedSearch',
      params: {},
    })) as ActionResult;
    if (!result.ok) throw new Error(result.error ?? 'forgetting learned search failed');
    void vscode.window.showInformationMessage('MCP Lens: learned search forgotten.');
  },
};

/** Commands that work without the sidecar; every other one starts it first (dormant → running). */
const WITHOUT_SIDECAR = new Set(['mcpLens.showLogs', 'mcpLens.restartSidecar', 'mcpLens.forgetInputs']);

/** What the dashboard panel talks to: the sidecar, plus approving through the editor's prompt. */
function dashboardBackend(s: ExtensionServices): DashboardBackend {
  return {
    dashboard: (call) => s.sidecar.request(DashboardRequest, call),
    onDidChangeLens: s.sidecar.onDidChangeLens,
    onPullProgress: s.sidecar.onPullProgress,
    approveServer: async (name, fingerprint) => {
      // The modal shows the definition it approves; it must also be the one the dashboard showed.
      const waiting = s.approvals.waiting.find((w) => w.name === name);
      if (waiting && waiting.fingerprint !== fingerprint) throw new Error(definitionChangedMessage(name));
      if (await s.approvals.promptAll([name], fingerprint)) await s.pushSettings();
    },
  };
}

/** Starts a dormant sidecar and waits (a bounded time) for a starting one; a failed one is left to say so. */
async function startedAndReady(s: ExtensionServices): Promise<void> {
  await s.ensureStarted();
  if (s.sidecar.state !== 'starting') return;
  const cancel = new vscode.CancellationTokenSource();
  const timer = setTimeout(() => cancel.cancel(), 60_000);
  try {
    await s.sidecar.whenReady(cancel.token);
  } finally {
    clearTimeout(timer);
    cancel.dispose();
  }
}

export function registerCommands(s: ExtensionServices): vscode.Disposable[] {
  return Object.entries(COMMANDS).map(([id, handler]) =>
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        if (!WITHOUT_SIDECAR.has(id)) await startedAndReady(s);
        await handler(s, ...args);
      } catch (err) {
        s.log.error(`${id}: ${errorText(err)}`);
        void vscode.window.showErrorMessage(`MCP Lens: ${errorText(err)}`);
      }
    }),
  );
}
