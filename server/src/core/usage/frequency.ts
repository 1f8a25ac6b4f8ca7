/**
 * Frequency with time decay: each call adds 1 to its tool's score, and every score halves
 * every `halfLifeMs`. Scores are kept as (value, as-of time) and decayed lazily, so an
 * update is O(1) and a prediction O(tools).
 */
import { topPredictions } from './ranking';
import type { ObservedCall, PredictContext, Prediction, Predictor } from './types';

export const DEFAULT_HALF_LIFE_MS = 7 * 24 * 3600 * 1000;

export class FrequencyPredictor implements Predictor {
  private readonly scores = new Map<string, { value: number; at: number }>();

  constructor(private readonly halfLifeMs = DEFAULT_HALF_LIFE_MS) {}

  observe(calls: Iterable<ObservedCall>): void {
    for (const c of calls) {
      const s = this.scores.get(c.toolKey);
      if (!s) {
        this.scores.set(c.toolKey, { value: 1, at: c.at });
      } else if (c.at >= s.at) {
        s.value = this.decayed(s, c.at) + 1;
        s.at = c.at;
      } else {
        // An older call arriving late (replay out of order): add its decayed weight.
        s.value += Math.pow(2, -(s.at - c.at) / this.halfLifeMs);
      }
    }
  }

  predict(context: PredictContext, k: number): Prediction[] {
    const scores = this.shares(context.now);
    return topPredictions(scores, k, () => 'frequently used');
  }

  /** Each tool's share of the total decayed call weight at `now` (sums to 1). */
  shares(now: number): Map<string, number> {
    const out = new Map<string, number>();
    let total = 0;
    for (const [key, s] of this.scores) {
      const v = this.decayed(s, now);
      out.set(key, v);
      total += v;
    }
    if (total > 0) for (const [key, v] of out) out.set(key, v / total);
    return out;
  }

  reset(): void {
    this.scores.clear();
  }

  private decayed(s: { value: number; at: number }, now: number): number {
    // Calls "in the future" (clock skew) are not amplified.
    return now <= s.at ? s.value : s.value * Math.pow(2, -(now - s.at) / this.halfLifeMs);
  }
}
