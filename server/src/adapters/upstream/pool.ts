/**
 * The upstream pool: one MCP client per configured server, reconciled to the configured set,
 * with the union of their tools, prompts and resources and one change event stream. One
 * failing server is a status, never an exception out of the pool.
 */
import type {
  CallToolResult,
  CompleteRequest,
  CompleteResult,
  GetPromptResult,
  LoggingLevel,
  ReadResourceResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { ServerConfig } from '../../core/config/types';
import { ChangeEmitter } from '../../core/changeEmitter';
import { DEFAULT_RESTART } from '../../core/backoff';
import { MCP_LENS_VERSION } from '../../core/version';
import { availableParallelism } from 'node:os';
import { UpstreamConnection } from './connection';
import { LaunchWindow } from './launchWindow';
import {
  UpstreamCallError,
  type CallToolOptions,
  type UpstreamChange,
  type UpstreamPoolOptions,
  type UpstreamPrompt,
  type UpstreamResource,
  type UpstreamResourceTemplate,
  type UpstreamStatus,
  type UpstreamTool,
} from './types';
import { errorMessage } from '../../core/errorMessage';

export * from './types';

/** How the pool runs the servers it is given. */
export interface ServerLifecycle {
  /** Servers registered without starting them: the first call starts them (lazy start). */
  deferred?: ReadonlySet<string>;
  /** Stop a server after this long without a call; undefined: never. */
  idleTimeoutMs?: number;
}

const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
const START_WAIT_MARGIN_MS = 1000;
/** Processes spawned per turn of the event loop (~10 ms each). */
const CONNECTS_PER_TURN = 1;
/** Servers launching at once: two per core, at least four (launchWindow.ts). */
const LAUNCH_WINDOW = Math.max(4, 2 * availableParallelism());
/** A server still launching after this long stops holding its slot. */
const LAUNCH_SLOT_MS = 1500;
const DEFAULT_CLIENT_INFO = { name: 'mcp-lens', version: MCP_LENS_VERSION };

export class UpstreamPool {
  private readonly connections = new Map<string, UpstreamConnection>();
  private readonly changes: ChangeEmitter<UpstreamChange>;
  /** setServers calls run one after another, so two reconciliations never interleave. */
  private queue: Promise<void> = Promise.resolve();
  /** Connects go a few per turn of the event loop (see `nextTurn`). */
  private turns: Promise<void> = Promise.resolve();
  private inTurn = 0;
  private readonly launches: LaunchWindow;
  private closed = false;
  /** The level the downstream clients asked for, for servers that connect later. */
  private logLevel: LoggingLevel | undefined;

  constructor(private readonly options: UpstreamPoolOptions) {
    this.changes = new ChangeEmitter((error) =>
      options.log.error(`upstream change listener failed: ${errorMessage(error)}`),
    );
    this.launches = new LaunchWindow(options.launchWindow ?? LAUNCH_WINDOW, LAUNCH_SLOT_MS);
  }

  /**
   * Reconciles to exactly this set: starts new servers, stops removed ones, restarts changed
   * ones (by fingerprint); servers whose definition did not change are left alone. Servers in
   * `deferred` are only registered (state 'stopped'): the first call starts them. Reconciliations
   * run one after another but never wait for a server to connect, so a hanging server cannot hold
   * up the next one; the promise resolves once every server started here has settled once.
   */
  setServers(servers: ServerConfig[], lifecycle: ServerLifecycle = {}): Promise<void> {
    const run = this.queue.then(() => this.reconcile(servers, lifecycle));
    this.queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run.then((started) => Promise.all(started.map((c) => c.firstSettled())).then(() => undefined));
  }

  /** Resolves once every server that is starting now has settled once (ready or error). */
  async whenSettled(): Promise<void> {
    await this.queue;
    await Promise.all([...this.connections.values()].map((c) => c.firstSettled()));
  }

  /** Whether some server is starting (or waiting to restart) now. */
  starting(): boolean {
    for (const c of this.connections.values()) if (c.currentState() === 'starting') return true;
    return false;
  }

  statuses(): UpstreamStatus[] {
    return [...this.connections.values()].map((c) => c.status());
  }
  tools(): UpstreamTool[] {
    return [...this.connections.values()].flatMap((c) => c.tools());
  }
  /** What one server lists now (the same array until its list changes); empty when unknown. */
  toolsOf(server: string): readonly UpstreamTool[] {
    return this.connections.get(server)?.tools() ?? [];
  }
  prompts(): UpstreamPrompt[] {
    return [...this.connections.values()].flatMap((c) => c.prompts());
  }
  resources(): UpstreamResource[] {
    return [...this.connections.values()].flatMap((c) => c.resources());
  }
  resourceTemplates(): UpstreamResourceTemplate[] {
    return [...this.connections.values()].flatMap((c) => c.resourceTemplates());
  }

  /**
   * Calls a tool. Upstream `isError` results come back untouched; JSON-RPC errors, timeouts,
   * cancellation and disconnects throw UpstreamCallError naming server and tool.
   */
  async callTool(
    server: string,
    name: string,
    args: Record<string, unknown>,
    opts: CallToolOptions,
  ): Promise<CallToolResult> {
    const connection = this.connection(server, name);
    // A server that is starting (or stopped, under lazy start) is waited for, within the connect
    // timeout; the margin lets a start that fails at its own deadline report its real reason.
    if (!connection.isReady)
      await connection.whenReady(this.options.connectTimeoutMs + START_WAIT_MARGIN_MS, opts.signal, name);
    return connection.callTool(name, args, opts);
  }

  async getPrompt(server: string, name: string, args: Record<string, string>): Promise<GetPromptResult> {
    return this.connection(server).requests.getPrompt(name, args);
  }

  async readResource(server: string, uri: string): Promise<ReadResourceResult> {
    return this.connection(server).requests.readResource(uri);
  }

  async complete(server: string, params: CompleteRequest['params']): Promise<CompleteResult> {
    return this.connection(server).requests.complete(params);
  }

  async subscribe(server: string, uri: string): Promise<void> {
    await this.connection(server).requests.subscribe(uri);
  }

  async unsubscribe(server: string, uri: string): Promise<void> {
    await this.connection(server).requests.unsubscribe(uri);
  }

  /** logging/setLevel on every server that logs, now and after each (re)connect. */
  setLogLevel(level: LoggingLevel): void {
    this.logLevel = level;
    for (const c of this.connections.values()) c.requests.setLogLevel(level);
  }

  /** notifications/roots/list_changed to every ready server. */
  rootsChanged(): void {
    for (const c of this.connections.values()) c.requests.rootsChanged();
  }

  /** Kills and reconnects one server, forgetting earlier failures. */
  async restart(server: string): Promise<void> {
    await this.connection(server).restart();
  }

  /** Signs in to a remote server (UpstreamPoolOptions.oauth), then reconnects it. */
  async signIn(server: string, signal?: AbortSignal): Promise<void> {
    await this.connection(server).signIn(signal);
  }

  /** Forgets a remote server's tokens; it then needs signing in again. */
  async signOut(server: string): Promise<void> {
    await this.connection(server).signOut();
  }

  onDidChange(listener: (change: UpstreamChange) => void): { dispose(): void } {
    return this.changes.on(listener);
  }

  /** Stops everything and kills every child process. */
  async close(): Promise<void> {
    this.closed = true;
    await this.queue;
    await Promise.all([...this.connections.values()].map((c) => c.stop()));
    this.connections.clear();
    this.changes.clear();
  }

  private connection(server: string, tool?: string): UpstreamConnection {
    const connection = this.connections.get(server);
    if (!connection) throw new UpstreamCallError('not-ready', server, 'no such server', tool);
    return connection;
  }

  private async reconcile(servers: ServerConfig[], lifecycle: ServerLifecycle): Promise<UpstreamConnection[]> {
    if (this.closed) return [];
    const wanted = new Map<string, ServerConfig>();
    for (const s of servers) {
      if (wanted.has(s.name)) this.options.log.warn(`[${s.name}] declared twice; the first declaration is used`);
      else wanted.set(s.name, s);
    }
    const stale = [...this.connections.values()].filter(
      (c) => wanted.get(c.name)?.fingerprint !== c.config.fingerprint,
    );
    await Promise.all(stale.map((c) => this.remove(c)));
    const started: UpstreamConnection[] = [];
    for (const config of wanted.values()) {
      let connection = this.connections.get(config.name);
      const deferred = lifecycle.deferred?.has(config.name) === true;
      if (!connection) {
        connection = this.create(config);
        this.connections.set(config.name, connection);
        if (deferred) this.changes.fire({ server: config.name, kind: 'state' });
        else {
          void connection.start();
          started.push(connection);
        }
      } else if (!deferred && lifecycle.idleTimeoutMs === undefined && connection.status().state === 'stopped') {
        // Lazy start switched off: what was left stopped starts now.
        void connection.start();
        started.push(connection);
      }
      connection.setIdleTimeout(lifecycle.idleTimeoutMs);
    }
    return started;
  }

  /**
   * Spawning a process blocks the event loop for ~10 ms: twenty in a row would hold every
   * request (the first find_tools included) for a quarter of a second. A few per turn lets the
   * gateway answer in between; the servers still start in parallel.
   */
  private nextTurn(): Promise<void> {
    if (this.inTurn < CONNECTS_PER_TURN) {
      this.inTurn++;
      return this.turns;
    }
    this.inTurn = 1;
    const turn = this.turns.then(() => new Promise<void>((resolve) => setImmediate(resolve)));
    this.turns = turn;
    return turn;
  }

  private async remove(connection: UpstreamConnection): Promise<void> {
    await connection.stop();
    this.connections.delete(connection.name);
    this.changes.fire({ server: connection.name, kind: 'state' });
  }

  private create(config: ServerConfig): UpstreamConnection {
    const o = this.options;
    const connection = new UpstreamConnection(config, {
      log: o.log,
      ...(o.inbound && { inbound: o.inbound }),
      connectTimeoutMs: o.connectTimeoutMs,
      requestTimeoutMs: o.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
      restart: o.restart ?? DEFAULT_RESTART,
      clientInfo: o.clientInfo ?? DEFAULT_CLIENT_INFO,
      ...(o.oauth && { oauth: o.oauth }),
      onChange: (kind) => this.changes.fire({ server: config.name, kind }),
      beforeConnect: async () => {
        await o.launchAfter;
        const release = await this.launches.acquire();
        await this.nextTurn();
        return release;
      },
    });
    if (this.logLevel) connection.requests.setLogLevel(this.logLevel);
    return connection;
  }
}
