/**
 * One status bar item: how many tools sit behind MCP Lens and the tokens saved, a spinner
 * while indexing, a warning background when a server or the sidecar is in trouble.
 * Click → the dashboard.
 */
import * as vscode from 'vscode';
import type { StateChangedParams } from '../../protocol/lspProtocol';
import type { Sidecar, SidecarState } from './sidecar';
import { plural } from '../../protocol/figureText';
import { formatTokens, statusSummary } from './statusText';

export function createStatusBar(sidecar: Sidecar): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('mcpLens.status', vscode.StatusBarAlignment.Left, 50);
  item.name = 'MCP Lens';
  item.command = 'mcpLens.showDashboard';
  const render = (): void => show(item, sidecar.state, sidecar.lens);
  render();
  item.show();
  return vscode.Disposable.from(item, sidecar.onDidChangeState(render), sidecar.onDidChangeLens(render));
}

function show(item: vscode.StatusBarItem, state: SidecarState, lens: StateChangedParams | undefined): void {
  item.backgroundColor = undefined;
  if (state === 'failed' || state === 'restarting') {
    item.text = state === 'failed' ? '$(error) MCP Lens' : '$(sync~spin) MCP Lens';
    const tooltip = state === 'failed' ? 'The MCP Lens sidecar crashed repeatedly and was stopped. Click for the dashboard; run "MCP Lens: Restart Sidecar".' : 'The MCP Lens sidecar crashed and is restarting.';
    item.tooltip = tooltip;
    item.backgroundColor = new vscode.ThemeColor(state === 'failed' ? 'statusBarItem.errorBackground' : 'statusBarItem.warningBackground');
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
  item.text = `${s.indexing ? '$(sync~spin)' : '$(telescope)'} ${plural(s.tools, 'tool')}${s.savedTokens > 0 ? ` · ${formatTokens(s.savedTokens)} saved` : ''}`;
  const tip = new vscode.MarkdownString(undefined, false);
  tip.isTrusted = false;
  tip.appendText(s.tooltipLines.join('\n'));
  item.tooltip = tip;
  item.accessibilityInformation = { label: s.ariaLabel, role: 'button' };
  if (s.problems > 0) item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
}
