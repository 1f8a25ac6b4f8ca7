/**
 * Stage 2 of the ranking (rankingPipeline.ts): a re-rank signal. Each is one object in one file
 * under signals/, listed in rerankSignals.ts, and owns everything about itself:
 * - its knobs: name in keywordWeights.json, the values the tuner tries, the value that switches
 *   it off (also its value when keywordWeights.json does not have it);
 * - its tool-side profile, made once per catalog (KeywordIndex.setTools); what it derives from
 *   each tool it may derive when a search first has the tool as a candidate (perDocument.ts);
 * - its query-side analysis, once per search, over the request and the BM25F candidates;
 * - its factor: each candidate's BM25F score is multiplied by every signal's factor.
 * The tuner (bench/src/tuneKeyword.ts) and the ablation (bench/src/ablation.ts) read the knobs from the
 * list; nothing else names a signal.
 */
import type { AnalysedRequest, CatalogView } from './candidates';
import type { Knob } from './knob';

export interface SignalKnob<K extends string> extends Knob {
  readonly name: K;
  readonly grid: readonly number[];
  readonly off: { readonly value: number; readonly ablation: string };
}

export interface RerankSignal<K extends string = string> {
  /** What it weighs ("action agreement"). */
  readonly name: string;
  readonly knobs: readonly SignalKnob<K>[];
  /**
   * Tool side, once per catalog: the signal bound to this catalog and these knob values. It
   * copies out of `catalog` what its analysis needs; the view is emptied once every profile
   * is made.
   */
  profile(catalog: CatalogView, knobs: Readonly<Record<K, number>>): SignalProfile;
}

export interface SignalProfile {
  /**
   * Query side, once per search: each candidate's score multiplier, or undefined when the
   * signal has nothing to say about this request (every factor 1). `candidates` are document
   * numbers, best BM25F score first.
   */
  analyse(request: AnalysedRequest, candidates: readonly number[]): ((doc: number) => number) | undefined;
}

/** The profile of a signal that is switched off, or has nothing to weigh in this catalog. */
export const SAYS_NOTHING: SignalProfile = { analyse: () => undefined };

/** Declares a signal, keeping its knob names as types (KeywordConfig's signal keys are made of them). */
export function rerankSignal<K extends string>(signal: RerankSignal<K>): RerankSignal<K> {
  return signal;
}
