/**
 * The dashboard as a VS Code webview panel. The page (dist/webview/dashboard.js) is the same
 * bundle the browser gets from `mcp-lens serve --http`; here its requests arrive over
 * postMessage and go to the sidecar as `mcpLens/dashboard`, answered there by the same
 * handlers as the browser's (server/src/gateway/dashboard/handlers.ts), and the sidecar's
 * pushed state is forwarded as events. Only approving a server is the editor's own: it is VS
 * Code's modal prompt. The message maps are protocol/webviewProtocol.ts.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { DashboardCall, PullProgressParams, StateChangedParams } from '../../protocol/lspProtocol';
import {
  DASHBOARD_METHODS,
  type ActionResult,
  type HostMessage,
  type WebviewRequestMessage,
} from '../../protocol/webviewProtocol';
import { sideColumn } from './sideColumn';

/** What the panel needs from the sidecar (the extension's `Sidecar` satisfies it). */
export interface DashboardBackend {
  /** Answers one dashboard request in the sidecar (`mcpLens/dashboard`); rejects while it is down. */
  dashboard(call: DashboardCall): Promise<unknown>;
  /** Every `mcpLens/stateChanged` (servers, index, stats). */
  readonly onDidChangeLens: vscode.Event<StateChangedParams>;
  /** Every `mcpLens/pullProgress`. */
  readonly onPullProgress: vscode.Event<PullProgressParams>;
  /**
   * Asks the user (VS Code's modal prompt) to approve a server that waits for approval, if its
   * definition is still the one with `fingerprint` (the one the dashboard showed); rejects otherwise.
   */
  approveServer?(name: string, fingerprint: string): Promise<void>;
}

let current: vscode.WebviewPanel | undefined;
/** The column the dashboard was last in, so reopening it puts it back there. */
let lastColumn: vscode.ViewColumn | undefined;

/**
 * Opens the dashboard, or brings the open one to the front in the column it is in. A new
 * panel goes where the last one was, else into another existing editor group, and splits the
 * editor only when there is a single group (sideColumn.ts).
 */
export function showDashboard(context: vscode.ExtensionContext, sidecar: DashboardBackend): void {
  if (current) {
    current.reveal(current.viewColumn);
    return;
  }
  const root = vscode.Uri.joinPath(context.extensionUri, 'dist', 'webview');
  const column = sideColumn(vscode.window.tabGroups, lastColumn);
  const panel = vscode.window.createWebviewPanel(
    'mcpLens.dashboard',
    'MCP Lens',
    column === 'beside' ? vscode.ViewColumn.Beside : column,
    {
      enableScripts: true,
      localResourceRoots: [root],
    },
  );
  lastColumn = panel.viewColumn;
  panel.webview.html = dashboardHtml(panel.webview, vscode.Uri.joinPath(root, 'dashboard.js'));
  const post = (message: HostMessage) => void panel.webview.postMessage(message);
  const subscriptions = [
    panel.webview.onDidReceiveMessage((m: WebviewRequestMessage) => void answer(m, sidecar, post)),
    sidecar.onDidChangeLens((s) =>
      post({ kind: 'event', event: 'state', data: { servers: s.servers, index: s.index, stats: s.stats } }),
    ),
    sidecar.onPullProgress((p) => post({ kind: 'event', event: 'pullProgress', data: p })),
    // The user may drag the panel to another group: reopen it there next time.
    panel.onDidChangeViewState((e) => (lastColumn = e.webviewPanel.viewColumn ?? lastColumn)),
  ];
  current = panel;
  panel.onDidDispose(() => {
    current = undefined;
    for (const s of subscriptions) s.dispose();
  });
}

async function answer(
  m: WebviewRequestMessage,
  backend: DashboardBackend,
  post: (message: HostMessage) => void,
): Promise<void> {
  if (!m || m.kind !== 'request' || typeof m.id !== 'number' || !DASHBOARD_METHODS.includes(m.method)) return;
  try {
    const params = m.params ?? {};
    const result =
      m.method === 'approveServer' && backend.approveServer
        ? await approve(backend.approveServer, params)
        : await backend.dashboard({ method: m.method, params });
    post({ kind: 'response', id: m.id, result });
  } catch (err) {
    post({ kind: 'error', id: m.id, message: `${m.method}: ${err instanceof Error ? err.message : String(err)}` });
  }
}

/** Approving goes through the editor's prompt; failure is a value the dashboard shows. */
async function approve(
  approveServer: NonNullable<DashboardBackend['approveServer']>,
  params: unknown,
): Promise<ActionResult> {
  const { name, fingerprint } = params as { name?: unknown; fingerprint?: unknown };
  if (typeof name !== 'string' || !name) return { ok: false, error: '"name" must be a non-empty string' };
  if (typeof fingerprint !== 'string' || !fingerprint)
    return { ok: false, error: '"fingerprint" must be a non-empty string' };
  try {
    await approveServer(name, fingerprint);
    return { ok: true };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

/** The page shell: a fresh nonce per panel, scripts only with it, styles adopted by the bundle. */
function dashboardHtml(webview: vscode.Webview, script: vscode.Uri): string {
  const nonce = randomBytes(16).toString('base64');
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${webview.cspSource} 'nonce-${nonce}'`,
    `img-src ${webview.cspSource} data:`,
  ].join('; ');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>MCP Lens</title>
</head>
<body>
<script nonce="${nonce}" src="${webview.asWebviewUri(script).toString()}"></script>
</body>
</html>`;
}
