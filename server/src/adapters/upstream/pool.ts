/**
 * The upstream pool: the workspace's MCP client per configured server, reconciled to the
 * configured set, with the union of their tools, prompts and resources and one change event
 * stream; and, for every other principal that uses a stdio server, a connection of its own
 * (principalConnections.ts). Whatever a principal asks goes on `connectionFor` that principal.
 * One failing server is a status, never an exception out of the pool.
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
import { LENS_VERSION } from '../../core/version';
import { availableParallelism } from 'node:os';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { isWorkspace, WORKSPACE_PRINCIPAL, type Principal } from '../../core/principal';
import { sharedAcrossPrincipals, UpstreamConnection } from './connection';
import { declaredFor } from './followUps';
import { LaunchWindow } from './launchWindow';
import { DEFAULT_PROCESSES_PER_PRINCIPAL, PrincipalConnections } from './principalConnections';
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
  type UpstreamCaller,
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
const DEFAULT_CLIENT_INFO = { name: 'mcp-lens', version: LENS_VERSION };

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
  /** The level the workspace's sessions asked for, for servers that connect later. */
  private logLevel: LoggingLevel | undefined;
  /** Other principals' own connections to stdio servers. */
  private readonly principals: PrincipalConnections;

  constructor(private readonly options: UpstreamPoolOptions) {
    this.changes = new ChangeEmitter((error) =>
      options.log.error(`upstream change listener failed: ${errorMessage(error)}`),
    );
    this.launches = new LaunchWindow(options.launchWindow ?? LAUNCH_WINDOW, LAUNCH_SLOT_MS);
    const { inbound } = options;
    this.principals = new PrincipalConnections({
      log: options.log,
      maxProcesses: options.processesPerPrincipal ?? DEFAULT_PROCESSES_PER_PRINCIPAL,
      // Without an inbound side (one-shot CLI commands) there are no sessions, so no other principal.
      capabilities: (principal) => inbound?.capabilities(principal),
      create: (config, principal, capabilities) => this.create(config, principal, capabilities),
    });
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

  /** The shortest time any server says its list may be reused (servers speaking 2026-07-28 say). */
  listTtl(method: string): number | undefined {
    const hints = [...this.connections.values()].map((c) => c.listTtl(method)).filter((n) => n !== undefined);
    return hints.length ? Math.min(...(hints as number[])) : undefined;
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
    const connection = this.connectionFor(server, opts.caller?.principal, name);
    // A server that is starting (or stopped, under lazy start) is waited for, within the connect
    // timeout; the margin lets a start that fails at its own deadline report its real reason.
    if (!connection.isReady)
      await connection.whenReady(this.options.connectTimeoutMs + START_WAIT_MARGIN_MS, opts.signal, name);
    return connection.callTool(name, args, opts);
  }

  /** The other requests below go, like calls, on the connection of the principal that asks (absent: the workspace). */
  async getPrompt(
    server: string,
    name: string,
    args: Record<string, string>,
    principal?: Principal,
    caller?: UpstreamCaller,
  ): Promise<GetPromptResult> {
    return (await this.readyFor(server, principal)).requests.getPrompt(name, args, caller);
  }

  async readResource(
    server: string,
    uri: string,
    principal?: Principal,
    caller?: UpstreamCaller,
  ): Promise<ReadResourceResult> {
    return (await this.readyFor(server, principal)).requests.readResource(uri, caller);
  }

  async complete(server: string, params: CompleteRequest['params'], principal?: Principal): Promise<CompleteResult> {
    return (await this.readyFor(server, principal)).requests.complete(params);
  }

  async subscribe(server: string, uri: string, principal?: Principal): Promise<void> {
    await (await this.readyFor(server, principal)).requests.subscribe(uri);
  }

  async unsubscribe(server: string, uri: string, principal?: Principal): Promise<void> {
    await this.connectionFor(server, principal).requests.unsubscribe(uri);
  }

  /**
   * logging/setLevel, now and after each (re)connect, on every server that logs and runs for
   * `principal` (absent: the workspace, whose connections every principal shares for remote servers).
   */
  setLogLevel(level: LoggingLevel, principal?: Principal): void {
    if (principal && !isWorkspace(principal)) return this.principals.setLogLevel(principal.id, level);
    this.logLevel = level;
    for (const c of this.connections.values()) c.requests.setLogLevel(level);
  }

  /**
   * notifications/roots/list_changed to every ready server `principal` (absent: the workspace)
   * may have told its roots: those that run for it, and the remote ones every principal shares
   * (inside its own calls they hear its roots; outside, their owner's: upstreamRequests.ts).
   */
  rootsChanged(principal?: Principal): void {
    const workspace = [...this.connections.values()];
    const told =
      !principal || isWorkspace(principal)
        ? workspace
        : [...this.principals.of(principal.id), ...workspace.filter((c) => this.shared(c.config))];
    for (const c of told) c.requests.rootsChanged();
  }

  /**
   * The principal whose connection `principal`'s requests to `server` take: its own for a stdio
   * server, the workspace's otherwise (what arrives on it names that owner: UpstreamSource).
   */
  connectionOwner(server: string, principal: Principal): string {
    const config = this.connections.get(server)?.config;
    return config && this.shared(config) ? WORKSPACE_PRINCIPAL.id : principal.id;
  }

  /** The principal went (its last session closed): the processes it ran are stopped. */
  async dropPrincipal(principal: Principal): Promise<void> {
    if (!isWorkspace(principal)) await this.principals.drop(principal.id);
  }

  /** Kills and reconnects one server, forgetting earlier failures; other principals' processes of it stop until used again. */
  async restart(server: string): Promise<void> {
    await Promise.all([this.connection(server).restart(), this.principals.stopServer(server)]);
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
    await Promise.all([...this.connections.values()].map((c) => c.stop()).concat(this.principals.close()));
    this.connections.clear();
    this.changes.clear();
  }

  private connection(server: string, tool?: string): UpstreamConnection {
    const connection = this.connections.get(server);
    if (!connection) throw new UpstreamCallError('not-ready', server, 'no such server', tool);
    return connection;
  }

  /**
   * The connection `principal` uses for `server`: the workspace's for the workspace, and for
   * every principal when the server is remote; else the principal's own (principalConnections.ts).
   */
  private connectionFor(server: string, principal: Principal | undefined, tool?: string): UpstreamConnection {
    const connection = this.connection(server, tool);
    if (!principal || isWorkspace(principal) || this.shared(connection.config)) return connection;
    return this.principals.connectionFor(connection.config, principal, tool);
  }

  /** Remote servers, and the stdio servers the options name (UpstreamPoolOptions.sharedServers). */
  private shared(config: ServerConfig): boolean {
    return sharedAcrossPrincipals(config) || this.options.sharedServers?.has(config.name) === true;
  }

  /**
   * The connection once it is ready, as a call waits for it: one still starting (a one-shot
   * client asks before it is up), or stopped (a principal's own never used yet or idle, a lazy
   * start's) starts here, within the connect timeout.
   */
  private async readyFor(server: string, principal: Principal | undefined): Promise<UpstreamConnection> {
    const connection = this.connectionFor(server, principal);
    if (!connection.isReady) await connection.whenReady(this.options.connectTimeoutMs + START_WAIT_MARGIN_MS);
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
    await Promise.all(stale.map((c) => this.remove(c)).concat(this.principals.reconcile(wanted)));
    this.principals.setIdleTimeout(lifecycle.idleTimeoutMs);
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
   * Spawning a process blocks the event loop: twenty in a row would hold every request (the
   * first find_tools included) for all of them. A few per turn lets the gateway answer in
   * between; the servers still start in parallel.
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

  /**
   * The workspace's connection to a server, or with `principal` that principal's own, declaring
   * what its sessions declared. Only the workspace's changes are announced: the others are
   * nobody's catalog and no row the user sees.
   */
  private create(config: ServerConfig, principal?: Principal, capabilities?: ClientCapabilities): UpstreamConnection {
    const o = this.options;
    const connection = new UpstreamConnection(config, {
      log: o.log,
      ...(o.inbound && { inbound: o.inbound }),
      connectTimeoutMs: o.connectTimeoutMs,
      requestTimeoutMs: o.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
      restart: o.restart ?? DEFAULT_RESTART,
      clientInfo: o.clientInfo ?? DEFAULT_CLIENT_INFO,
      ...(o.oauth && { oauth: o.oauth }),
      ...(principal && { principal }),
      ...(capabilities && { capabilities: declaredFor(capabilities) }),
      onChange: (kind) => {
        if (!principal) this.changes.fire({ server: config.name, kind });
      },
      beforeConnect: async () => {
        await o.launchAfter;
        const release = await this.launches.acquire();
        await this.nextTurn();
        return release;
      },
    });
    if (this.logLevel && !principal) connection.requests.setLogLevel(this.logLevel);
    return connection;
  }
}
