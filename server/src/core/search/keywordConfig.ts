/**
 * The keyword ranking's parameters: the candidate stage's (BM25F and the request's terms,
 * candidates.ts; typed in candidateConfig.ts), and each re-rank signal's knobs, which the signal declares
 * itself (signals/, listed in rerankSignals.ts). Numbers are learned, not hand-set: bench/src/tuneKeyword.ts
 * runs coordinate ascent over every knob (rankingPipeline.ts's RANKING_KNOBS) on the *dev*
 * halves of mcp-servers, workspace-19, toolbench and metatool (benchSplit.ts), keeps a move
 * only when the mean objective rises and no set falls by more than 0.002, and writes
 * keywordWeights.json. What each step is worth — the shipped configuration with each knob
 * switched off — is the ablation section of bench-results.md, written by
 * `node --import tsx bench/src/ablation.ts --write bench-results.md`.
 *
 * What was tried and not kept, with its figures, is in bench-results.md ("Keyword ranking:
 * tried and not kept"), so that it is not tried again blindly.
 */
import type { CandidateConfig } from './candidateConfig';
import type { Knob, KnobValue } from './knob';
import keywordWeights from './keywordWeights.json';
import type * as signalFiles from './rerankSignals';

/** A re-rank signal's knob, by name (each signal declares its own). */
export type SignalKnobName = (typeof signalFiles)[keyof typeof signalFiles]['knobs'][number]['name'];

/** Every parameter of the keyword ranking; a signal knob left out is off (its `off` value: a new signal ships off until tuned). */
export type KeywordConfig = CandidateConfig & Partial<Record<SignalKnobName, number>>;

/**
 * The shipped parameters: learned by bench/src/tuneKeyword.ts (coordinate ascent on the
 * dev halves of bench/datasets, every set held to its level) and written to
 * keywordWeights.json. Edit by re-running the tuner, not by hand.
 */
export const DEFAULT_KEYWORD_CONFIG: KeywordConfig = keywordWeights as KeywordConfig;

/** A knob's value in `config`; a knob left out is off. */
export function knobValue(config: KeywordConfig, knob: Knob): KnobValue | undefined {
  let v: unknown = config;
  for (const k of knob.name.split('.')) v = (v as Record<string, unknown> | undefined)?.[k];
  return v === undefined ? knob.off?.value : (v as KnobValue);
}

/** A copy of `config` with one knob set. */
export function withKnob(config: KeywordConfig, knob: Knob, value: KnobValue): KeywordConfig {
  const copy = structuredClone(config);
  const path = knob.name.split('.');
  let o = copy as unknown as Record<string, unknown>;
  for (const k of path.slice(0, -1)) o = o[k] as Record<string, unknown>;
  o[path[path.length - 1]!] = value;
  return copy;
}
