/**
 * Exponential backoff: initial, 2×, 4× … capped at max; after maxAttempts consecutive
 * failures it gives up. Pure arithmetic, no timers: the upstream pool restarts a crashed
 * server with it, and the tool index retries its embedder with it (maxAttempts: Infinity).
 */

export interface RestartPolicy {
  /** First delay after a failure. */
  initialDelayMs: number;
  /** Cap of the doubling delay. */
  maxDelayMs: number;
  /** Consecutive failures before giving up (upstream: the server is left in state 'error'). */
  maxAttempts: number;
}

/** An upstream server that exits unexpectedly is restarted after 1, 2, 4 … 30 s, six times at most. */
export const DEFAULT_RESTART: RestartPolicy = { initialDelayMs: 1000, maxDelayMs: 30_000, maxAttempts: 6 };

export class Backoff {
  private failures = 0;

  constructor(
    private readonly policy: RestartPolicy,
    /** Uptime after which earlier failures are forgotten. */
    private readonly stableMs = Math.max(policy.maxDelayMs, 10_000),
  ) {}

  /** Consecutive attempts used so far. */
  get attempts(): number {
    return this.failures;
  }

  /**
   * Records one failure; returns the delay before the next attempt, or undefined when the
   * attempts are used up. `uptimeMs` is how long the thing was up (a connection's uptime).
   */
  next(uptimeMs = 0): number | undefined {
    if (uptimeMs >= this.stableMs) this.failures = 0;
    if (this.failures >= this.policy.maxAttempts) return undefined;
    // The exponent is bounded so endless retries (maxAttempts: Infinity) stay finite numbers.
    const delay = Math.min(this.policy.initialDelayMs * 2 ** Math.min(this.failures, 30), this.policy.maxDelayMs);
    this.failures++;
    return delay;
  }

  reset(): void {
    this.failures = 0;
  }
}
