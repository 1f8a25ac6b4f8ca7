/**
 * The sleep of the index's background embedding loop between retries, which ends early when
 * woken (a pull finished, new tools arrived, the index closes).
 */
export class WakeableSleep {
  private wake: (() => void) | undefined;

  /** Resolves after `ms`, or at once when `wakeUp()` is called. */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        if (this.wake === done) this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
    });
  }

  wakeUp(): void {
    this.wake?.();
  }
}
