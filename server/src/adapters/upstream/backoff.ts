/**
 * Exponential restart backoff: initial, 2×, 4× … capped at max; after maxAttempts consecutive
 * failures it gives up. A connection that stayed up for the stable period starts over. The
 * tool index retries its embedder with the same delays (maxAttempts: Infinity).
 */
import type { RestartPolicy } from './types';

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
   * Records one unexpected exit or failed restart; returns the delay before the next attempt,
   * or undefined when the attempts are used up. `uptimeMs` is how long the connection was up.
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
