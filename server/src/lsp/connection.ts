/**
 * The LSP front door: each custom request and notification of protocol/lspProtocol.ts is one
 * method of SidecarConnection, bound to the sidecar session once `initialize` has built it; the
 * state is pushed on Lens changes. A message with params reaches its method only once they
 * passed the schema declared with the message: a bad one gets InvalidParams naming the field.
 */
import { ErrorCodes, ResponseError, type Connection, type InitializeResult } from 'vscode-languageserver/node';
import type * as z from 'zod/mini';
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
  SidecarInitOptions,
  SignInRequest,
  SignOutRequest,
  StateChangedNotification,
  UpdateSettingsNotification,
  type CallToolParams,
  type CheckedRequest,
  type DashboardCall,
  type HoldReloadsParams,
  type ListToolsResult,
  type PullProgressParams,
  type RestartServerParams,
  type SearchParams,
  type UpdateSettingsParams,
  type WorkspaceFolderInfo,
} from '../../../protocol/lspProtocol';
import { problemsText } from '../../../protocol/schemaProblems';
import { sanitizeSettings } from '../../../protocol/settings';
import type { DashboardHandlers } from '../../../protocol/webviewProtocol';
import { toolCallOutcome } from '../app/toolCallOutcome';
import { errorMessage } from '../core/errorMessage';
import type { Logger } from '../core/logger';
import { LENS_VERSION } from '../core/version';
import { BadParams, lensHandlers } from '../gateway/dashboard/handlers';
import { SidecarSession } from './sidecarSession';
import { StateBroadcaster } from './stateBroadcaster';
import { derivedNotifications, stateOf } from './stateSnapshot';
import { editorOAuth } from './editorOAuth';
import type { OAuthEnvironment } from '../adapters/upstream/auth/types';

/** The sidecar's side of the editor's connection: one method per message. */
export class SidecarConnection {
  private session: SidecarSession | undefined;
  private broadcaster: StateBroadcaster | undefined;
  private dashboard: DashboardHandlers | undefined;
  private readonly oauth: OAuthEnvironment;
  private initialized!: () => void;

  constructor(
    private readonly connection: Connection,
    private readonly log: Logger,
  ) {
    this.oauth = editorOAuth(connection, new Promise<void>((resolve) => (this.initialized = resolve)));
    connection.onInitialize((params) => this.initialize(params.initializationOptions));
    connection.onInitialized(() => this.onInitialized());
    this.checked(SearchRequest, (p) => this.search(p));
    connection.onRequest(ListToolsRequest, () => this.listTools());
    this.checked(CallToolRequest, (p) => this.callTool(p));
    connection.onRequest(ServersRequest, () => this.need().lens.servers());
    this.checked(DashboardRequest, (p) => this.dashboardCall(p));
    connection.onRequest(GatewayInfoRequest, () => this.need().gatewayInfo());
    this.checked(RestartServerRequest, (p) => this.restartServer(p));
    this.checked(SignInRequest, (p) => this.signIn(p));
    this.checked(SignOutRequest, (p) => this.signOut(p));
    connection.onRequest(ReindexRequest, () => this.reindex());
    connection.onRequest(PullModelRequest, () => this.pullModel());
    connection.onRequest(ClearUsageRequest, () => this.clearUsage());
    this.checked(HoldReloadsRequest, (p) => this.holdReloads(p));
    connection.onNotification(UpdateSettingsNotification, (p) => this.updateSettings(p));
    connection.onShutdown(() => this.shutdown());
  }

  /** The session, once `initialize` has built it and until shutdown. */
  current(): SidecarSession | undefined {
    return this.session;
  }

  async shutdown(): Promise<void> {
    this.broadcaster?.dispose();
    const s = this.session;
    this.session = undefined;
    await s?.close();
  }

  private async initialize(options: unknown): Promise<InitializeResult> {
    const init = this.params('initializationOptions', SidecarInitOptions, options);
    const s = await SidecarSession.start(
      { ...init, settings: this.settings(init.settings), ...withFolders(init.folders) },
      this.log,
      this.oauth,
    );
    this.session = s;
    this.broadcaster = new StateBroadcaster(
      { state: () => stateOf(s), derived: () => derivedNotifications(s) },
      {
        state: (p) => void this.connection.sendNotification(StateChangedNotification, p).catch(() => undefined),
        derived: (n) => void this.connection.sendNotification(n.type, n.params).catch(() => undefined),
      },
    );
    s.lens.onDidChange(() => this.broadcaster?.schedule());
    // The webview panel's requests, answered by the browser dashboard's handlers (approving is
    // the editor's own prompt, so the panel never sends it here). A failed pull has reported
    // itself through onProgress already.
    this.dashboard = lensHandlers(
      s.lens,
      () => s.stats(),
      (onProgress) => pullModel(s, onProgress).catch(() => undefined),
      (p) => this.sendPullProgress(p),
    );
    return { capabilities: {}, serverInfo: { name: 'mcp-lens-sidecar', version: LENS_VERSION } };
  }

