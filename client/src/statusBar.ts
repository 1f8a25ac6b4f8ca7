/**
 * The status bar: one item with how many tools sit behind MCP Lens and the tokens saved, a
 * spinner while indexing, a warning background when a server or the sidecar is in trouble
 * (click → the dashboard); and, while servers wait for approval, a second item that says so
 * and approves them on click — a refused server can always be approved later from here; and,
 * while remote servers need sign-in, a third that signs in to them on click.
 */
import * as vscode from 'vscode';
import type { StateChangedParams } from '../../protocol/lspProtocol';
import type { Approvals } from './approvals';
import type { Sidecar, SidecarState } from './sidecar';
import { approvalText, signInText, statusBarText, statusSummary } from './statusText';

export function createStatusBar(sidecar: Sidecar, approvals: Approvals): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('mcpLens.status', vscode.StatusBarAlignment.Left, 50);
  item.name = 'MCP Lens';
  item.command = 'mcpLens.showDashboard';
  const waiting = vscode.window.createStatusBarItem('mcpLens.approvals', vscode.StatusBarAlignment.Left, 49);
  waiting.name = 'MCP Lens: servers awaiting approval';
  waiting.command = 'mcpLens.approveServers';
  waiting.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
  const signIn = vscode.window.createStatusBarItem('mcpLens.signIn', vscode.StatusBarAlignment.Left, 48);
  signIn.name = 'MCP Lens: servers that need sign-in';
  signIn.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
  const render = (): void => {
    // Dormant (no MCP configuration): no status bar item at all.
    if (sidecar.state === 'stopped' && !sidecar.lens) item.hide();
    else item.show();
    show(item, sidecar.state, sidecar.lens);
    const needs = sidecar.isRunning
      ? signInText((sidecar.lens?.servers ?? []).filter((s) => s.state === 'needs-sign-in').map((s) => s.name))
      : undefined;
    if (needs) {
      signIn.text = needs.text;
      signIn.tooltip = needs.tooltip;
      signIn.command = { title: 'Sign in', command: 'mcpLens.signIn', arguments: needs.args };
      signIn.accessibilityInformation = { label: needs.tooltip, role: 'button' };
      signIn.show();
    } else signIn.hide();
    const servers = approvals.waiting.filter((s) => s.kind !== 'tool-filter').map((s) => s.name);
    const text = sidecar.isRunning ? approvalText(servers, servers.length < approvals.waiting.length) : undefined;
    if (!text || approvals.prompting) return waiting.hide();
    waiting.text = text.text;
    waiting.tooltip = text.tooltip;
    waiting.show();
  };
  render();
  return vscode.Disposable.from(
    item,
    waiting,
    signIn,
    sidecar.onDidChangeState(render),
    sidecar.onDidChangeLens(render),
    approvals.onDidChange(render),
  );
}

function show(item: vscode.StatusBarItem, state: SidecarState, lens: StateChangedParams | undefined): void {
  item.backgroundColor = undefined;
  if (state === 'failed' || state === 'restarting') {
    item.text = state === 'failed' ? '$(error) MCP Lens' : '$(sync~spin) MCP Lens';
    const tooltip =
      state === 'failed'
        ? 'The MCP Lens sidecar crashed repeatedly and was stopped. Click for the dashboard; run "MCP Lens: Restart Sidecar".'
        : 'The MCP Lens sidecar crashed and is restarting.';
    item.tooltip = tooltip;
    item.backgroundColor = new vscode.ThemeColor(
      state === 'failed' ? 'statusBarItem.errorBackground' : 'statusBarItem.warningBackground',
    );
    item.accessibilityInformation = { label: tooltip, role: 'button' };
    return;
  }
  if (state !== 'running' || !lens) {
    item.text = '$(loading~spin) MCP Lens';
    item.tooltip = 'MCP Lens is starting…';
    item.accessibilityInformation = { label: 'MCP Lens is starting…', role: 'button' };
    return;
  }
  const s = statusSummary(lens);
  item.text = statusBarText(s);
  const tip = new vscode.MarkdownString(undefined, false);
  tip.isTrusted = false;
  tip.appendText(s.tooltipLines.join('\n'));
  item.tooltip = tip;
  item.accessibilityInformation = { label: s.ariaLabel, role: 'button' };
  if (s.problems > 0) item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
}
