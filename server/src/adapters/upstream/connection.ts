/**
 * One upstream server: connects (with a deadline, over the first transport that answers,
 * session.ts), lists what it offers and follows its list_changed notifications
 * (upstreamLists.ts), runs tool calls (upstreamCalls.ts) and the other requests
 * (sessionRequests.ts), hands what the server asks back to `inbound`, restarts it with backoff
 * when it exits or stops answering, stops it when idle under lazy startup (idleStop.ts), signs in
 * when a remote server asks (auth/connectionSignIn.ts), and kills its process on stop. State and
 * failures are values read through status().
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ServerConfig } from '../../core/config/types';
import type { Logger } from '../../core/logger';
import type { RestartPolicy } from '../../core/backoff';
import { classifyCallError } from './callErrors';
import { IdleStop } from './idleStop';
import { ConnectionState } from './connectionState';
import { Recovery } from './recovery';
import { outsideCalls } from './inFlightCalls';
import { clientSide, UpstreamFollowUps } from './followUps';
import { SessionRequests } from './sessionRequests';
import { UpstreamCalls } from './upstreamCalls';
import { StderrTail } from './stderrTail';
import { closeSessionProcess, openFirstSession, type ListKind, type Session, type SessionHooks } from './session';
import { OversizedMessageError } from './stdioReader';
import { UpstreamLists } from './upstreamLists';
import { BodyLimitError } from './boundedFetch';
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
import { errorMessage } from '../../core/errorMessage';
import { ConnectionSignIn } from './auth/connectionSignIn';
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
}

/** How often new stderr lines may announce a state change. */
const STDERR_NOTICE_MS = 250;

export class UpstreamConnection {
  private readonly state: ConnectionState;
  // The stderr tail is part of what the user sees (list_servers, the dashboard), so new lines
  // announce a state change — at most every STDERR_NOTICE_MS, since a server may flood it.
  private readonly stderr = new StderrTail(20, 1000, () => this.noticeStderr());
  private stderrNotice: NodeJS.Timeout | undefined;
  private session: Session | undefined;
  /** A session still in initialize; stop() must be able to kill it too. */
  private opening: Session | undefined;
  private readonly lists: UpstreamLists;
  private readonly recovery: Recovery;
  /** Bumped by every connect and stop; a stale attempt sees it changed and backs out. */
  private generation = 0;
  private settled: Promise<void> = Promise.resolve();
  private readonly hooks: SessionHooks;
  private readonly idle: IdleStop;
  private readonly calls: UpstreamCalls;
  /** Prompts, resources, completions, subscriptions, log level and roots (sessionRequests.ts). */
  readonly requests: SessionRequests;
  /** A remote server's OAuth (absent for stdio, and for one whose headers set Authorization themselves). */
  private readonly signInFlow: ConnectionSignIn | undefined;
  /** Why the transport closed itself (a body over its limit), for the calls it fails and the restart. */
  private breach: string | undefined;

  constructor(
    readonly config: ServerConfig,
    private readonly opts: ConnectionOptions,
  ) {
    this.state = new ConnectionState({
      name: config.name,
      hasSession: () => this.session !== undefined,
      start: () => void this.start(),
      changed: (state) => {
        if (state === 'ready') this.idle.arm();
        this.opts.onChange('state');
      },
    });
    this.recovery = new Recovery(opts.restart, {
      name: config.name,
      log: opts.log,
      requestTimeoutMs: opts.requestTimeoutMs,
      session: () => this.session,
      closeSession: () => this.closeSession(),
      uptime: () => this.state.uptime(),
      generation: () => this.generation,
      connect: () => this.connect(),
      waiting: (reason) => this.state.show('starting', reason),
      fail: (reason) => this.fail(reason),
      needsSignIn: () => this.signInFlow?.refused(),
    });
    this.signInFlow = ConnectionSignIn.for(config, opts.oauth, opts.connectTimeoutMs, {
      log: opts.log,
      drop: () => {
        void this.closeSession();
        this.lists.clear();
      },
      show: (state, reason) => this.state.show(state, reason),
      reconnect: () => this.reconnect(),
    });
    this.idle = new IdleStop({
      name: config.name,
      log: opts.log,
      isReady: () => this.state.current === 'ready',
      stop: () => void this.stop(),
    });
    this.calls = new UpstreamCalls(
      {
        name: config.name,
        log: opts.log,
        readySession: (tool) => this.readySession(tool),
        current: () => this.session,
        failed: (session, error, o, tool) =>
          this.signInFlow && isNeedsSignIn(error)
            ? this.signInFlow.refusedCall(session === this.session, tool)
            : this.callFailed(session, error, o.timeoutMs, o.signal, tool),
        renew: () => void this.restart(),
      },
      this.idle,
      config.type !== 'stdio',
    );
    this.requests = new SessionRequests(
      {
        requestTimeoutMs: opts.requestTimeoutMs,
        ready: () => this.readySession(),
        current: () => (this.isReady ? this.session : undefined),
        failed: (session, error, what) =>
          this.callFailed(session, error, opts.requestTimeoutMs, undefined, undefined, what),
      },
      new UpstreamFollowUps(config.name, opts.requestTimeoutMs, opts.log),
    );
    this.hooks = {
      server: config.name,
      log: opts.log,
      clientInfo: this.opts.clientInfo,
      ...clientSide(config.name, opts.inbound, this.calls.inFlight),
      onCreated: (session) => void (this.opening = session),
      onSettled: (session) => void (this.opening === session && (this.opening = undefined)),
      onSpawned: () => this.opts.onChange('state'), // the status now shows the pid
      onClosed: (session) => this.onSessionClosed(session),
      onListChanged: (session, kind) => this.onListChanged(session, kind),
      onTransportError: (error) => this.onTransportError(error),
      onStreamLost: (session) => this.calls.renewWhenIdle(session),
    };
    this.lists = new UpstreamLists({
      ...opts,
      name: config.name,
      session: () => this.session,
      isReady: () => this.state.current === 'ready',
      onChange: (kind) => this.opts.onChange(kind),
    });
  }

