/**
 * The dashboard as a VS Code webview panel. The page (dist/webview/dashboard.js) is the same
 * bundle the browser gets from `mcp-lens serve --http`; here its requests arrive over
 * postMessage and are answered from the sidecar's LSP requests, and the sidecar's pushed
 * state is forwarded as events. The message maps are protocol/webviewProtocol.ts.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import {
  CallToolRequestMethod,
  IndexStatusRequestMethod,
  ListToolsRequestMethod,
  PullModelRequestMethod,
  RestartServerRequestMethod,
  SearchRequestMethod,
  ServersRequestMethod,
  StatsRequestMethod,
  type CallToolParams,
  type CallToolResultPayload,
  type IndexStatusResult,
  type ListToolsResult,
  type PullProgressParams,
  type SearchParams,
  type SearchResult,
  type ServersResult,
  type StatsResult,
  type StateChangedParams,
} from '../../protocol/lspProtocol';
import type { ActionResult, DashboardHandlers, DashboardMethod, HostMessage, WebviewRequestMessage } from '../../protocol/webviewProtocol';
import { sideColumn } from './sideColumn';

/** What the panel needs from the sidecar (the extension's `Sidecar` satisfies it). */
export interface DashboardBackend {
  /** Sends one `mcpLens/…` request; rejects while the sidecar is down. */
  request<R>(method: string, params?: unknown): Promise<R>;
  /** Every `mcpLens/stateChanged` (servers, index, stats). */
  readonly onDidChangeLens: vscode.Event<StateChangedParams>;
  /** Every `mcpLens/pullProgress`. */
  readonly onPullProgress: vscode.Event<PullProgressParams>;
  /** Asks the user (VS Code's modal prompt) to approve a server that waits for approval. */
  approveServer?(name: string): Promise<void>;
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
  const panel = vscode.window.createWebviewPanel('mcpLens.dashboard', 'MCP Lens', column === 'beside' ? vscode.ViewColumn.Beside : column, {
    enableScripts: true,
    localResourceRoots: [root],
  });
  lastColumn = panel.viewColumn;
  panel.webview.html = dashboardHtml(panel.webview, vscode.Uri.joinPath(root, 'dashboard.js'));
  const handlers = sidecarHandlers(sidecar);
  const post = (message: HostMessage) => void panel.webview.postMessage(message);
  const subscriptions = [
    panel.webview.onDidReceiveMessage((m: WebviewRequestMessage) => void answer(m, handlers, post)),
    sidecar.onDidChangeLens((s) => post({ kind: 'event', event: 'state', data: { servers: s.servers, index: s.index, stats: s.stats } })),
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

async function answer(m: WebviewRequestMessage, handlers: DashboardHandlers, post: (message: HostMessage) => void): Promise<void> {
  if (!m || m.kind !== 'request' || typeof m.id !== 'number' || !(m.method in handlers)) return;
  try {
    const handler = handlers[m.method as DashboardMethod] as (p: unknown) => Promise<unknown>;
    post({ kind: 'response', id: m.id, result: await handler(m.params ?? {}) });
  } catch (err) {
    post({ kind: 'error', id: m.id, message: `${m.method}: ${err instanceof Error ? err.message : String(err)}` });
  }
}

/** The dashboard's requests mapped onto the sidecar's LSP requests. */
export function sidecarHandlers(sidecar: DashboardBackend): DashboardHandlers {
  return {
    search: (p) => searchWithSchemas(sidecar, { query: String(p.query), limit: p.limit, server: p.server }),
    listServers: () => sidecar.request<ServersResult>(ServersRequestMethod),
    restartServer: (p) => settle(sidecar.request<unknown>(RestartServerRequestMethod, { name: String(p.name) })),
    approveServer: (p) => settle(sidecar.approveServer ? sidecar.approveServer(String(p.name)) : Promise.reject(new Error('approving is not available here'))),
    stats: () => sidecar.request<StatsResult>(StatsRequestMethod),
    indexStatus: () => sidecar.request<IndexStatusResult>(IndexStatusRequestMethod),
    callTool: (p) => sidecar.request<CallToolResultPayload>(CallToolRequestMethod, { name: String(p.name), arguments: p.arguments } satisfies CallToolParams),
    // The sidecar answers when the pull has started or finished; progress comes as events.
    pullModel: () => settle(sidecar.request<unknown>(PullModelRequestMethod)),
    // The sidecar reports usage inside its stats; there is no separate request.
    usage: async () => (await sidecar.request<StatsResult>(StatsRequestMethod)).usage ?? null,
  };
}

/** An action's outcome as the dashboard shows it: failure is a value, not an exception. */
async function settle(action: Promise<unknown>): Promise<ActionResult> {
  try {
    await action;
    return { ok: true };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

/** "Try it" needs each hit's schema; where the ranking left it out, take it from the tool list. */
async function searchWithSchemas(sidecar: DashboardBackend, params: SearchParams): Promise<SearchResult> {
  const result = await sidecar.request<SearchResult>(SearchRequestMethod, params);
  if (result.hits.every((h) => h.inputSchema)) return result;
  const tools = await sidecar.request<ListToolsResult>(ListToolsRequestMethod);
  const schemas = new Map(tools.map((t) => [t.name, t.inputSchema]));
  for (const hit of result.hits) hit.inputSchema ??= schemas.get(hit.name);
  return result;
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
