/**
 * Coalesces list_changed notifications: the first one schedules a re-list after a short
 * delay, later ones while scheduled are absorbed, and ones that arrive during a re-list cause
 * exactly one more afterwards. A storm of 100 notifications per second costs a handful of
 * re-lists, never 100, and never starves (unlike a pure trailing debounce).
 */
export class ListRefresh {
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private dirty = false;

  constructor(
    private readonly delayMs: number,
    private readonly run: () => Promise<void>,
  ) {}

  request(): void {
    if (this.running) {
      this.dirty = true;
      return;
    }
    if (this.timer) return;
    this.timer = setTimeout(() => void this.fire(), this.delayMs);
  }

  /** Drops a scheduled re-list (the session it was for is gone); later requests work again. */
  cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.dirty = false;
  }

  private async fire(): Promise<void> {
    this.timer = undefined;
    this.running = true;
    try {
      await this.run();
    } finally {
      this.running = false;
      if (this.dirty) {
        this.dirty = false;
        this.request();
      }
    }
  }
}
