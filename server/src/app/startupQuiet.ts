/**
 * When work no one has asked for may run. While servers start (twenty processes spawning on a
 * two-core machine), every millisecond of the gateway's CPU delays them: indexing each
 * intermediate catalog, counting its tokens, writing the catalog cache. Such work waits here
 * until no server is starting and runs once, on the catalog as it is then. Work someone asks
 * for (a search syncs the index at once) does not wait. The wait is bounded: a server that
 * hangs while starting holds nothing for longer than `maxWaitMs` after the servers began
 * starting; past that, until every server has settled, nothing waits.
 * (What a cold start spent on such work before it waited: bench-results.md, "Start-up work".)
 */
import type { Disposable } from './lens';

/** How long deferred work waits at most after servers began starting. */
export const QUIET_WAIT_MAX_MS = 15_000;

export interface StartupQuietOptions {
  /** Whether some server is starting now. */
  starting(): boolean;
  /** Called on every change that may end a start (the pool's changes). */
  onChange(listener: () => void): Disposable;
  maxWaitMs?: number;
}

export class StartupQuiet {
  private readonly waiters: (() => void)[] = [];
  /** The bound of the current start-up storm has passed: nothing waits until it is over. */
  private overdue = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly subscription: Disposable;
  private disposed = false;

  constructor(private readonly o: StartupQuietOptions) {
    this.subscription = o.onChange(() => this.check());
  }

  /** True when deferred work may run now. */
  get quiet(): boolean {
    if (this.disposed || !this.o.starting()) {
      this.overdue = false;
      return true;
    }
    return this.overdue;
  }

  /** Resolves at once when no server is starting, else once none is or the bound has passed. */
  whenQuiet(): Promise<void> {
    if (this.quiet) return Promise.resolve();
    // The bound counts from the first wait of this storm: deferred work is asked for as it begins.
    // Not unref'd: a server starting keeps the process alive anyway, and close() clears it.
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.overdue = true;
      this.release();
    }, this.o.maxWaitMs ?? QUIET_WAIT_MAX_MS);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Releases every waiter (the app is closing: each checks for itself whether to run). */
  dispose(): void {
    this.disposed = true;
    this.subscription.dispose();
    this.release();
  }

  private check(): void {
    // Only a wait needs to hear the storm end; `quiet` looks for itself.
    if (this.waiters.length === 0 || this.o.starting()) return;
    // The storm is over: the next one has its own bound.
    this.overdue = false;
    this.release();
  }

  private release(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    for (const resolve of this.waiters.splice(0)) resolve();
  }
}
