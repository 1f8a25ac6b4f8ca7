/**
 * The LSP front door: wires every custom request and notification of protocol/lspProtocol.ts to
 * the sidecar session, and pushes state on Lens changes. Only wiring lives here.
 */
import { ErrorCodes, ResponseError, type Connection, type InitializeResult } from 'vscode-languageserver/node';
import {
  CallToolRequest,
  ClearUsageRequest,
  DashboardRequest,
  GatewayInfoRequest,
  HoldReloadsRequest,
  ListToolsRequest,
  PullModelRequest,
  PullProgressNotification,
  ReindexRequest,
  RestartServerRequest,
  SearchRequest,
  ServersRequest,
  SignInRequest,
  SignOutRequest,
  StateChangedNotification,
  UpdateSettingsNotification,
  type ListToolsResult,
  type PullProgressParams,
  type SidecarInitOptions,
  type UpdateSettingsParams,
  type WorkspaceFolderInfo,
} from '../../../protocol/lspProtocol';
import { sanitizeSettings, sanitizeToolFilterLevels } from '../../../protocol/settings';
import { DASHBOARD_METHODS, type DashboardHandlers } from '../../../protocol/webviewProtocol';
import { toolCallOutcome } from '../app/toolCallOutcome';
import { errorMessage } from '../core/errorMessage';
import type { Logger } from '../core/logger';
import { LENS_VERSION } from '../core/version';
import { BadParams, lensHandlers } from '../gateway/dashboard/handlers';
import { SidecarSession } from './sidecarSession';
import { StateBroadcaster } from './stateBroadcaster';
import { derivedNotifications, stateOf } from './stateSnapshot';
import { editorOAuth } from './editorOAuth';

