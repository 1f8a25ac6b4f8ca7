/**
 * The combiner: a weighted sum of the strategies' scores (each is a probability-like share in
 * 0..1, so they add up meaningfully). The reason shown is the one of the strategy that
 * contributed most to that tool, session-specific strategies before generic ones.
 */
import { CooccurrencePredictor } from './cooccurrence';
import { DEFAULT_HALF_LIFE_MS, FrequencyPredictor } from './frequency';
import { ServerAffinityPredictor } from './serverAffinity';
import { TransitionPredictor } from './transitions';
import type { ObservedCall, PredictContext, Prediction, Predictor } from './types';

export interface WeightedPredictor {
  predictor: Predictor;
  weight: number;
  /**
   * A context-free strategy (frequency): its reason is shown only when no strategy that looked
   * at the session contributed, since "often used after X" tells the user more.
   */
  generic?: boolean;
}

/** How deep each strategy is asked before the sums are ranked. */
const MIN_DEPTH = 50;

export class CombinedPredictor implements Predictor {
  constructor(private readonly parts: readonly WeightedPredictor[]) {}

  observe(calls: Iterable<ObservedCall>): void {
    const list = Array.isArray(calls) ? (calls as ObservedCall[]) : [...calls];
    for (const p of this.parts) p.predictor.observe(list);
  }

  predict(context: PredictContext, k: number): Prediction[] {
    if (k <= 0) return [];
    const depth = Math.max(MIN_DEPTH, k * 4);
    const sums = new Map<string, { score: number; best: number; specific: boolean; reason: string }>();
    for (const { predictor, weight, generic } of this.parts) {
      if (weight <= 0) continue;
      const specific = !generic;
      for (const p of predictor.predict(context, depth)) {
        const part = p.score * weight;
        const s = sums.get(p.key);
        if (!s) sums.set(p.key, { score: part, best: part, specific, reason: p.reason });
        else {
          s.score += part;
          // A session-specific reason beats a generic one whatever their sizes.
          const better = specific !== s.specific ? specific : part > s.best;
          if (better) Object.assign(s, { best: part, specific, reason: p.reason });
        }
      }
    }
    const ranked = [...sums].sort((a, b) => b[1].score - a[1].score || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return ranked.slice(0, k).map(([key, s]) => ({ key, score: s.score, reason: s.reason }));
  }

  reset(): void {
    for (const p of this.parts) p.predictor.reset();
  }
}

/**
 * Weights of the default combination, chosen with bench/src/predict.ts (`mcp-lens bench --all
 * --predict`; bench-results.md): frequency 2 / co-occurrence 1 / server affinity 0.5 gave the
 * best hit@5 on both toolbench and metatool, and the prior made no difference. Transitions cost
 * a little hit@5 on metatool, but those datasets carry no real call order (their gold lists are
 * unordered), so the one strategy that needs order cannot show its worth there; it keeps a
 * small weight for real sessions, where "b follows a" is the strongest signal there is.
 */
export interface PredictorWeights {
  frequency: number;
  cooccurrence: number;
  transitions: number;
  serverAffinity: number;
  /** Pseudo-counts shrinking co-occurrence and transition estimates of rarely seen tools. */
  prior: number;
}

export const DEFAULT_WEIGHTS: PredictorWeights = {
  frequency: 2,
  cooccurrence: 1,
  transitions: 0.25,
  serverAffinity: 0.5,
  prior: 1,
};

/** The combination the tracker uses. */
export function defaultPredictor(
  weights: PredictorWeights = DEFAULT_WEIGHTS,
  halfLifeMs = DEFAULT_HALF_LIFE_MS,
): CombinedPredictor {
  return new CombinedPredictor([
    { predictor: new FrequencyPredictor(halfLifeMs), weight: weights.frequency, generic: true },
    { predictor: new CooccurrencePredictor(weights.prior), weight: weights.cooccurrence },
    { predictor: new TransitionPredictor(weights.prior), weight: weights.transitions },
    { predictor: new ServerAffinityPredictor(), weight: weights.serverAffinity },
  ]);
}