  get name(): string {
    return this.config.name;
  }

  get isReady(): boolean {
    return this.state.ready;
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
      ...pidOf(this.session ?? this.opening),
      ...(this.signInFlow && { signIn: true }),
    };
  }

  tools(): UpstreamTool[] {
    return this.lists.tools;
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
    this.generation++;
    clearTimeout(this.stderrNotice);
    this.recovery.cancel();
    this.idle.cancel();
    this.lists.cancel();
    await this.closeSession();
    this.lists.clear();
    this.state.show('stopped', undefined);
  }

  /** Manual restart: kills the current process, forgets earlier failures, connects again. */
  async restart(): Promise<void> {
    this.recovery.count++;
    await this.reconnect();
  }

  private async reconnect(): Promise<void> {
    this.generation++;
    this.recovery.cancel();
    await this.closeSession();
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

  /**
   * Garbage on stdout is noise; a message over the size limit is worth a warning (the transport
   * already failed the call it answered, with the reason, and the connection stays up).
   */
  private onTransportError(error: Error): void {
    if (error instanceof OversizedMessageError) return this.opts.log.warn(`[${this.name}] ${error.message}`);
    if (error instanceof BodyLimitError) return void (this.breach = error.message);
    this.opts.log.debug(`[${this.name}] transport: ${errorMessage(error)}`);
  }

  private readySession(tool?: string): Session {
    if (this.state.ready && this.session) return this.session;
    throw this.state.notReady(tool);
  }

  private callFailed(
    session: Session,
    error: unknown,
    timeoutMs: number,
    signal?: AbortSignal,
    tool?: string,
    what?: string,
  ): UpstreamCallError {
    let failure = classifyCallError(error, this.name, {
      timeoutMs,
      signal,
      tool,
      what,
      stderrLine: this.stderr.lastLine(),
    });
    if (failure.kind === 'disconnected' && this.breach)
      failure = new UpstreamCallError('disconnected', this.name, this.breach, tool);
    // A timeout or a broken pipe may mean the server hung or died: check before the next caller finds out.
    if (failure.kind === 'timeout' || failure.kind === 'disconnected') void this.recovery.probe(session);
    return failure;
  }

  /** One connect attempt; on failure the state becomes 'error' with the reason. */
  private async connectOrFail(): Promise<void> {
    const gen = this.generation + 1; // the one connect() takes
    try {
      await this.connect();
    } catch (error) {
      // Stopped or restarted meanwhile (MCP Lens closing, a config change): not a failure.
      if (gen !== this.generation) return;
      if (isNeedsSignIn(error)) return this.signInFlow?.refused();
      this.fail(this.breach ?? errorMessage(error));
    }
  }

  /** Never inside a call's context, whoever triggered it (a lazy start, a failed call's probe): see inFlightCalls.ts. */
  private connect(): Promise<void> {
    return outsideCalls(() => this.connectNow());
  }

  private async connectNow(): Promise<void> {
    const gen = ++this.generation;
    this.breach = undefined;
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
    if (gen !== this.generation) return;
    this.stderr.clear(); // the tail belongs to the process about to start
    const session = await openFirstSession(
      this.config,
      this.stderr,
      this.hooks,
      this.opts.connectTimeoutMs,
      this.signInFlow?.auth,
    );
    if (gen !== this.generation) return void (await closeSessionProcess(session));
    this.session = session;
    try {
      await this.lists.listAll(session);
    } catch (error) {
      await this.closeSession();
      if (isNeedsSignIn(error)) throw error;
      throw new Error(`listing failed: ${errorMessage(error)}`);
    }
    this.signInFlow?.auth.succeeded();
    if (gen !== this.generation) return;
    this.state.show('ready', undefined);
    this.opts.log.info(`[${this.name}] ready: ${this.lists.tools.length} tools`);
    this.requests.followUps.afterConnect(session.client);
  }

  private onListChanged(session: Session, kind: ListKind): void {
    if (session === this.session) this.lists.changed(kind);
  }

  private onSessionClosed(session: Session): void {
    if (session.closing || session !== this.session) return;
    this.session = undefined;
    const last = this.stderr.lastLine();
    const reason =
      this.breach ?? (this.config.type === 'stdio' ? `process exited${last ? `: ${last}` : ''}` : 'connection closed');
    this.opts.log.warn(`[${this.name}] ${reason}`);
    this.recovery.schedule(reason);
  }

  private fail(reason: string): void {
    this.lists.clear();
    this.state.show('error', reason);
    this.opts.log.error(`[${this.name}] ${reason}`);
  }

  private async closeSession(): Promise<void> {
    const sessions = [this.session, this.opening].filter((s): s is Session => s !== undefined);
    this.session = undefined;
    this.opening = undefined;
    await Promise.all(sessions.map((s) => closeSessionProcess(s)));
  }
}

/** `{ pid }` when the process has one (an HTTP session or one not spawned yet has none). */
function pidOf(session: { pid?: number | undefined } | undefined): { pid?: number } {
  return session?.pid === undefined ? {} : { pid: session.pid };
}
