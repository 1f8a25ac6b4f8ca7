/**
 * One upstream server: connects (with a deadline, over the first transport that answers,
 * session.ts), lists what it offers and follows its list_changed notifications
 * (upstreamLists.ts), restarts it with backoff when it exits or stops answering, stops it when
 * idle under lazy startup (idleStop.ts), and kills its process on stop. State and failures are
 * values read through status().
 */
import { CallToolResultSchema, type CallToolResult, type GetPromptResult, type ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import type { ServerConfig } from '../../core/config/types';
import type { Logger } from '../../core/logger';
import { Backoff, type RestartPolicy } from '../../core/backoff';
import { classifyCallError } from './callErrors';
import { IdleStop } from './idleStop';
import { StderrTail } from './stderrTail';
import { closeSessionProcess, openFirstSession, type ListKind, type Session, type SessionHooks } from './session';
import { OversizedMessageError } from './stdioReader';
import { UpstreamLists } from './upstreamLists';
import { BodyLimitError } from './boundedFetch';
import {
  UpstreamCallError,
  type CallToolOptions,
  type UpstreamPrompt,
  type UpstreamResource,
  type UpstreamState,
  type UpstreamStatus,
  type UpstreamTool,
} from './types';
import { errorMessage } from '../../core/errorMessage';
import { ServerAuth } from './auth/serverAuth';
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
}

/** How often new stderr lines may announce a state change. */
const STDERR_NOTICE_MS = 250;

export class UpstreamConnection {
  private state: UpstreamState = 'stopped';
  private error: string | undefined;
  // The stderr tail is part of what the user sees (list_servers, the dashboard), so new lines
  // announce a state change — at most every STDERR_NOTICE_MS, since a server may flood it.
  private readonly stderr = new StderrTail(20, 1000, () => this.noticeStderr());
  private stderrNotice: NodeJS.Timeout | undefined;
  private restarts = 0;
  private readyAt: number | undefined;
  private session: Session | undefined;
  /** A session still in initialize; stop() must be able to kill it too. */
  private opening: Session | undefined;
  private readonly lists: UpstreamLists;
  private readonly backoff: Backoff;
  private restartTimer: NodeJS.Timeout | undefined;
  /** Bumped by every connect and stop; a stale attempt sees it changed and backs out. */
  private generation = 0;
  private settled: Promise<void> = Promise.resolve();
  private readonly hooks: SessionHooks;
  /** Callers of whenReady(), told on every state change. */
  private readonly stateWaiters = new Set<() => void>();
  private readonly idle: IdleStop;
  /** A remote server's OAuth (absent for stdio, and for one whose headers set Authorization themselves). */
  private readonly auth: ServerAuth | undefined;
  /** Why the transport closed itself (a body over its limit), for the calls it fails and the restart. */
  private breach: string | undefined;

  constructor(
    readonly config: ServerConfig,
    private readonly opts: ConnectionOptions,
  ) {
    this.backoff = new Backoff(opts.restart);
    if (config.type !== 'stdio' && opts.oauth && !Object.keys(config.headers).some((h) => h.toLowerCase() === 'authorization'))
      this.auth = new ServerAuth(config, opts.oauth);
    this.hooks = {
      clientInfo: this.opts.clientInfo,
      onCreated: (session) => void (this.opening = session),
      onSettled: (session) => void (this.opening === session && (this.opening = undefined)),
      onSpawned: () => this.opts.onChange('state'), // the status now shows the pid
      onClosed: (session) => this.onSessionClosed(session),
      onListChanged: (session, kind) => this.onListChanged(session, kind),
      onTransportError: (error) => this.onTransportError(error),
    };
    this.idle = new IdleStop({ name: config.name, log: opts.log, isReady: () => this.state === 'ready', stop: () => void this.stop() });
    this.lists = new UpstreamLists({
      ...opts,
      name: config.name,
      session: () => this.session,
      isReady: () => this.state === 'ready',
      onChange: (kind) => this.opts.onChange(kind),
    });
  }

  get name(): string {
    return this.config.name;
  }

