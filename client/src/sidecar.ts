/**
 * The sidecar as the extension sees it: one vscode-languageclient `LanguageClient` over IPC to
 * the bundled `dist/server.js`, restarted a bounded number of times when it crashes, and a
 * small typed surface (request, notify, events) for commands, the status bar, the MCP provider
 * and the dashboard. Every custom message is one of protocol/lspProtocol.ts.
 */
import * as vscode from 'vscode';
import {
  CloseAction,
  ErrorAction,
  LanguageClient,
  RevealOutputChannelOn,
  State,
  TransportKind,
  type CloseHandlerResult,
  type ErrorHandler,
  type ErrorHandlerResult,
  type LanguageClientOptions,
  type NotificationType,
  type RequestType,
  type RequestType0,
  type ServerOptions,
} from 'vscode-languageclient/node';
import {
  GatewayInfoRequest,
  PullProgressNotification,
  StateChangedNotification,
  type GatewayInfo,
  type PullProgressParams,
  type SidecarInitOptions,
  type StateChangedParams,
} from '../../protocol/lspProtocol';
import { CrashBudget } from './crashBudget';
import { levelRoutingChannel } from './logChannel';

/** Lifecycle of the sidecar process as the user sees it. */
export type SidecarState = 'starting' | 'running' | 'restarting' | 'stopped' | 'failed';

/** Thrown by `request` while the sidecar is not running; commands show it as a plain message. */
export class SidecarDownError extends Error {
  constructor(state: SidecarState) {
    super(
      `The MCP Lens sidecar is ${state === 'failed' ? 'stopped after repeated crashes' : state}. Run "MCP Lens: Restart Sidecar" or see "MCP Lens: Show Logs".`,
    );
  }
}

export interface SidecarOptions {
  /** Absolute path of dist/server.js. */
  serverModule: string;
  log: vscode.LogOutputChannel;
  /** Read at every (re)start, so a restart after a crash sees current settings and secrets. */
  initOptions: () => SidecarInitOptions;
  /** Crashes allowed within `crashWindowMs` before giving up (default 5 in 3 minutes). */
  maxCrashes?: number;
  crashWindowMs?: number;
}

