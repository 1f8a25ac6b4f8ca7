/**
 * One status line per configured server, whatever stopped it: a config error, a missing
 * approval, an untrusted workspace, or the live state of its connection.
 */
import type { ServerStatus } from '../../../protocol/model';
import type { DisabledServer, ServerConfig } from '../core/config/types';
import type { UpstreamStatus } from '../adapters/upstream/pool';

export interface HeldServer {
  config: ServerConfig;
  reason: 'awaiting-approval' | 'untrusted';
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
    };
    if (s?.error !== undefined) status.error = s.error;
    if (s?.readyAt !== undefined) status.readyAt = s.readyAt;
    const tokens = tokensByServer.get(cfg.name);
    if (tokens !== undefined) status.tokens = tokens;
    out.push(status);
  }
  for (const h of held) {
    out.push({
      ...idle(h.config.name, h.config.type, h.config.source.kind, h.config.source.file),
      state: h.reason === 'awaiting-approval' ? 'awaiting-approval' : 'disabled',
      error:
        h.reason === 'awaiting-approval'
          ? 'Not started: this server is new or its definition changed, and needs your approval.'
          : 'Not started: the workspace is not trusted.',
    });
  }
  for (const d of disabled) {
    out.push({ ...idle(d.name, 'stdio', d.source.kind, d.source.file), state: 'disabled', error: d.reason });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

function idle(name: string, transport: ServerStatus['transport'], source: ServerStatus['source'], sourceFile: string): ServerStatus {
  return { name, transport, state: 'stopped', source, sourceFile, toolCount: 0, promptCount: 0, resourceCount: 0, stderrTail: [], restarts: 0 };
}