  get isReady(): boolean {
    return this.state === 'ready' && this.session !== undefined;
  }

  /** Starts a connection; the promise resolves once it is ready or in error. */
  start(): Promise<void> {
    this.settled = this.connectOrFail();
    return this.settled;
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
    if (this.state === 'ready' && this.session) return Promise.resolve();
    if (this.state === 'error' || this.state === 'needs-sign-in') return Promise.reject(this.notReady(tool));
    if (this.state === 'stopped') void this.start();
    return new Promise<void>((resolve, reject) => {
      const finish = (error?: Error) => {
        clearTimeout(timer);
        this.stateWaiters.delete(check);
        signal?.removeEventListener('abort', aborted);
        if (error) reject(error);
        else resolve();
      };
      const check = () => {
        if (this.state === 'ready' && this.session) finish();
        else if (this.state === 'error' || this.state === 'stopped' || this.state === 'needs-sign-in') finish(this.notReady(tool));
      };
      const aborted = () => finish(new UpstreamCallError('cancelled', this.name, 'cancelled while the server was starting', tool));
      const timer = setTimeout(
        () =>
          finish(
            new UpstreamCallError('not-ready', this.name, `did not start within ${Math.round(timeoutMs / 1000)} s (${this.error ?? 'still starting'})`, tool),
          ),
        timeoutMs,
      );
      timer.unref();
      this.stateWaiters.add(check);
      if (signal?.aborted) return aborted();
      signal?.addEventListener('abort', aborted, { once: true });
    });
  }

  /** Lazy start: stop the server after `ms` without a call; undefined turns that off. */
  setIdleTimeout(ms: number | undefined): void {
    this.idle.set(ms);
  }

