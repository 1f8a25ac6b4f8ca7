/**
 * The LSP front door: wires every custom request and notification of protocol/lspProtocol.ts to
 * the sidecar session, and pushes state on Lens changes. Only wiring lives here.
 */
import { ErrorCodes, ResponseError, type Connection, type InitializeResult } from 'vscode-languageserver/node';
import {
  CallToolRequestMethod,
  ClearUsageRequestMethod,
  GatewayInfoRequestMethod,
  IndexStatusRequestMethod,
  ListToolsRequestMethod,
  PullModelRequestMethod,
  PullProgressNotificationMethod,
  ReindexRequestMethod,
  RestartServerRequestMethod,
  SearchRequestMethod,
  ServersRequestMethod,
  StateChangedNotificationMethod,
  StatsRequestMethod,
  UpdateSettingsNotificationMethod,
  HoldReloadsRequest,
  type CallToolParams,
  type CallToolResultPayload,
  type ListToolsResult,
  type PullProgressParams,
  type RestartServerParams,
  type SearchParams,
  type SidecarInitOptions,
  type UpdateSettingsParams,
} from '../../../protocol/lspProtocol';
import { sanitizeSettings } from '../../../protocol/settings';
import type { Logger } from '../core/logger';
import { toolCallOutcome } from '../gateway/toolCallOutcome';
import { SidecarSession } from './sidecarSession';
import { StateBroadcaster } from './stateBroadcaster';
import { derivedNotifications, stateOf } from './stateSnapshot';
import { errorMessage } from '../core/errorMessage';

/** Binds the connection; resolves the session once `initialize` has built it. */
export function bindConnection(connection: Connection, log: Logger): { session: () => SidecarSession | undefined; shutdown: () => Promise<void> } {
  let session: SidecarSession | undefined;
  let broadcaster: StateBroadcaster | undefined;
  let init: SidecarInitOptions | undefined;

  connection.onInitialize(async (params): Promise<InitializeResult> => {
    init = readInit(params.initializationOptions);
    session = await SidecarSession.start(init, log);
    const s = session;
    broadcaster = new StateBroadcaster(
      { state: () => stateOf(s), derived: () => derivedNotifications(s) },
      {
        state: (p) => void connection.sendNotification(StateChangedNotificationMethod, p).catch(() => undefined),
        derived: (method, p) => void connection.sendNotification(method, p).catch(() => undefined),
      },
    );
    s.lens.onDidChange(() => broadcaster?.schedule());
    return { capabilities: {}, serverInfo: { name: 'mcp-lens-sidecar', version: '0.1.0' } };
  });
  connection.onInitialized(() => broadcaster?.flush());

  const need = (): SidecarSession => {
    if (!session) throw new ResponseError(ErrorCodes.ServerNotInitialized, 'the MCP Lens sidecar is not initialized yet');
    return session;
  };

  connection.onRequest(SearchRequestMethod, (p: SearchParams) => {
    if (typeof p?.query !== 'string') throw new ResponseError(ErrorCodes.InvalidParams, 'search: "query" must be a string');
    return need().lens.search({ query: p.query, ...(p.limit ? { limit: p.limit } : {}), ...(p.server ? { server: p.server } : {}) });
  });
  connection.onRequest(ListToolsRequestMethod, (): ListToolsResult =>
    need()
      .lens.tools()
      .map((t) => ({
        name: t.name,
        server: t.server,
        originalName: t.originalName,
        description: t.description,
        inputSchema: t.inputSchema,
        ...(t.title ? { title: t.title } : {}),
        ...(t.annotations ? { annotations: t.annotations as Record<string, unknown> } : {}),
      })),
  );
  connection.onRequest(CallToolRequestMethod, async (p: CallToolParams): Promise<CallToolResultPayload> => {
    if (typeof p?.name !== 'string' || !p.arguments || typeof p.arguments !== 'object') {
      throw new ResponseError(ErrorCodes.InvalidParams, 'callTool: "name" must be a string and "arguments" an object');
    }
    return toolCallOutcome(need().lens, p.name, p.arguments, 'palette');
  });
  connection.onRequest(StatsRequestMethod, () => need().stats());
  connection.onRequest(ServersRequestMethod, () => need().lens.servers());
  connection.onRequest(IndexStatusRequestMethod, () => need().lens.indexStatus());
  connection.onRequest(GatewayInfoRequestMethod, () => need().gatewayInfo());
  connection.onRequest(RestartServerRequestMethod, async (p: RestartServerParams) => {
    await need().lens.restartServer(String(p?.name));
    return null;
  });
  connection.onRequest(ReindexRequestMethod, async () => {
    await need().lens.reindex();
    return null;
  });
  connection.onRequest(PullModelRequestMethod, async () => {
    const s = need();
    const model = s.lens.settings().embedding.model;
    const progress = (p: Omit<PullProgressParams, 'model'>) => void connection.sendNotification(PullProgressNotificationMethod, { model, ...p });
    try {
      await s.pullModel(s.lens.settings(), (p) => progress({ status: p.status, done: false, ...(p.total !== undefined ? { total: p.total, completed: p.completed ?? 0 } : {}) }));
      progress({ status: 'success', done: true });
    } catch (err) {
      const message = errorMessage(err);
      progress({ status: 'failed', done: true, error: message });
      throw new ResponseError(ErrorCodes.InternalError, message);
    }
    return null;
  });
  connection.onRequest(ClearUsageRequestMethod, async () => {
    const lens = need().lens;
    if (!lens.clearUsage) throw new ResponseError(ErrorCodes.MethodNotFound, 'usage learning is not part of this sidecar');
    await lens.clearUsage();
    return null;
  });
  connection.onRequest(HoldReloadsRequest, async (p) => {
    await need().holdReloads(p?.hold === true);
    return null;
  });
  connection.onNotification(UpdateSettingsNotificationMethod, (p: UpdateSettingsParams) => {
    const s = session;
    if (!s) return;
    const params: UpdateSettingsParams = {
      settings: sanitizeSettings(p?.settings, process.env),
      approvals: records(p?.approvals),
      inputs: records(p?.inputs),
      trusted: p?.trusted === true,
    };
    s.update(params).catch((err: unknown) => log.error(`applying settings: ${errorMessage(err)}`));
  });

  const shutdown = async (): Promise<void> => {
    broadcaster?.dispose();
    const s = session;
    session = undefined;
    await s?.close();
  };
  connection.onShutdown(shutdown);
  return { session: () => session, shutdown };
}

/** The client's options are untrusted input: sanitized like everything else that crosses. */
function readInit(raw: unknown): SidecarInitOptions {
  const o = (raw && typeof raw === 'object' ? raw : {}) as Partial<SidecarInitOptions>;
  if (typeof o.storageDir !== 'string' || !o.storageDir) throw new ResponseError(ErrorCodes.InvalidParams, 'initializationOptions.storageDir is required');
  return {
    storageDir: o.storageDir,
    workspaceFolders: Array.isArray(o.workspaceFolders) ? o.workspaceFolders.filter((f): f is string => typeof f === 'string') : [],
    settings: sanitizeSettings(o.settings, process.env),
    trusted: o.trusted === true,
    approvals: records(o.approvals),
    inputs: records(o.inputs),
    ...(o.gateway && typeof o.gateway.token === 'string' && {
      gateway: { token: o.gateway.token, ...(Number.isInteger(o.gateway.port) && o.gateway.port! > 0 && o.gateway.port! < 65536 && { port: o.gateway.port }) },
    }),
  };
}

function records(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) if (typeof x === 'string') out[k] = x;
  return out;
}

