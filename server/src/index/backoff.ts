/**
 * The retry policy of the index's background embedding loop (the delays themselves come from
 * the upstream `Backoff`), and its sleep that ends early when woken (a pull finished, new
 * tools arrived, the index closes).
 */
export interface BackoffPolicy {
  initialMs: number;
  /** Ollama down for long is retried about once a minute. */
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { initialMs: 1_000, maxMs: 60_000 };

export class WakeableSleep {
  private wake: (() => void) | undefined;

  /** Resolves after `ms`, or at once when `wakeUp()` is called. */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      const self = this;
      function done() {
        clearTimeout(timer);
        if (self.wake === done) self.wake = undefined;
        resolve();
      }
      this.wake = done;
    });
  }

  wakeUp(): void {
    this.wake?.();
  }
}
