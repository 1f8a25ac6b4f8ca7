/**
 * "Search Tools": a live QuickPick over `mcpLens/search` (the same hybrid search as the agent's
 * find_tools), then actions on the chosen tool: show its schema, copy its name, pin or unpin it,
 * or try it with JSON arguments.
 */
import * as vscode from 'vscode';
import { CallToolRequest, ListToolsRequest, SearchRequest } from '../../../protocol/lspProtocol';
import type { SearchHit } from '../../../protocol/model';
import type { ReadOnlyDocuments } from '../readOnlyDocuments';
import { errorText, type Sidecar } from '../sidecar';
import { noMatchItems, paletteText, type NoMatchAction } from './noMatchItems';

/** A found tool, or a "no matches" hint with what selecting it does. */
interface PaletteItem extends vscode.QuickPickItem {
  hit?: SearchHit;
  action?: NoMatchAction;
}

const DEBOUNCE_MS = 150;

export async function searchTools(sidecar: Sidecar, docs: ReadOnlyDocuments): Promise<void> {
  const hit = await pickTool(sidecar);
  if (hit) await toolActions(sidecar, docs, hit);
}

function pickTool(sidecar: Sidecar): Promise<SearchHit | undefined> {
  const qp = vscode.window.createQuickPick<PaletteItem>();
  qp.title = 'MCP Lens: Search Tools';
  qp.placeholder = 'Describe what you want to do, e.g. "create a github issue"';
  qp.matchOnDescription = false;
  qp.matchOnDetail = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let seq = 0;
  const run = async (query: string): Promise<void> => {
    const mine = ++seq;
    if (!query.trim()) {
      qp.items = [];
      qp.busy = false;
      return;
    }
    qp.busy = true;
    try {
      const res = await sidecar.request(SearchRequest, { query, limit: 20 });
      if (mine !== seq) return;
      qp.items =
        res.hits.length || !res.noMatch
          ? res.hits.map((hit, i) => toItem(hit, i + 1))
          : noMatchItems(query, res.noMatch).map(toHintItem);
      qp.title = `MCP Lens: Search Tools — ${res.mode.label}, ${Math.round(res.tookMs)} ms`;
    } catch (err) {
      if (mine === seq) qp.items = [{ label: '$(warning) Search failed', detail: errorText(err), alwaysShow: true }];
    } finally {
      if (mine === seq) qp.busy = false;
    }
  };
  return new Promise((resolve) => {
    qp.onDidChangeValue((value) => {
      clearTimeout(timer);
      timer = setTimeout(() => void run(value), DEBOUNCE_MS);
    });
    qp.onDidAccept(() => {
      const item = qp.selectedItems[0];
      const action: NoMatchAction = item?.action ?? (item?.hit ? { kind: 'tool', hit: item.hit } : { kind: 'none' });
      if (action.kind === 'none') return;
      if (action.kind === 'server') {
        seq++; // an answer still in flight must not replace the list
        void listServerTools(sidecar, qp, action.server);
        return;
      }
      if (action.kind === 'command') void vscode.commands.executeCommand(action.command);
      resolve(action.kind === 'tool' ? action.hit : undefined);
      qp.hide();
    });
    qp.onDidHide(() => {
      clearTimeout(timer);
      resolve(undefined);
      qp.dispose();
    });
    qp.show();
  });
}

/** `rank`: its place in the answer (a score means nothing out of its search); none for a server's list. */
function toItem(hit: SearchHit, rank?: number): PaletteItem {
  // QuickPick renders labels as plain text but for $(icon) syntax, which paletteText escapes.
  return {
    label: paletteText(hit.name, 80),
    description:
      rank !== undefined && hit.signals.length
        ? `${paletteText(hit.server, 40)} · #${rank} · ${hit.signals.join('+')}`
        : paletteText(hit.server, 40),
    detail: paletteText(hit.description),
    alwaysShow: true,
    hit,
  };
}

