/**
 * How many sidecar crashes are tolerated: at most `max` within a sliding window. Pure, so the
 * restart policy is unit-tested without VS Code.
 */
export class CrashBudget {
  private times: number[] = [];

  constructor(
    readonly max: number,
    readonly windowMs: number,
  ) {}

  /** Crashes counted in the current window. */
  get count(): number {
    return this.times.length;
  }

  get windowMinutes(): number {
    return Math.round(this.windowMs / 60_000);
  }

  /** Records a crash at `now`; true while the sidecar may still be restarted. */
  record(now: number): boolean {
    this.times = this.times.filter((t) => now - t < this.windowMs);
    this.times.push(now);
    return this.times.length <= this.max;
  }

  reset(): void {
    this.times = [];
  }
}
