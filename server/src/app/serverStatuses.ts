/**
 * One status line per configured server, whatever stopped it: a config error, a missing
 * approval, an untrusted workspace, or the live state of its connection.
 */
import type { ServerStatus } from '../../../protocol/model';
import { TOOL_FILTER_APPROVAL_NAME } from '../../../protocol/settings';
import type { ConfigProblem, DisabledServer, ServerConfig, ServerSource } from '../core/config/types';
import { approvalLines, describeServer } from '../core/config/describe';
import { displayPath, folderOf, type ConfigFolder } from '../core/config/folders';
import type { UpstreamStatus } from '../adapters/upstream/pool';

export interface HeldServer {
  config: ServerConfig;
  reason: 'awaiting-approval' | 'untrusted';
  /** Why, as core/config/approval.ts says it (e.g. ADDED_WHILE_SERVING). */
  why?: string;
}

export function mergeStatuses(
  running: readonly ServerConfig[],
  live: readonly UpstreamStatus[],
  held: readonly HeldServer[],
  disabled: readonly DisabledServer[],
  tokensByServer: ReadonlyMap<string, number>,
  markEditorDuplicates: boolean,
): ServerStatus[] {
  const liveByName = new Map(live.map((s) => [s.name, s]));
  const out: ServerStatus[] = [];
  for (const cfg of running) {
    const s = liveByName.get(cfg.name);
    const status: ServerStatus = {
      name: cfg.name,
      transport: cfg.type,
      state: s?.state ?? 'starting',
      source: cfg.source.kind,
      sourceFile: cfg.source.file,
      toolCount: s?.toolCount ?? 0,
      promptCount: s?.promptCount ?? 0,
      resourceCount: s?.resourceCount ?? 0,
      stderrTail: s?.stderrTail ?? [],
      restarts: s?.restarts ?? 0,
      alsoStartedByEditor: markEditorDuplicates && cfg.source.kind === 'vscode-mcp-json',
      ...localName(cfg.source),
    };
    if (s?.error !== undefined) status.error = s.error;
    if (s?.readyAt !== undefined) status.readyAt = s.readyAt;
    if (s?.signIn) status.signIn = true;
    const tokens = tokensByServer.get(cfg.name);
    if (tokens !== undefined) status.tokens = tokens;
    out.push(status);
  }
  for (const h of held) {
    out.push({
      ...idle(h.config.name, h.config.type, h.config.source.kind, h.config.source.file),
      ...localName(h.config.source),
      state: h.reason === 'awaiting-approval' ? 'awaiting-approval' : 'disabled',
      error:
        h.reason === 'awaiting-approval'
          ? `Not started: this server is new or its definition changed, and needs your approval. It runs: ${describeServer(h.config)}`
          : 'Not started: the workspace is not trusted.',
      ...(h.reason === 'awaiting-approval' && {
        approval: { fingerprint: h.config.fingerprint, details: approvalLines(h.config) },
      }),
    });
  }
  for (const d of disabled) {
    out.push({
      ...idle(d.name, 'stdio', d.source.kind, d.source.file),
      ...localName(d.source),
      state: 'disabled',
      error: d.reason,
    });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/** A multi-root folder's server: its name in the folder's own file or settings. */
function localName(source: ServerSource): { localName?: string } {
  return source.folder ? { localName: source.folder.localName } : {};
}

function idle(
  name: string,
  transport: ServerStatus['transport'],
  source: ServerStatus['source'],
  sourceFile: string,
): ServerStatus {
  return {
    name,
    transport,
    state: 'stopped',
    source,
    sourceFile,
    toolCount: 0,
    promptCount: 0,
    resourceCount: 0,
    stderrTail: [],
    restarts: 0,
  };
}

/**
 * One row per config file that cannot be used as it is (it does not parse, or cannot be read),
 * so list_servers and the dashboard show it beside the servers; the reason says where.
 */
export function configFileRows(
  problems: readonly ConfigProblem[],
  where: string | readonly ConfigFolder[],
): ServerStatus[] {
  const rows = new Map<string, ServerStatus>();
  const folders = typeof where === 'string' ? [{ path: where }] : where;
  for (const p of problems) {
    if (p.path !== '' || p.server !== undefined || rows.has(p.file)) continue;
    const name = displayPath(p.file, folders);
    rows.set(p.file, {
      ...idle(name, 'stdio', kindOfFile(p.file, folderOf(p.file, folders) !== undefined), p.file),
      state: p.severity === 'error' ? 'error' : 'stopped',
      // The row shows the message alone: where the error is goes with it.
      error: p.line !== undefined ? `line ${p.line}, column ${p.column ?? 1}: ${p.message}` : p.message,
      ...(p.note !== undefined && { note: p.note }),
      configFile: true,
    });
  }
  return [...rows.values()];
}

/**
 * A workspace tool filter that would show more tools, waiting for approval (app/admission.ts), as
 * a row beside the servers: list_servers, the dashboard and the editor's status show it waiting.
 * It goes by the name its approval is recorded under, so the dashboard's Approve finds it.
 */
export function pendingFilterRow(
  filter: { changes: readonly string[]; value: string },
  settingsFile: string,
): ServerStatus {
  const { changes } = filter;
  return {
    ...idle(TOOL_FILTER_APPROVAL_NAME, 'stdio', 'settings', settingsFile),
    state: 'awaiting-approval',
    configFile: true,
    // The dashboard approves what the row shows: the filter's value, as servers their fingerprint.
    approval: { fingerprint: filter.value, details: [...changes] },
    error: `Not applied: the workspace's tool filter changed and would show more tools (${changes.join('; ')}). Tools hidden before stay hidden until you approve the change.`,
  };
}

/** The source kind a config file is read as, from its name (for a problem that names only the file). */
function kindOfFile(file: string, inWorkspace: boolean): ServerStatus['source'] {
  const parts = file.split(/[\\/]/);
  const [dir, base] = [parts.at(-2), parts.at(-1)];
  if (base === 'mcp.json' && dir === '.vscode') return 'vscode-mcp-json';
  if (base === 'mcp.json' && dir === '.cursor') return inWorkspace ? 'cursor' : 'cursor-user';
  if (base === '.mcp.json') return 'mcp-json';
  if (base === 'settings.json') return 'settings';
  if (base === 'claude_desktop_config.json') return 'claude-desktop';
  return 'cli-config';
}
