/**
 * First-order transitions (a Markov chain over tools): how often tool b was the very next call
 * after tool a in the same session. A prediction is P(next = b | last call = a).
 */
import { BoundedMap, bump, topPredictions } from './ranking';
import type { ObservedCall, PredictContext, Prediction, Predictor } from './types';

const LIVE_SESSIONS = 5000;

export class TransitionPredictor implements Predictor {
  /** @param prior pseudo-transitions added to every tool's count (shrinks thinly supported guesses). */
  constructor(private readonly prior = 0) {}

  private readonly next = new Map<string, Map<string, number>>();
  private readonly outOf = new Map<string, number>();
  private readonly lastCall = new BoundedMap<string, string>(LIVE_SESSIONS);

  observe(calls: Iterable<ObservedCall>): void {
    for (const c of calls) {
      const prev = this.lastCall.get(c.sessionId);
      if (prev !== undefined) {
        bump(this.next, prev, c.toolKey);
        this.outOf.set(prev, (this.outOf.get(prev) ?? 0) + 1);
      }
      this.lastCall.set(c.sessionId, c.toolKey);
    }
  }

  predict(context: PredictContext, k: number): Prediction[] {
    const last = context.sessionTools[context.sessionTools.length - 1];
    return topPredictions(this.after(last), k, () => `often used after ${last}`);
  }

  /** P(next = b | last = a) for every b seen after a. */
  after(last: string | undefined): Map<string, number> {
    const out = new Map<string, number>();
    if (last === undefined) return out;
    const row = this.next.get(last);
    const n = this.outOf.get(last);
    if (!row || !n) return out;
    for (const [b, count] of row) out.set(b, count / (n + this.prior));
    return out;
  }

  reset(): void {
    this.next.clear();
    this.outOf.clear();
    this.lastCall.clear();
  }
}