  private onInitialized(): void {
    this.initialized();
    this.broadcaster?.flush();
  }

  private search(p: SearchParams) {
    return this.need().lens.search({
      query: p.query,
      ...(p.limit !== undefined && { limit: p.limit }),
      ...(p.server ? { server: p.server } : {}),
    });
  }

  private listTools(): ListToolsResult {
    return this.need()
      .lens.tools()
      .map(({ name, server, originalName, description, inputSchema, title, annotations }) => ({
        name,
        server,
        originalName,
        description,
        inputSchema,
        ...(title ? { title } : {}),
        ...(annotations ? { annotations } : {}),
      }));
  }

  private callTool(p: CallToolParams) {
    return toolCallOutcome(this.need().lens, p.name, p.arguments, 'palette');
  }

  private async dashboardCall({ method, params }: DashboardCall): Promise<unknown> {
    this.need();
    const handle = this.dashboard![method] as (params: unknown) => Promise<unknown>;
    try {
      return await handle(params ?? {});
    } catch (err) {
      throw new ResponseError(
        err instanceof BadParams ? ErrorCodes.InvalidParams : ErrorCodes.InternalError,
        errorMessage(err),
      );
    }
  }

  private async restartServer(p: RestartServerParams): Promise<null> {
    await this.need().lens.restartServer(p.name);
    return null;
  }

  private async signIn(p: RestartServerParams): Promise<null> {
    await internal(this.need().lens.signIn(p.name));
    return null;
  }

  private async signOut(p: RestartServerParams): Promise<null> {
    await internal(this.need().lens.signOut(p.name));
    return null;
  }

  private async reindex(): Promise<null> {
    await this.need().lens.reindex();
    return null;
  }

  private async pullModel(): Promise<null> {
    await internal(pullModel(this.need(), (p) => this.sendPullProgress(p)));
    return null;
  }

  private async clearUsage(): Promise<null> {
    await this.need().lens.clearUsage();
    return null;
  }

  private async holdReloads(p: HoldReloadsParams): Promise<null> {
    await this.need().holdReloads(p.hold);
    return null;
  }

  private updateSettings(raw: unknown): void {
    const s = this.session;
    if (!s) return;
    let p: UpdateSettingsParams;
    try {
      p = this.params(UpdateSettingsNotification.method, UpdateSettingsNotification.params, raw);
    } catch (err) {
      // A notification has no answer: the problem is logged and the settings stay as they were.
      this.log.error(`ignored ${errorMessage(err)}`);
      return;
    }
    const params: UpdateSettingsParams = { ...p, settings: this.settings(p.settings), ...withFolders(p.folders) };
    s.update(params).catch((err: unknown) => this.log.error(`applying settings: ${errorMessage(err)}`));
  }

  /** Registers a request whose params are checked against its schema before `handler` runs. */
  private checked<S extends z.ZodMiniType, R>(
    type: CheckedRequest<S, R>,
    handler: (params: z.output<S>) => R | Promise<R>,
  ): void {
    this.connection.onRequest(type, (raw: unknown) => handler(this.params(type.method, type.params, raw)));
  }

  /** `raw` as `schema` says, or InvalidParams naming the message and each field that is wrong (never its value). */
  private params<S extends z.ZodMiniType>(what: string, schema: S, raw: unknown): z.output<S> {
    const parsed = schema.safeParse(raw);
    if (parsed.success) return parsed.data;
    const label = what.replace(/^mcpLens\//, '');
    throw new ResponseError(ErrorCodes.InvalidParams, `${label}: ${problemsText(parsed.error.issues, { value: raw })}`);
  }

  /** The client's settings, sanitized again here with this process's environment (OLLAMA_HOST). */
  private settings(raw: unknown) {
    return sanitizeSettings(raw, process.env, (m) => this.log.warn(`settings: ${m}`));
  }

  private need(): SidecarSession {
    if (!this.session)
      throw new ResponseError(ErrorCodes.ServerNotInitialized, 'the MCP Lens sidecar is not initialized yet');
    return this.session;
  }

  private sendPullProgress(p: PullProgressParams): void {
    void this.connection.sendNotification(PullProgressNotification, p).catch(() => undefined);
  }
}

/** Folders with their own servers sanitized as `mcpLens.servers` is; one without servers left at that. */
function withFolders(folders: WorkspaceFolderInfo[] | undefined): { folders?: WorkspaceFolderInfo[] } {
  if (!folders) return {};
  return {
    folders: folders.map(({ servers, ...f }) => {
      const sanitized = servers && sanitizeSettings({ servers }).servers;
      return sanitized && Object.keys(sanitized).length > 0 ? { ...f, servers: sanitized } : f;
    }),
  };
}

/** A failure of the work itself, reported as the request's error with its reason. */
async function internal(work: Promise<void>): Promise<void> {
  try {
    await work;
  } catch (err) {
    throw new ResponseError(ErrorCodes.InternalError, errorMessage(err));
  }
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