/** Binds the connection; resolves the session once `initialize` has built it. */
export function bindConnection(
  connection: Connection,
  log: Logger,
): { session: () => SidecarSession | undefined; shutdown: () => Promise<void> } {
  let session: SidecarSession | undefined;
  let broadcaster: StateBroadcaster | undefined;
  let init: SidecarInitOptions | undefined;
  let dashboard: DashboardHandlers | undefined;
  const sendPullProgress = (p: PullProgressParams) =>
    void connection.sendNotification(PullProgressNotification, p).catch(() => undefined);
  let initialized!: () => void;
  const oauth = editorOAuth(connection, new Promise<void>((resolve) => (initialized = resolve)));

  connection.onInitialize(async (params): Promise<InitializeResult> => {
    init = readInit(params.initializationOptions);
    session = await SidecarSession.start(init, log, oauth);
    const s = session;
    broadcaster = new StateBroadcaster(
      { state: () => stateOf(s), derived: () => derivedNotifications(s) },
      {
        state: (p) => void connection.sendNotification(StateChangedNotification, p).catch(() => undefined),
        derived: (n) => void connection.sendNotification(n.type, n.params).catch(() => undefined),
      },
    );
    s.lens.onDidChange(() => broadcaster?.schedule());
    // The webview panel's requests, answered by the browser dashboard's handlers (approving is
    // the editor's own prompt, so the panel never sends it here). A failed pull has reported
    // itself through onProgress already.
    dashboard = lensHandlers(
      s.lens,
      () => s.stats(),
      (onProgress) => pullModel(s, onProgress).catch(() => undefined),
      sendPullProgress,
    );
    return { capabilities: {}, serverInfo: { name: 'mcp-lens-sidecar', version: LENS_VERSION } };
  });
  connection.onInitialized(() => {
    initialized();
    broadcaster?.flush();
  });

  const need = (): SidecarSession => {
    if (!session)
      throw new ResponseError(ErrorCodes.ServerNotInitialized, 'the MCP Lens sidecar is not initialized yet');
    return session;
  };

  connection.onRequest(SearchRequest, (p) => {
    if (typeof p?.query !== 'string')
      throw new ResponseError(ErrorCodes.InvalidParams, 'search: "query" must be a string');
    return need().lens.search({
      query: p.query,
      ...(p.limit ? { limit: p.limit } : {}),
      ...(p.server ? { server: p.server } : {}),
    });
  });
  connection.onRequest(ListToolsRequest, (): ListToolsResult =>
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
  connection.onRequest(CallToolRequest, async (p) => {
    if (typeof p?.name !== 'string' || !p.arguments || typeof p.arguments !== 'object') {
      throw new ResponseError(ErrorCodes.InvalidParams, 'callTool: "name" must be a string and "arguments" an object');
    }
    return toolCallOutcome(need().lens, p.name, p.arguments, 'palette');
  });
  connection.onRequest(ServersRequest, () => need().lens.servers());
  connection.onRequest(DashboardRequest, async (p) => {
    need();
    const method = p?.method;
    if (!dashboard || !DASHBOARD_METHODS.includes(method))
      throw new ResponseError(ErrorCodes.InvalidParams, `dashboard: unknown request "${String(method)}"`);
    try {
      return await (dashboard[method] as (params: unknown) => Promise<unknown>)(p.params ?? {});
    } catch (err) {
      throw new ResponseError(
        err instanceof BadParams ? ErrorCodes.InvalidParams : ErrorCodes.InternalError,
        errorMessage(err),
      );
    }
  });
  connection.onRequest(GatewayInfoRequest, () => need().gatewayInfo());
  connection.onRequest(RestartServerRequest, async (p) => {
    await need().lens.restartServer(String(p?.name));
    return null;
  });
  connection.onRequest(SignInRequest, async (p) => {
    try {
      await need().lens.signIn(String(p?.name));
    } catch (err) {
      throw new ResponseError(ErrorCodes.InternalError, errorMessage(err));
    }
    return null;
  });
  connection.onRequest(SignOutRequest, async (p) => {
    try {
      await need().lens.signOut(String(p?.name));
    } catch (err) {
      throw new ResponseError(ErrorCodes.InternalError, errorMessage(err));
    }
    return null;
  });
  connection.onRequest(ReindexRequest, async () => {
    await need().lens.reindex();
    return null;
  });
  connection.onRequest(PullModelRequest, async () => {
    const s = need();
    try {
      await pullModel(s, sendPullProgress);
    } catch (err) {
      throw new ResponseError(ErrorCodes.InternalError, errorMessage(err));
    }
    return null;
  });
  connection.onRequest(ClearUsageRequest, async () => {
    const lens = need().lens;
    if (!lens.clearUsage)
      throw new ResponseError(ErrorCodes.MethodNotFound, 'usage learning is not part of this sidecar');
    await lens.clearUsage();
    return null;
  });
  connection.onRequest(HoldReloadsRequest, async (p) => {
    await need().holdReloads(p?.hold === true);
    return null;
  });
  connection.onNotification(UpdateSettingsNotification, (p) => {
    const s = session;
    if (!s) return;
    const params: UpdateSettingsParams = {
      settings: sanitizeSettings(p?.settings, process.env),
      approvals: records(p?.approvals),
      inputs: records(p?.inputs),
      trusted: p?.trusted === true,
    };
    const folders = folderInfos(p?.folders);
    if (folders) params.folders = folders;
    const levels = sanitizeToolFilterLevels(p?.toolFilterLevels);
    if (levels) params.toolFilterLevels = levels;
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

/**
 * Pulls the configured embedding model, reporting every step and the end (success or the
 * error) as PullProgressNotification payloads; rejects when the pull failed.
 */
async function pullModel(s: SidecarSession, progress: (p: PullProgressParams) => void): Promise<void> {
  const model = s.lens.settings().embedding.model;
  try {
    await s.pullModel(s.lens.settings(), (p) =>
      progress({
        model,
        status: p.status,
        done: false,
        ...(p.total !== undefined ? { total: p.total, completed: p.completed ?? 0 } : {}),
      }),
    );
    progress({ model, status: 'success', done: true });
  } catch (err) {
    progress({ model, status: 'failed', done: true, error: errorMessage(err) });
    throw err;
  }
}

/** The client's options are untrusted input: sanitized like everything else that crosses. */
function readInit(raw: unknown): SidecarInitOptions {
  const o = (raw && typeof raw === 'object' ? raw : {}) as Partial<SidecarInitOptions>;
  if (typeof o.storageDir !== 'string' || !o.storageDir)
    throw new ResponseError(ErrorCodes.InvalidParams, 'initializationOptions.storageDir is required');
  const toolFilterLevels = sanitizeToolFilterLevels(o.toolFilterLevels);
  return {
    storageDir: o.storageDir,
    workspaceFolders: Array.isArray(o.workspaceFolders)
      ? o.workspaceFolders.filter((f): f is string => typeof f === 'string')
      : [],
    settings: sanitizeSettings(o.settings, process.env),
    ...(toolFilterLevels && { toolFilterLevels }),
    trusted: o.trusted === true,
    approvals: records(o.approvals),
    inputs: records(o.inputs),
    ...(Array.isArray(o.folders) && { folders: folderInfos(o.folders) ?? [] }),
    ...(o.gateway &&
      typeof o.gateway.token === 'string' && {
        gateway: {
          token: o.gateway.token,
          ...(Number.isInteger(o.gateway.port) &&
            o.gateway.port! > 0 &&
            o.gateway.port! < 65536 && { port: o.gateway.port }),
        },
      }),
  };
}

/** The client's workspace folders: a path and a name each, a folder's servers sanitized as settings are. */
function folderInfos(v: unknown): WorkspaceFolderInfo[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const out: WorkspaceFolderInfo[] = [];
  for (const item of v as unknown[]) {
    if (!item || typeof item !== 'object') continue;
    const f = item as Record<string, unknown>;
    if (typeof f.path !== 'string' || f.path === '') continue;
    const servers = sanitizeSettings({ servers: f.servers }).servers;
    out.push({
      path: f.path,
      name: typeof f.name === 'string' ? f.name : '',
      ...(Object.keys(servers).length > 0 && { servers }),
    });
  }
  return out;
}

function records(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) if (typeof x === 'string') out[k] = x;
  return out;
}
