/**
 * Co-occurrence within a session: how often tool b was called in a session that also called
 * tool a. A prediction averages P(b | a) = sessions(a, b) / sessions(a) over the distinct
 * tools the session has called so far.
 */
import { BoundedMap, bump, topPredictions } from './ranking';
import type { ObservedCall, PredictContext, Prediction, Predictor } from './types';

/** Sessions whose tool sets stay in memory to learn from further calls. */
const LIVE_SESSIONS = 5000;

export class CooccurrencePredictor implements Predictor {
  /**
   * @param prior pseudo-sessions added to every anchor's count: P(b | a) = n(a, b) / (n(a) + prior),
   *   so one lucky co-occurrence of a rarely used tool does not outweigh well-supported ones.
   */
  constructor(private readonly prior = 0) {}

  private readonly pairs = new Map<string, Map<string, number>>();
  private readonly sessionsOf = new Map<string, number>();
  private readonly sessionSets = new BoundedMap<string, Set<string>>(LIVE_SESSIONS);

  observe(calls: Iterable<ObservedCall>): void {
    for (const c of calls) {
      let set = this.sessionSets.get(c.sessionId);
      if (!set) this.sessionSets.set(c.sessionId, (set = new Set()));
      if (set.has(c.toolKey)) continue;
      for (const other of set) {
        bump(this.pairs, other, c.toolKey);
        bump(this.pairs, c.toolKey, other);
      }
      set.add(c.toolKey);
      this.sessionsOf.set(c.toolKey, (this.sessionsOf.get(c.toolKey) ?? 0) + 1);
    }
  }

  predict(context: PredictContext, k: number): Prediction[] {
    const { scores, bestSource } = this.conditional(context.sessionTools);
    return topPredictions(scores, k, (key) => `often used with ${bestSource.get(key) ?? "this session's tools"}`);
  }

  /** Mean P(b | a) over the session's distinct tools, and the `a` that contributed most to each b. */
  conditional(sessionTools: readonly string[]): { scores: Map<string, number>; bestSource: Map<string, string> } {
    const scores = new Map<string, number>();
    const best = new Map<string, { from: string; p: number }>();
    const distinct = [...new Set(sessionTools)];
    for (const a of distinct) {
      const row = this.pairs.get(a);
      const n = this.sessionsOf.get(a);
      if (!row || !n) continue;
      for (const [b, count] of row) {
        const p = count / (n + this.prior);
        scores.set(b, (scores.get(b) ?? 0) + p / distinct.length);
        const prev = best.get(b);
        if (!prev || p > prev.p) best.set(b, { from: a, p });
      }
    }
    return { scores, bestSource: new Map([...best].map(([b, v]) => [b, v.from])) };
  }

  reset(): void {
    this.pairs.clear();
    this.sessionsOf.clear();
    this.sessionSets.clear();
  }
}