export class Sidecar implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private stateValue: SidecarState = 'stopped';
  private readonly crashes: CrashBudget;
  private readonly stateEmitter = new vscode.EventEmitter<SidecarState>();
  private readonly gatewayEmitter = new vscode.EventEmitter<GatewayInfo | undefined>();
  private readonly lensEmitter = new vscode.EventEmitter<StateChangedParams>();
  private readonly pullEmitter = new vscode.EventEmitter<PullProgressParams>();
  private readonly handlers: { type: NotificationType<unknown>; handler: (params: unknown) => void }[] = [];
  private readonly requestHandlers: {
    type: RequestType<unknown, unknown, void>;
    handler: (params: unknown) => Promise<unknown>;
  }[] = [];
  private readyWaiters: (() => void)[] = [];

  /** The last gateway address and token (undefined while the sidecar is down). */
  gateway: GatewayInfo | undefined;
  /** The last state the sidecar pushed. */
  lens: StateChangedParams | undefined;

  /** Fires when the process starts, stops, crashes or gives up. */
  readonly onDidChangeState = this.stateEmitter.event;
  /** Fires when the gateway's URL or token changes (or it goes away with the sidecar). */
  readonly onDidChangeGateway = this.gatewayEmitter.event;
  /** Fires on every `mcpLens/stateChanged` (servers, index, stats). */
  readonly onDidChangeLens = this.lensEmitter.event;
  /** Fires on every `mcpLens/pullProgress`. */
  readonly onPullProgress = this.pullEmitter.event;

  constructor(private readonly options: SidecarOptions) {
    this.crashes = new CrashBudget(options.maxCrashes ?? 5, options.crashWindowMs ?? 3 * 60_000);
  }

  get state(): SidecarState {
    return this.stateValue;
  }

  get isRunning(): boolean {
    return this.stateValue === 'running';
  }

  /** Registers a handler for a server → client request; survives restarts. */
  onRequest<P, R>(type: RequestType<P, R, void>, handler: (params: P) => Promise<R>): void {
    this.requestHandlers.push({
      type: type as RequestType<unknown, unknown, void>,
      handler: handler as (params: unknown) => Promise<unknown>,
    });
    this.client?.onRequest(type, handler);
  }

  /** Registers a handler for a server → client notification; survives restarts. */
  onNotification<P>(type: NotificationType<P>, handler: (params: P) => void): void {
    this.handlers.push({ type: type as NotificationType<unknown>, handler: handler as (params: unknown) => void });
    this.client?.onNotification(type, handler);
  }

  async start(): Promise<void> {
    if (this.client) return;
    this.crashes.reset();
    const client = this.createClient();
    this.client = client;
    this.setState('starting');
    try {
      await client.start();
    } catch (err) {
      this.setState('failed');
      this.options.log.error(`MCP Lens sidecar failed to start: ${errorText(err)}`);
      throw err;
    }
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client) {
      try {
        await client.stop(5000);
      } catch (err) {
        this.options.log.warn(`stopping the sidecar: ${errorText(err)}`);
      }
      await client.dispose().catch(() => undefined);
    }
    this.updateGateway(undefined);
    this.setState('stopped');
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  /** Resolves once the sidecar is running and its gateway is known. */
  whenReady(token?: vscode.CancellationToken): Promise<boolean> {
    if (this.isRunning && this.gateway) return Promise.resolve(true);
    return new Promise((resolve) => {
      const sub = token?.onCancellationRequested(() => resolve(false));
      this.readyWaiters.push(() => {
        sub?.dispose();
        resolve(true);
      });
    });
  }

  /** Sends one request of protocol/lspProtocol.ts; rejects with SidecarDownError while the sidecar is not running. */
  request<R>(type: RequestType0<R, void>): Promise<R>;
  request<P, R>(type: RequestType<P, R, void>, params: P): Promise<R>;
  async request<P, R>(type: RequestType0<R, void> | RequestType<P, R, void>, params?: P): Promise<R> {
    const client = this.client;
    if (!client || !this.isRunning) throw new SidecarDownError(this.stateValue);
    return type.numberOfParams === 0
      ? client.sendRequest(type as RequestType0<R, void>)
      : client.sendRequest(type as RequestType<P, R, void>, params as P);
  }

  /** Sends one notification of protocol/lspProtocol.ts; dropped while the sidecar is not running. */
  async notify<P>(type: NotificationType<P>, params: P): Promise<void> {
    const client = this.client;
    if (!client || !this.isRunning) return;
    await client.sendNotification(type, params);
  }

  dispose(): void {
    void this.stop();
    for (const e of [this.stateEmitter, this.gatewayEmitter, this.lensEmitter, this.pullEmitter]) e.dispose();
  }

  private createClient(): LanguageClient {
    const { serverModule, log } = this.options;
    const serverOptions: ServerOptions = {
      // The same heap flags the sidecar sets on itself (server/src/heapFlags.ts), applied from
      // the first allocation on.
      run: {
        module: serverModule,
        transport: TransportKind.ipc,
        options: { execArgv: ['--optimize-for-size', '--max-semi-space-size=8'] },
      },
      debug: {
        module: serverModule,
        transport: TransportKind.ipc,
        options: { execArgv: ['--nolazy', '--inspect=6019'] },
      },
    };
    const clientOptions: LanguageClientOptions = {
      // No document selector: the sidecar serves no language features, only custom messages.
      documentSelector: [],
      outputChannel: levelRoutingChannel(log),
      traceOutputChannel: levelRoutingChannel(log, { payloads: false }),
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      initializationOptions: () => this.options.initOptions(),
      errorHandler: this.errorHandler(),
      // The settings flow through mcpLens/updateSettings, not workspace/configuration.
      synchronize: {},
    };
    const client = new LanguageClient('mcpLens', 'MCP Lens', serverOptions, clientOptions);
    client.onDidChangeState((e) => {
      if (e.newState === State.Running) void this.onRunning(client);
      else if (e.newState === State.Starting && this.stateValue !== 'restarting') this.setState('starting');
    });
    client.onNotification(StateChangedNotification, (p) => this.onLensState(p));
    client.onNotification(PullProgressNotification, (p) => this.pullEmitter.fire(p));
    for (const { type, handler } of this.handlers) client.onNotification(type, handler);
    for (const { type, handler } of this.requestHandlers) client.onRequest(type, handler);
    return client;
  }

  private async onRunning(client: LanguageClient): Promise<void> {
    if (client !== this.client) return;
    this.setState('running');
    try {
      const info = await client.sendRequest(GatewayInfoRequest);
      this.updateGateway(info);
    } catch (err) {
      this.options.log.error(`asking the sidecar for its gateway: ${errorText(err)}`);
    }
  }

  private onLensState(params: StateChangedParams): void {
    this.lens = params;
    if (params.gateway) this.updateGateway(params.gateway);
    this.lensEmitter.fire(params);
  }

  private updateGateway(info: GatewayInfo | undefined): void {
    const old = this.gateway;
    this.gateway = info;
    // Only the launch details count: catalog changes reach VS Code as tools/list_changed.
    const changed = old?.url !== info?.url || old?.token !== info?.token;
    if (changed) this.gatewayEmitter.fire(info);
    if (info && this.isRunning) {
      const waiters = this.readyWaiters;
      this.readyWaiters = [];
      for (const w of waiters) w();
    }
  }

  private setState(state: SidecarState): void {
    if (state === this.stateValue) return;
    this.stateValue = state;
    this.stateEmitter.fire(state);
  }

  /** A crash restarts the sidecar until the budget is spent; each one is shown, not hidden. */
  private errorHandler(): ErrorHandler {
    return {
      error: (_error, _message, count): ErrorHandlerResult => ({
        action: count !== undefined && count <= 3 ? ErrorAction.Continue : ErrorAction.Shutdown,
        handled: true,
      }),
      closed: (): CloseHandlerResult => {
        this.updateGateway(undefined);
        this.lens = undefined;
        const allowed = this.crashes.record(Date.now());
        const { log } = this.options;
        if (allowed) {
          this.setState('restarting');
          log.error(
            `MCP Lens sidecar stopped unexpectedly; restarting (${this.crashes.count}/${this.crashes.max} in ${this.crashes.windowMinutes} min).`,
          );
          void vscode.window.showWarningMessage(
            'MCP Lens: the sidecar stopped unexpectedly and is restarting. See "MCP Lens: Show Logs".',
          );
          return { action: CloseAction.Restart, handled: true };
        }
        this.setState('failed');
        log.error(
          `MCP Lens sidecar crashed ${this.crashes.count} times in ${this.crashes.windowMinutes} minutes; not restarting.`,
        );
        void vscode.window
          .showErrorMessage(
            `MCP Lens: the sidecar crashed ${this.crashes.count} times in ${this.crashes.windowMinutes} minutes and was stopped.`,
            'Restart',
            'Show Logs',
          )
          .then((pick) => {
            if (pick === 'Restart') void vscode.commands.executeCommand('mcpLens.restartSidecar');
            if (pick === 'Show Logs') log.show();
          });
        return { action: CloseAction.DoNotRestart, handled: true };
      },
    };
  }
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
