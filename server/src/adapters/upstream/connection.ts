/**
 * One upstream server for one principal (core/principal.ts): connects (with a deadline, over the
 * first transport that answers, session.ts), lists what it offers and follows its list_changed
 * notifications (upstreamLists.ts: the workspace's connection only, since the catalog is one per
 * workspace), runs tool calls (upstreamCalls.ts) and the other requests (sessionRequests.ts),
 * hands what the server asks back to `inbound` with the principal it runs for, restarts it with
 * backoff when it exits or stops answering (recovery.ts), stops it when idle under lazy startup
 * (idleStop.ts), signs in when a remote server asks (auth/connectionSignIn.ts), and kills its
 * process on stop. Each helper is handed the parts it uses, through an interface of its own;
 * the connection itself is only what starts, stops and fails. State and failures are values
 * read through status().
 */
import type { CallToolResult, ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import type { ServerConfig } from '../../core/config/types';
import type { Logger } from '../../core/logger';
import type { RestartPolicy } from '../../core/backoff';
import { isWorkspace, WORKSPACE_PRINCIPAL, type Principal } from '../../core/principal';
import { errorMessage } from '../../core/errorMessage';
import { CallFailures } from './callFailures';
import { IdleStop, type Stoppable } from './idleStop';
import { ConnectionState, type StateOwner } from './connectionState';
import { Recovery, type Connector } from './recovery';
import { outsideCalls } from './inFlightCalls';
import { clientSide, UpstreamFollowUps } from './followUps';
import { SessionRequests } from './sessionRequests';
import { UpstreamCalls } from './upstreamCalls';
import { StderrTail } from './stderrTail';
import { closeSessionProcess, openFirstSession, type ListKind, type Session, type SessionHooks } from './session';
import { SessionSlot } from './sessionSlot';
import { UpstreamLists } from './upstreamLists';
import {
  UpstreamCallError,
  type CallToolOptions,
  type UpstreamInbound,
  type UpstreamPrompt,
  type UpstreamResource,
  type UpstreamResourceTemplate,
  type UpstreamState,
  type UpstreamStatus,
  type UpstreamTool,
} from './types';
import { ConnectionSignIn } from './auth/connectionSignIn';
import { listTtlOf } from './dualEra';
import { isNeedsSignIn } from './auth/needsSignIn';
import type { OAuthEnvironment } from './auth/types';

export interface ConnectionOptions {
  log: Logger;
  connectTimeoutMs: number;
  requestTimeoutMs: number;
  restart: RestartPolicy;
  clientInfo: { name: string; version: string };
  /** Delay that coalesces list_changed bursts. */
  listChangedDelayMs?: number;
  /**
   * Awaited before each spawn or connect (the pool spreads them over turns of the event loop
   * and keeps a few launching at once); what it returns is called once the server listed its
   * tools or failed.
   */
  beforeConnect?: () => Promise<() => void>;
  /** Signing in to remote servers that ask for it (OAuth); absent: such a server fails with the server's 401. */
  oauth?: OAuthEnvironment;
  onChange(kind: 'state' | ListKind): void;
  /** Where requests and notifications the server sends unasked go (see UpstreamPoolOptions.inbound). */
  inbound?: UpstreamInbound;
  /** Whom it runs for; default the workspace, whose connection is the catalog's (listed and indexed). */
  principal?: Principal;
  /** What MCP Lens's client declares at initialize; default all it passes on (followUps.ts). */
  capabilities?: ClientCapabilities;
}

/** How often new stderr lines may announce a state change. */
const STDERR_NOTICE_MS = 250;

/**
 * Whether one connection serves every principal: a remote server, whose calls' own streams
 * name their caller (inFlightCalls.ts) and which starts no process. A stdio server runs once per
 * principal that uses it (pool.ts).
 */
export function sharedAcrossPrincipals(config: ServerConfig): boolean {
  return config.type !== 'stdio';
}

export class UpstreamConnection implements StateOwner, Connector, Stoppable {
  readonly principal: Principal;
  private readonly slot = new SessionSlot();
  private readonly state: ConnectionState;
  // The stderr tail is part of what the user sees (list_servers, the dashboard), so new lines
  // announce a state change — at most every STDERR_NOTICE_MS, since a server may flood it.
  private readonly stderr = new StderrTail(20, 1000, () => this.noticeStderr());
  private stderrNotice: NodeJS.Timeout | undefined;
  private readonly lists: UpstreamLists;
  private readonly recovery: Recovery;
  private readonly failures: CallFailures;
  private readonly idle: IdleStop;
  private readonly calls: UpstreamCalls;
  /** Prompts, resources, completions, subscriptions, log level and roots (sessionRequests.ts). */
  readonly requests: SessionRequests;
  /** A remote server's OAuth (absent for stdio, and for one whose headers set Authorization themselves). */
  private readonly signInFlow: ConnectionSignIn | undefined;
  private readonly hooks: SessionHooks;
  private settled: Promise<void> = Promise.resolve();
  /** Only the workspace's connection lists: the catalog is one per workspace. */
  private readonly listed: boolean;

  constructor(
    readonly config: ServerConfig,
    private readonly opts: ConnectionOptions,
  ) {
    const { name } = config;
    const { log, requestTimeoutMs } = opts;
    this.principal = opts.principal ?? WORKSPACE_PRINCIPAL;
    this.listed = isWorkspace(this.principal);
    this.state = new ConnectionState(name, this.slot, this);
    this.lists = new UpstreamLists({ ...opts, name, sessions: this.state, onChange: (kind) => opts.onChange(kind) });
    this.signInFlow = ConnectionSignIn.for(config, opts.oauth, opts.connectTimeoutMs, {
      log,
      slot: this.slot,
      lists: this.lists,
      state: this.state,
      connector: this,
    });
    const { slot, state, signInFlow: signIn } = this;
    this.recovery = new Recovery(opts.restart, { name, log, requestTimeoutMs, slot, state, connector: this, signIn });
    this.failures = new CallFailures({ name, log, stderr: this.stderr, recovery: this.recovery, slot, signIn });
    this.idle = new IdleStop(name, log, this);
    const { failures, idle } = this;
    this.calls = new UpstreamCalls(
      { name, log, state, slot, failures, idle, renewer: this },
      sharedAcrossPrincipals(config),
    );
    this.requests = new SessionRequests(
      {
        requestTimeoutMs,
        state,
        failures,
        track: (caller, request) => this.calls.inFlight.track(caller, request),
      },
      new UpstreamFollowUps(name, requestTimeoutMs, log),
    );
    this.hooks = this.sessionHooks();
  }

  get name(): string {
    return this.config.name;
  }

  get isReady(): boolean {
    return this.state.ready;
  }

  /** The server's name in log lines, with the principal when it is not the workspace. */
  private get label(): string {
    return this.listed ? this.name : `${this.name} for ${this.principal.label}`;
  }

  /** Starts a connection; the promise resolves once it is ready or in error. */
  start(): Promise<void> {
    this.settled = this.connectOrFail();
    return this.settled;
  }

  /** Its state alone (status() copies the stderr tail: this is asked on every change of every server). */
  currentState(): UpstreamState {
    return this.state.current;
  }

  /** Resolves once the last start settled (ready or error); at once for a server never started. */
  firstSettled(): Promise<void> {
    return this.settled;
  }

  /**
   * Resolves once the server is ready: at once when it is, after the start in progress, or
   * after starting it when it is stopped (lazy start, idle stop). Rejects with a not-ready
   * error naming the reason when the start fails, the server is in error, `timeoutMs` passes
   * or `signal` aborts.
   */
  whenReady(timeoutMs: number, signal?: AbortSignal, tool?: string): Promise<void> {
    return this.state.whenReady(timeoutMs, signal, tool);
  }

  /** Lazy start: stop the server after `ms` without a call; undefined turns that off. */
  setIdleTimeout(ms: number | undefined): void {
    this.idle.set(ms);
  }

  /** Whether a call is running on it. */
  get busy(): boolean {
    return this.idle.busy;
  }

  status(): UpstreamStatus {
    return {
      name: this.name,
      transport: this.config.type,
      state: this.state.current,
      ...(this.state.error !== undefined && { error: this.state.error }),
      stderrTail: this.stderr.snapshot(),
      restarts: this.recovery.count,
      ...(this.state.readyAt !== undefined && { readyAt: this.state.readyAt }),
      toolCount: this.lists.tools.length,
      promptCount: this.lists.prompts.length,
      resourceCount: this.lists.resources.length,
      ...this.slot.pid(),
      ...(this.signInFlow && { signIn: true }),
    };
  }

  tools(): UpstreamTool[] {
    return this.lists.tools;
  }
  /** How long the server itself says its list (`tools/list`, …) may be reused, when it speaks 2026-07-28 and said. */
  listTtl(method: string): number | undefined {
    const session = this.state.session();
    return session ? listTtlOf(session, method) : undefined;
  }
  prompts(): UpstreamPrompt[] {
    return this.lists.prompts;
  }
  resources(): UpstreamResource[] {
    return this.lists.resources;
  }
  resourceTemplates(): UpstreamResourceTemplate[] {
    return this.lists.templates;
  }

  stateChanged(state: UpstreamState): void {
    if (state === 'ready') this.idle.arm();
    this.opts.onChange('state');
  }

  private noticeStderr(): void {
    if (this.stderrNotice) return;
    this.stderrNotice = setTimeout(() => {
      this.stderrNotice = undefined;
      this.opts.onChange('state');
    }, STDERR_NOTICE_MS);
    this.stderrNotice.unref();
  }

  /** Stops (until started again): cancels pending restarts and kills the process. */
  async stop(): Promise<void> {
    this.slot.bump();
    clearTimeout(this.stderrNotice);
    this.recovery.cancel();
    this.idle.cancel();
    this.lists.cancel();
    await this.slot.close();
    this.lists.clear();
    this.state.show('stopped', undefined);
  }

  /** Manual restart: kills the current process, forgets earlier failures, connects again. */
  async restart(): Promise<void> {
    this.recovery.count++;
    await this.reconnect();
  }

  /** Kills the current process and connects again with a clean slate (a sign-in's new tokens). */
  async reconnect(): Promise<void> {
    this.slot.bump();
    this.recovery.cancel();
    await this.slot.close();
    this.recovery.reset();
    await this.connectOrFail();
  }

  /** Signs in to this remote server (the browser opens through the front door), then connects with the new tokens. */
  async signIn(signal?: AbortSignal): Promise<void> {
    if (!this.signInFlow)
      throw new Error(
        `${this.name} does not sign in through MCP Lens (not a remote server, or its headers set Authorization)`,
      );
    await this.signInFlow.signIn(signal);
  }

  /** Forgets this server's tokens and registered client; it then needs signing in again. */
  async signOut(): Promise<void> {
    if (!this.signInFlow) throw new Error(`${this.name} does not sign in through MCP Lens`);
    await this.signInFlow.signOut();
  }

  async callTool(name: string, args: Record<string, unknown>, opts: CallToolOptions): Promise<CallToolResult> {
    try {
      return await this.calls.call(name, args, opts);
    } catch (error) {
      // A call that asked for more access (a step-up) is tried once more after an unasked sign-in.
      if (
        !this.signInFlow ||
        !(error instanceof UpstreamCallError) ||
        error.kind !== 'needs-sign-in' ||
        this.state.current !== 'starting'
      )
        throw error;
      await this.whenReady(this.signInFlow.waitMs(this.opts.connectTimeoutMs), opts.signal, name);
      return this.calls.call(name, args, opts);
    }
  }

  /** One connect attempt; on failure the state becomes 'error' with the reason. */
  private async connectOrFail(): Promise<void> {
    const gen = this.slot.generation + 1; // the one connect() takes
    try {
      await this.connect();
    } catch (error) {
      // Stopped or restarted meanwhile (MCP Lens closing, a config change): not a failure.
      if (gen !== this.slot.generation) return;
      if (isNeedsSignIn(error)) return this.signInFlow?.refused();
      this.fail(this.failures.breach ?? errorMessage(error));
    }
  }

  /** Never inside a call's context, whoever triggered it (a lazy start, a failed call's probe): see inFlightCalls.ts. */
  connect(): Promise<void> {
    return outsideCalls(() => this.connectNow());
  }

  private async connectNow(): Promise<void> {
    const gen = this.slot.bump();
    this.failures.breach = undefined;
    this.state.set('starting');
    const release = await this.opts.beforeConnect?.();
    try {
      await this.launch(gen);
    } finally {
      release?.();
    }
  }

  /** Spawn or connect, initialize and the first listing: the part that holds a launch slot. */
  private async launch(gen: number): Promise<void> {
    if (gen !== this.slot.generation) return;
    this.stderr.clear(); // the tail belongs to the process about to start
    const session = await openFirstSession(
      this.config,
      this.stderr,
      this.hooks,
      this.opts.connectTimeoutMs,
      this.signInFlow?.auth,
    );
    if (gen !== this.slot.generation) return void (await closeSessionProcess(session));
    this.slot.current = session;
    if (this.listed) await this.listFirst();
    this.signInFlow?.auth.succeeded();
    if (gen !== this.slot.generation) return;
    this.state.show('ready', undefined);
    this.opts.log.info(`[${this.label}] ready${this.listed ? `: ${this.lists.tools.length} tools` : ''}`);
    this.requests.followUps.afterConnect(session.client);
  }

  private async listFirst(): Promise<void> {
    try {
      await this.lists.listAll(this.slot.current!);
    } catch (error) {
      await this.slot.close();
      if (isNeedsSignIn(error)) throw error;
      throw new Error(`listing failed: ${errorMessage(error)}`);
    }
  }

  /** What a session tells its connection (session.ts). */
  private sessionHooks(): SessionHooks {
    const { config, opts } = this;
    const source = { server: config.name, principal: this.principal.id, shared: sharedAcrossPrincipals(config) };
    return {
      server: config.name,
      log: opts.log,
      clientInfo: opts.clientInfo,
      ...clientSide(source, opts.inbound, this.calls.inFlight, opts.capabilities),
      onCreated: (session) => this.slot.opened(session),
      onSettled: (session) => this.slot.settled(session),
      onSpawned: () => opts.onChange('state'), // the status now shows the pid
      onClosed: (session) => this.onSessionClosed(session),
      onListChanged: (session, kind) => {
        if (this.listed && session === this.slot.current) this.lists.changed(kind);
      },
      onTransportError: (error) => this.failures.transportError(error),
      onStreamLost: (session) => this.calls.renewWhenIdle(session),
    };
  }

  private onSessionClosed(session: Session): void {
    if (session.closing || session !== this.slot.current) return;
    this.slot.current = undefined;
    const last = this.stderr.lastLine();
    const reason =
      this.failures.breach ??
      (this.config.type === 'stdio' ? `process exited${last ? `: ${last}` : ''}` : 'connection closed');
    this.opts.log.warn(`[${this.label}] ${reason}`);
    this.recovery.schedule(reason);
  }

  fail(reason: string): void {
    this.lists.clear();
    this.state.show('error', reason);
    this.opts.log.error(`[${this.label}] ${reason}`);
  }
}
