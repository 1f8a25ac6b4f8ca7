/**
 * What one connection shows — its state, the reason beside it, since when it is ready — and
 * what callers wait on: whenReady settles once the server is ready, once it cannot become ready
 * without someone acting (in error, stopped, waiting for a sign-in), at the caller's deadline or
 * when its signal aborts. Every change is announced: the status is part of what the user sees.
 */
import type { Session } from './session';
import { UpstreamCallError, type UpstreamState } from './types';

/** States a server leaves only when someone acts: a restart, a sign-in, a call that starts it. */
const STUCK: ReadonlySet<UpstreamState> = new Set(['error', 'stopped', 'needs-sign-in']);

/** Who hears of the state: the connection that owns it. */
export interface StateOwner {
  /** Starts a stopped server for the first caller that waits for it (lazy start, idle stop). */
  start(): void;
  /** After every change. */
  stateChanged(state: UpstreamState): void;
}

export class ConnectionState {
  current: UpstreamState = 'stopped';
  /** The reason shown beside the state (an error, why it is restarting); kept until replaced. */
  error: string | undefined;
  readyAt: number | undefined;
  private readonly waiters = new Set<() => void>();

  /** `slot`: the connection's session; the server is ready only with one. */
  constructor(
    private readonly name: string,
    private readonly slot: { readonly current: Session | undefined },
    private readonly owner: StateOwner,
  ) {}

  get ready(): boolean {
    return this.current === 'ready' && this.slot.current !== undefined;
  }

  /** The session while the server is ready. */
  session(): Session | undefined {
    return this.ready ? this.slot.current : undefined;
  }

  /** The session while the server is ready; else the not-ready error naming why. */
  readySession(tool?: string): Session {
    const session = this.session();
    if (session) return session;
    throw this.notReady(tool);
  }

  /** How long the server has been up, 0 before it ever was (failures after a long run count as the first). */
  uptime(): number {
    return this.readyAt === undefined ? 0 : Date.now() - this.readyAt;
  }

  /** A new state; the reason beside it stays. */
  set(state: UpstreamState): void {
    this.current = state;
    if (state === 'ready') this.readyAt = Date.now();
    for (const waiter of [...this.waiters]) waiter();
    this.owner.stateChanged(state);
  }

  /** A new state with its reason (undefined: none). */
  show(state: UpstreamState, reason: string | undefined): void {
    this.error = reason;
    this.set(state);
  }

  /**
   * Resolves once the server is ready: at once when it is, after the start in progress, or
   * after starting it when it is stopped. Rejects with a not-ready error naming the reason when
   * the start fails, the server is in error, `timeoutMs` passes or `signal` aborts.
   */
  whenReady(timeoutMs: number, signal: AbortSignal | undefined, tool: string | undefined): Promise<void> {
    if (this.ready) return Promise.resolve();
    if (this.current === 'error' || this.current === 'needs-sign-in') return Promise.reject(this.notReady(tool));
    if (this.current === 'stopped') this.owner.start();
    const { name } = this;
    return new Promise<void>((resolve, reject) => {
      const finish = (error?: Error) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        signal?.removeEventListener('abort', aborted);
        if (error) reject(error);
        else resolve();
      };
      const check = () => {
        if (this.ready) finish();
        else if (STUCK.has(this.current)) finish(this.notReady(tool));
      };
      const aborted = () =>
        finish(new UpstreamCallError('cancelled', name, 'cancelled while the server was starting', tool));
      const late = () => `did not start within ${Math.round(timeoutMs / 1000)} s (${this.error ?? 'still starting'})`;
      const timer = setTimeout(() => finish(new UpstreamCallError('not-ready', name, late(), tool)), timeoutMs);
      timer.unref();
      this.waiters.add(check);
      if (signal?.aborted) return aborted();
      signal?.addEventListener('abort', aborted, { once: true });
    });
  }

  /** The error a call gets while the server is not ready, naming why. */
  notReady(tool?: string): UpstreamCallError {
    const { name } = this;
    if (this.current === 'needs-sign-in')
      return new UpstreamCallError('needs-sign-in', name, `sign in to ${name} first`, tool);
    const why =
      this.current === 'error'
        ? `not ready (error: ${this.error ?? 'unknown'})`
        : `not ready (${this.current}${this.error ? `: ${this.error}` : ''})`;
    return new UpstreamCallError('not-ready', name, why, tool);
  }
}