  status(): UpstreamStatus {
    return {
      name: this.name,
      transport: this.config.type,
      state: this.state,
      ...(this.error !== undefined && { error: this.error }),
      stderrTail: this.stderr.snapshot(),
      restarts: this.restarts,
      ...(this.readyAt !== undefined && { readyAt: this.readyAt }),
      toolCount: this.lists.tools.length,
      promptCount: this.lists.prompts.length,
      resourceCount: this.lists.resources.length,
      ...pidOf(this.session ?? this.opening),
      ...(this.auth && { signIn: true }),
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
    clearTimeout(this.restartTimer);
    this.idle.cancel();
    this.lists.cancel();
    await this.closeSession();
    this.lists.clear();
    this.error = undefined;
    this.setState('stopped');
  }

  /** Manual restart: kills the current process, forgets earlier failures, connects again. */
  async restart(): Promise<void> {
    this.restarts++;
    await this.reconnect();
  }

  private async reconnect(): Promise<void> {
    this.generation++;
    clearTimeout(this.restartTimer);
    await this.closeSession();
    this.backoff.reset();
    await this.connectOrFail();
  }

  /** Signs in to this remote server (the browser opens through the front door), then connects with the new tokens. */
  async signIn(signal?: AbortSignal): Promise<void> {
    if (!this.auth) throw new Error(`${this.name} does not sign in through MCP Lens (not a remote server, or its headers set Authorization)`);
    await this.auth.signIn(signal);
    await this.reconnect();
  }

  /** Forgets this server's tokens and registered client; it then needs signing in again. */
  async signOut(): Promise<void> {
    if (!this.auth) throw new Error(`${this.name} does not sign in through MCP Lens`);
    await this.auth.signOut();
    await this.reconnect();
  }

  /**
   * The server wants a sign-in no background flow can give: `needs-sign-in`, its lists cleared
   * (find_tools answers from its last known catalog). Where sign-ins may run unasked
   * (OAuthEnvironment.autoSignIn) one starts now, a bounded number of times in a row.
   */
  private needsSignIn(): void {
    void this.closeSession();
    this.lists.clear();
    if (this.auth?.takeAutoSignIn()) {
      this.error = 'signing in';
      this.setState('starting');
      void this.signIn().catch((error: unknown) => this.needsSignInState(`sign-in failed: ${errorMessage(error)}`));
      return;
    }
    this.needsSignInState();
  }

  private needsSignInState(why?: string): void {
    this.error = `needs sign-in (${why ?? `the server asks for an account; ${this.auth?.hint ?? 'sign in to it'}`})`;
    this.setState('needs-sign-in');
    this.opts.log.warn(`[${this.name}] ${this.error}`);
  }

  async callTool(name: string, args: Record<string, unknown>, opts: CallToolOptions): Promise<CallToolResult> {
    try {
      return await this.callOnce(name, args, opts);
    } catch (error) {
      // A call that asked for more access (a step-up) is tried once more after an unasked sign-in.
      if (!(error instanceof UpstreamCallError) || error.kind !== 'needs-sign-in' || this.state !== 'starting') throw error;
      await this.whenReady(this.opts.connectTimeoutMs + (this.opts.oauth?.signInTimeoutMs ?? 300_000), opts.signal, name);
      return this.callOnce(name, args, opts);
    }
  }

  private async callOnce(name: string, args: Record<string, unknown>, opts: CallToolOptions): Promise<CallToolResult> {
    const session = this.readySession(name);
    return this.idle.during(async () => {
      try {
        return await session.client.request({ method: 'tools/call', params: { name, arguments: args } }, CallToolResultSchema, {
          timeout: opts.timeoutMs,
          ...(opts.signal && { signal: opts.signal }),
          ...(opts.onProgress && { onprogress: opts.onProgress, resetTimeoutOnProgress: true }),
        });
      } catch (error) {
        if (isNeedsSignIn(error)) throw this.signInFailedCall(session, name);
        throw this.callFailed(session, error, opts.timeoutMs, opts.signal, name);
      }
    });
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

  async getPrompt(name: string, args: Record<string, string>): Promise<GetPromptResult> {
    const session = this.readySession();
    try {
      return await session.client.getPrompt({ name, arguments: args }, { timeout: this.opts.requestTimeoutMs });
    } catch (error) {
      throw this.callFailed(session, error, this.opts.requestTimeoutMs, undefined, undefined, `prompt ${name}`);
    }
  }

  async readResource(uri: string): Promise<ReadResourceResult> {
    const session = this.readySession();
    try {
      return await session.client.readResource({ uri }, { timeout: this.opts.requestTimeoutMs });
    } catch (error) {
      throw this.callFailed(session, error, this.opts.requestTimeoutMs, undefined, undefined, `resource ${uri}`);
    }
  }

  private readySession(tool?: string): Session {
    if (this.state === 'ready' && this.session) return this.session;
    throw this.notReady(tool);
  }

  /** A call the server refused until the user signs in (expired and unrefreshable tokens, or more scopes wanted). */
  private signInFailedCall(session: Session, tool: string): UpstreamCallError {
    if (session === this.session) this.needsSignIn();
    return new UpstreamCallError('needs-sign-in', this.name, `sign in to ${this.name} first`, tool);
  }

  private notReady(tool?: string): UpstreamCallError {
    if (this.state === 'needs-sign-in') return new UpstreamCallError('needs-sign-in', this.name, `sign in to ${this.name} first`, tool);
    const why = this.state === 'error' ? `not ready (error: ${this.error ?? 'unknown'})` : `not ready (${this.state}${this.error ? `: ${this.error}` : ''})`;
    return new UpstreamCallError('not-ready', this.name, why, tool);
  }

  private callFailed(session: Session, error: unknown, timeoutMs: number, signal?: AbortSignal, tool?: string, what?: string): UpstreamCallError {
    let failure = classifyCallError(error, this.name, { timeoutMs, signal, tool, what, stderrLine: this.stderr.lastLine() });
    if (failure.kind === 'disconnected' && this.breach) failure = new UpstreamCallError('disconnected', this.name, this.breach, tool);
    // A timeout or a broken pipe may mean the server hung or died: check before the next caller finds out.
    if (failure.kind === 'timeout' || failure.kind === 'disconnected') void this.probe(session);
    return failure;
  }

  /** Pings a session that just failed a call; one that does not answer is killed and restarted. */
  private async probe(session: Session): Promise<void> {
    if (session !== this.session || session.closing) return;
    try {
      await session.client.ping({ timeout: Math.min(this.opts.requestTimeoutMs, 5000) });
    } catch {
      if (session !== this.session || session.closing) return;
      this.opts.log.warn(`[${this.name}] not answering; restarting`);
      // Callers arriving while the process is being killed must see why, not "not ready (ready)".
      this.error = 'not answering; restarting';
      this.setState('starting');
      await this.closeSession();
      this.scheduleRestart('server stopped answering', this.uptime());
    }
  }

  /** One connect attempt; on failure the state becomes 'error' with the reason. */
  private async connectOrFail(): Promise<void> {
    const gen = this.generation + 1; // the one connect() takes
    try {
      await this.connect();
    } catch (error) {
      // Stopped or restarted meanwhile (MCP Lens closing, a config change): not a failure.
      if (gen !== this.generation) return;
      if (isNeedsSignIn(error)) return this.needsSignIn();
      this.fail(this.breach ?? errorMessage(error));
    }
  }

  private async connect(): Promise<void> {
    const gen = ++this.generation;
    this.breach = undefined;
    this.setState('starting');
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
    const session = await openFirstSession(this.config, this.stderr, this.hooks, this.opts.connectTimeoutMs, this.auth);
    if (gen !== this.generation) return void (await closeSessionProcess(session));
    this.session = session;
    try {
      await this.lists.listAll(session);
    } catch (error) {
      await this.closeSession();
      if (isNeedsSignIn(error)) throw error;
      throw new Error(`listing failed: ${errorMessage(error)}`);
    }
    this.auth?.succeeded();
    if (gen !== this.generation) return;
    this.readyAt = Date.now();
    this.error = undefined;
    this.setState('ready');
    this.opts.log.info(`[${this.name}] ready: ${this.lists.tools.length} tools`);
  }

  private onListChanged(session: Session, kind: ListKind): void {
    if (session === this.session) this.lists.changed(kind);
  }

  private onSessionClosed(session: Session): void {
    if (session.closing || session !== this.session) return;
    this.session = undefined;
    const last = this.stderr.lastLine();
    const reason = this.breach ?? (this.config.type === 'stdio' ? `process exited${last ? `: ${last}` : ''}` : 'connection closed');
    this.opts.log.warn(`[${this.name}] ${reason}`);
    this.scheduleRestart(reason, this.uptime());
  }

  private uptime(): number {
    return this.readyAt === undefined ? 0 : Date.now() - this.readyAt;
  }

  private scheduleRestart(reason: string, uptimeMs: number): void {
    const delay = this.backoff.next(uptimeMs);
    if (delay === undefined) {
      this.fail(`${reason} (gave up after ${this.backoff.attempts} restart attempts)`);
      return;
    }
    this.error = `${reason}; restart ${this.backoff.attempts}/${this.opts.restart.maxAttempts} in ${delay} ms`;
    this.setState('starting');
    const gen = this.generation;
    this.restartTimer = setTimeout(() => void this.runRestart(gen), delay);
  }

  private async runRestart(gen: number): Promise<void> {
    if (gen !== this.generation) return;
    this.restarts++;
    try {
      await this.connect();
    } catch (error) {
      if (gen + 1 !== this.generation) return; // stopped or restarted meanwhile
      if (isNeedsSignIn(error)) return this.needsSignIn();
      this.opts.log.warn(`[${this.name}] restart failed: ${errorMessage(error)}`);
      this.scheduleRestart(errorMessage(error), 0);
    }
  }

  private fail(reason: string): void {
    this.error = reason;
    this.lists.clear();
    this.setState('error');
    this.opts.log.error(`[${this.name}] ${reason}`);
  }

  private setState(state: UpstreamState): void {
    this.state = state;
    if (state === 'ready') this.idle.arm();
    for (const waiter of [...this.stateWaiters]) waiter();
    this.opts.onChange('state');
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
