/**
 * One upstream server: connects (with a deadline), lists what it offers, follows its
 * list_changed notifications, restarts it with backoff when it exits or stops answering, and
 * kills its process on stop. State and failures are values read through status().
 */
import { CallToolResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ServerConfig } from '../../core/config/types';
import type { Logger } from '../../core/logger';
import { Backoff, type RestartPolicy } from '../../core/backoff';
import { classifyCallError } from './callErrors';
import { ListRefresh } from './listRefresh';
import { listAgain, listEverything, type UpstreamLists } from './listing';
import { InFlightCalls, outsideCalls } from './inFlightCalls';
import { UPSTREAM_CLIENT_CAPABILITIES, UpstreamFollowUps } from './followUps';
import { SessionRequests } from './sessionRequests';
import { StderrTail } from './stderrTail';
import { closeSessionProcess, openSession, type ListKind, type Session, type SessionHooks } from './session';
import { describeSpawnError, transportCandidates } from './transports';
import { OversizedMessageError } from './stdioReader';
import {
  UpstreamCallError,
  type CallToolOptions,
  type UpstreamPrompt,
  type UpstreamInbound,
  type UpstreamResource,
  type UpstreamResourceTemplate,
  type UpstreamState,
  type UpstreamStatus,
  type UpstreamTool,
} from './types';
import { errorMessage } from '../../core/errorMessage';

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
  onChange(kind: 'state' | ListKind): void;
  /** Where requests and notifications the server sends unasked go (see UpstreamPoolOptions.inbound). */
  inbound?: UpstreamInbound;
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
  private lists: UpstreamLists = { tools: [], prompts: [], resources: [], templates: [] };
  /** Our calls in flight, for attributing what the server asks back (inFlightCalls.ts). */
  private readonly calls = new InFlightCalls();
  /** Prompts, resources, completions, subscriptions, log level and roots (sessionRequests.ts). */
  readonly requests: SessionRequests;
  private readonly backoff: Backoff;
  private readonly refresh: Record<ListKind, ListRefresh>;
  private restartTimer: NodeJS.Timeout | undefined;
  /** Bumped by every connect and stop; a stale attempt sees it changed and backs out. */
  private generation = 0;
  private settled: Promise<void> = Promise.resolve();
  private readonly hooks: SessionHooks;
  /** Callers of whenReady(), told on every state change. */
  private readonly stateWaiters = new Set<() => void>();
  /** Stop after this long without a call (lazy start); undefined: never. */
  private idleTimeoutMs: number | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private activeCalls = 0;
  /** A session to replace once no call is in flight on it (its server-to-client stream is lost). */
  private renewing: Session | undefined;

  constructor(
    readonly config: ServerConfig,
    private readonly opts: ConnectionOptions,
  ) {
    this.backoff = new Backoff(opts.restart);
    this.requests = new SessionRequests(
      {
        requestTimeoutMs: opts.requestTimeoutMs,
        ready: () => this.readySession(),
        current: () => (this.isReady ? this.session : undefined),
        failed: (session, error, what) => this.callFailed(session, error, opts.requestTimeoutMs, undefined, undefined, what),
      },
      new UpstreamFollowUps(config.name, opts.requestTimeoutMs, opts.log),
    );
    const inbound = opts.inbound;
    this.hooks = {
      server: config.name,
      log: opts.log,
      clientInfo: this.opts.clientInfo,
      capabilities: inbound ? UPSTREAM_CLIENT_CAPABILITIES : {},
      ...(inbound && {
        onServerRequest: (request, signal) => inbound.request(this.name, request.method, request.params, this.calls.attribute(), signal),
        onServerNotification: (n) => inbound.notification(this.name, n.method, n.params, this.calls.attribute()),
      }),
      onCreated: (session) => void (this.opening = session),
      onSettled: (session) => void (this.opening === session && (this.opening = undefined)),
      onSpawned: () => this.opts.onChange('state'), // the status now shows the pid
      onClosed: (session) => this.onSessionClosed(session),
      onListChanged: (session, kind) => this.onListChanged(session, kind),
      onTransportError: (error) => this.onTransportError(error),
      onStreamLost: (session) => this.renewWhenIdle(session),
    };
    const delay = opts.listChangedDelayMs ?? 100;
    this.refresh = {
      tools: new ListRefresh(delay, () => this.relist('tools')),
      prompts: new ListRefresh(delay, () => this.relist('prompts')),
      resources: new ListRefresh(delay, () => this.relist('resources')),
    };
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
    if (this.state === 'error') return Promise.reject(this.notReady(tool));
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
        else if (this.state === 'error' || this.state === 'stopped') finish(this.notReady(tool));
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
    this.idleTimeoutMs = ms;
    this.armIdle();
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
    clearTimeout(this.restartTimer);
    clearTimeout(this.idleTimer);
    for (const r of Object.values(this.refresh)) r.cancel();
    await this.closeSession();
    this.clearLists();
    this.error = undefined;
    this.setState('stopped');
  }

  /** Stops an idle server; the next call starts it again. */
  private armIdle(): void {
    clearTimeout(this.idleTimer);
    if (this.idleTimeoutMs === undefined || this.state !== 'ready' || this.activeCalls > 0) return;
    this.idleTimer = setTimeout(() => {
      if (this.state !== 'ready' || this.activeCalls > 0) return;
      this.opts.log.info(`[${this.name}] stopped after ${Math.round(this.idleTimeoutMs! / 60_000)} min without calls; the next call starts it again`);
      void this.stop();
    }, this.idleTimeoutMs);
    this.idleTimer.unref();
  }

  /** Manual restart: kills the current process, forgets earlier failures, connects again. */
  async restart(): Promise<void> {
    this.generation++;
    clearTimeout(this.restartTimer);
    await this.closeSession();
    this.backoff.reset();
    this.restarts++;
    await this.connectOrFail();
  }

  async callTool(name: string, args: Record<string, unknown>, opts: CallToolOptions): Promise<CallToolResult> {
    const session = this.readySession(name);
    this.activeCalls++;
    clearTimeout(this.idleTimer);
    try {
      return await this.calls.track(opts.caller, () =>
        session.client.request({ method: 'tools/call', params: { name, arguments: args } }, CallToolResultSchema, {
          timeout: opts.timeoutMs,
          ...(opts.signal && { signal: opts.signal }),
          ...(opts.onProgress && { onprogress: opts.onProgress, resetTimeoutOnProgress: true }),
        }),
      );
    } catch (error) {
      throw this.callFailed(session, error, opts.timeoutMs, opts.signal, name);
    } finally {
      this.activeCalls--;
      this.armIdle();
      if (this.renewing && this.activeCalls === 0) this.renewWhenIdle(this.renewing);
    }
  }

  /**
   * A new session in place of one whose server-to-client stream the server refuses for good:
   * without it, sampling, elicitation, logs and list changes sent outside a call are lost.
   * Waits for the calls in flight on it, which would otherwise fail.
   */
  private renewWhenIdle(session: Session): void {
    if (session !== this.session || session.closing) return void (this.renewing = undefined);
    if (this.activeCalls > 0) return void (this.renewing = session);
    this.renewing = undefined;
    this.opts.log.warn(`[${this.name}] the server no longer opens its server-to-client stream to this session; starting a new one`);
    void this.restart();
  }

  /**
   * Garbage on stdout is noise; a message over the size limit is worth a warning (the transport
   * already failed the call it answered, with the reason, and the connection stays up).
   */
  private onTransportError(error: Error): void {
    if (error instanceof OversizedMessageError) return this.opts.log.warn(`[${this.name}] ${error.message}`);
    this.opts.log.debug(`[${this.name}] transport: ${errorMessage(error)}`);
  }

  private readySession(tool?: string): Session {
    if (this.state === 'ready' && this.session) return this.session;
    throw this.notReady(tool);
  }

  private notReady(tool?: string): UpstreamCallError {
    const why = this.state === 'error' ? `not ready (error: ${this.error ?? 'unknown'})` : `not ready (${this.state}${this.error ? `: ${this.error}` : ''})`;
    return new UpstreamCallError('not-ready', this.name, why, tool);
  }

  private callFailed(session: Session, error: unknown, timeoutMs: number, signal?: AbortSignal, tool?: string, what?: string): UpstreamCallError {
    const failure = classifyCallError(error, this.name, { timeoutMs, signal, tool, what, stderrLine: this.stderr.lastLine() });
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
      this.fail(errorMessage(error));
    }
  }

  /** Never inside a call's context, whoever triggered it (a lazy start, a failed call's probe): see inFlightCalls.ts. */
  private connect(): Promise<void> {
    return outsideCalls(() => this.connectNow());
  }

  private async connectNow(): Promise<void> {
    const gen = ++this.generation;
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
    const deadline = Date.now() + this.opts.connectTimeoutMs;
    const failures: string[] = [];
    this.stderr.clear(); // the tail belongs to the process about to start
    let session: Session | undefined;
    const candidates = transportCandidates(this.config, this.stderr);
    for (const candidate of candidates) {
      try {
        session = await openSession(candidate, deadline - Date.now(), this.hooks, this.opts.connectTimeoutMs);
        break;
      } catch (error) {
        const reason = describeSpawnError(this.config, error) ?? errorMessage(error);
        failures.push(candidates.length > 1 ? `${candidate.label}: ${reason}` : reason);
        if (Date.now() >= deadline || describeSpawnError(this.config, error)) break;
      }
    }
    if (!session) {
      // A process that died while starting usually said why on stderr: that is the useful part.
      const last = this.stderr.lastLine();
      throw new Error(failures.join('; ') + (last && this.config.type === 'stdio' ? ` (stderr: ${last})` : ''));
    }
    if (gen !== this.generation) return void (await closeSessionProcess(session));
    this.session = session;
    try {
      await this.listAll(session);
    } catch (error) {
      await this.closeSession();
      throw new Error(`listing failed: ${errorMessage(error)}`);
    }
    if (gen !== this.generation) return;
    this.readyAt = Date.now();
    this.error = undefined;
    this.setState('ready');
    this.opts.log.info(`[${this.name}] ready: ${this.lists.tools.length} tools`);
    this.requests.followUps.afterConnect(session.client);
  }

  private onListChanged(session: Session, kind: ListKind): void {
    if (session === this.session) this.refresh[kind].request();
  }

  private onSessionClosed(session: Session): void {
    if (session.closing || session !== this.session) return;
    this.session = undefined;
    const last = this.stderr.lastLine();
    const reason = this.config.type === 'stdio' ? `process exited${last ? `: ${last}` : ''}` : 'connection closed';
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
      this.opts.log.warn(`[${this.name}] restart failed: ${errorMessage(error)}`);
      this.scheduleRestart(errorMessage(error), 0);
    }
  }

  private fail(reason: string): void {
    this.error = reason;
    this.clearLists();
    this.setState('error');
    this.opts.log.error(`[${this.name}] ${reason}`);
  }

  private async listAll(session: Session): Promise<void> {
    // The first listing is part of connecting: a server that never answers tools/list must not
    // hold up startup (and every caller waiting for it) longer than the connect timeout.
    const t = Math.min(this.opts.requestTimeoutMs, this.opts.connectTimeoutMs);
    this.apply(await listEverything(session.client, this.name, t, this.opts.log));
  }

  private async relist(kind: ListKind): Promise<void> {
    const session = this.session;
    if (!session || this.state !== 'ready') return;
    try {
      const lists = await listAgain(session.client, this.name, kind, this.opts.requestTimeoutMs, this.opts.log);
      if (session === this.session) this.apply(lists);
    } catch (error) {
      this.opts.log.warn(`[${this.name}] re-listing ${kind} failed: ${errorMessage(error)}`);
    }
  }

  /** Takes new lists and announces each kind that changed (templates change with resources). */
  private apply(lists: Partial<UpstreamLists>): void {
    const changed = new Set<ListKind>();
    for (const key of Object.keys(lists) as (keyof UpstreamLists)[]) {
      if (JSON.stringify(lists[key]) === JSON.stringify(this.lists[key])) continue;
      (this.lists as Record<keyof UpstreamLists, unknown>)[key] = lists[key];
      changed.add(key === 'templates' ? 'resources' : key);
    }
    for (const kind of changed) this.opts.onChange(kind);
  }

  private clearLists(): void {
    this.apply({ tools: [], prompts: [], resources: [], templates: [] });
  }

  private setState(state: UpstreamState): void {
    this.state = state;
    if (state === 'ready') this.armIdle();
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
