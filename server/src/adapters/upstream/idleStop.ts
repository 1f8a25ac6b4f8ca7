/**
 * Lazy startup's other half: a server left without calls for a while is stopped, and the next
 * call starts it again. A server with a call in progress, or not ready, is never stopped.
 */
import type { Logger } from '../../core/logger';

/** What an idle stop stops. */
export interface Stoppable {
  readonly isReady: boolean;
  stop(): Promise<void>;
}

export class IdleStop {
  private timeoutMs: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private activeCalls = 0;

  /** `name`: the server's, in the log line. */
  constructor(
    private readonly name: string,
    private readonly log: Logger,
    private readonly server: Stoppable,
  ) {}

  /** Stop after `ms` without a call; undefined turns that off. */
  set(ms: number | undefined): void {
    this.timeoutMs = ms;
    this.arm();
  }

  /** Starts the wait again (the server just became ready, or a call ended). */
  arm(): void {
    clearTimeout(this.timer);
    const ms = this.timeoutMs;
    if (ms === undefined || !this.server.isReady || this.activeCalls > 0) return;
    this.timer = setTimeout(() => {
      if (!this.server.isReady || this.activeCalls > 0) return;
      this.log.info(
        `[${this.name}] stopped after ${Math.round(ms / 60_000)} min without calls; the next call starts it again`,
      );
      void this.server.stop();
    }, ms);
    this.timer.unref();
  }

  /** Runs a call: the server is not stopped while it lasts. */
  async during<T>(call: () => Promise<T>): Promise<T> {
    this.activeCalls++;
    clearTimeout(this.timer);
    try {
      return await call();
    } finally {
      this.activeCalls--;
      this.arm();
    }
  }

  /** Whether a call is in progress. */
  get busy(): boolean {
    return this.activeCalls > 0;
  }

  cancel(): void {
    clearTimeout(this.timer);
  }
}