function toHintItem(item: ReturnType<typeof noMatchItems>[number]): PaletteItem {
  if (item.separator !== undefined)
    return { label: item.separator, kind: vscode.QuickPickItemKind.Separator, alwaysShow: true };
  const out: PaletteItem = { label: item.label, alwaysShow: true, action: item.action };
  if (item.description !== undefined) out.description = item.description;
  if (item.detail !== undefined) out.detail = item.detail;
  return out;
}

/** Replaces the picker's list with one server's tools (from "no matches": the user picked a server). */
async function listServerTools(sidecar: Sidecar, qp: vscode.QuickPick<PaletteItem>, server: string): Promise<void> {
  qp.busy = true;
  try {
    const tools = (await sidecar.request(ListToolsRequest)).filter((t) => t.server === server);
    qp.items = tools.map((t) =>
      toItem({
        name: t.name,
        server: t.server,
        originalName: t.originalName,
        description: t.description,
        score: 0,
        signals: [],
        why: '',
        inputSchema: t.inputSchema,
      }),
    );
    qp.title = `MCP Lens: tools of ${paletteText(server, 60)} — type to search again`;
  } catch (err) {
    qp.items = [{ label: '$(warning) Listing the tools failed', detail: errorText(err), alwaysShow: true }];
  } finally {
    qp.busy = false;
  }
}

async function toolActions(sidecar: Sidecar, docs: ReadOnlyDocuments, hit: SearchHit): Promise<void> {
  const tool = (await sidecar.request(ListToolsRequest)).find((t) => t.name === hit.name);
  await docs.show(`${hit.name}.schema`, {
    name: hit.name,
    server: hit.server,
    originalName: hit.originalName,
    description: tool?.description ?? hit.description,
    inputSchema: tool?.inputSchema ?? hit.inputSchema ?? {},
    ...(tool?.annotations ? { annotations: tool.annotations } : {}),
  });
  const pinned = vscode.workspace.getConfiguration('mcpLens').get<string[]>('pinnedTools', []);
  const isPinned = pinned.includes(hit.name);
  const pick = await vscode.window.showQuickPick(
    [
      { label: '$(play) Try it…', id: 'try' },
      { label: '$(copy) Copy name', id: 'copy' },
      { label: isPinned ? '$(pinned) Unpin' : '$(pin) Pin (always list it to the agent)', id: 'pin' },
    ],
    { title: `${hit.name} (${hit.server})`, placeHolder: 'What to do with this tool' },
  );
  if (pick?.id === 'copy') await vscode.env.clipboard.writeText(hit.name);
  if (pick?.id === 'pin') await setPinned(hit.name, !isPinned);
  if (pick?.id === 'try') await tryTool(sidecar, docs, hit.name);
}

async function setPinned(name: string, pin: boolean): Promise<void> {
  const cfg = vscode.workspace.getConfiguration('mcpLens');
  const current = cfg.get<string[]>('pinnedTools', []);
  const next = pin ? [...new Set([...current, name])] : current.filter((n) => n !== name);
  const target = vscode.workspace.workspaceFolders
    ? vscode.ConfigurationTarget.Workspace
    : vscode.ConfigurationTarget.Global;
  await cfg.update('pinnedTools', next, target);
  void vscode.window.showInformationMessage(`MCP Lens: ${pin ? 'pinned' : 'unpinned'} ${name}.`);
}

/** Asks for JSON arguments, calls the tool through the sidecar and shows the result. */
export async function tryTool(sidecar: Sidecar, docs: ReadOnlyDocuments, name: string): Promise<void> {
  const text = await vscode.window.showInputBox({
    title: `Try ${name}`,
    prompt: 'Arguments as a JSON object',
    value: '{}',
    ignoreFocusOut: true,
    validateInput: (v) => (parseArgs(v) ? undefined : 'Enter a JSON object, e.g. {"query": "hello"}'),
  });
  const args = text === undefined ? undefined : parseArgs(text);
  if (!args) return;
  const outcome = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `MCP Lens: calling ${name}…` },
    () => sidecar.request(CallToolRequest, { name, arguments: args }),
  );
  await docs.show(`${name}.result`, outcome);
}

export function parseArgs(text: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
