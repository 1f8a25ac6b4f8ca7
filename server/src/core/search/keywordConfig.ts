/**
 * The keyword ranking's parameters: the candidate stage's (BM25F and the request's terms,
 * candidates.ts) typed here, and each re-rank signal's knobs, which the signal declares
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
import type { FieldConfig } from './bm25f';
import keywordWeights from './keywordWeights.json';
import type * as signalFiles from './rerankSignals';

export type Stemmer = 'porter2' | 'light' | 'none';

/** The candidate stage's parameters (candidates.ts; its knobs: CANDIDATE_KNOBS). */
export interface CandidateConfig {
  fields: FieldConfig;
  k1: number;
  /** Stemming of document and query words: Porter2, a light plural/-ing/-ed stemmer, or none. */
  stem: Stemmer;
  /** Weight of synonym expansions relative to a typed query word; 0 = off. */
  synonyms: number;
  /** Weight of adjacent-word pairs (phrase evidence); 0 = off. */
  bigrams: number;
  /** Weight of the unstemmed word as its own term (exact wording beats a shared stem); 0 = off. */
  exact: number;
  /** Drop request-phrasing words (want, need, help, provide…) from queries. */
  fillerWords: boolean;
  /** Weight of the words of literal values (URLs, paths, selectors, ids, quoted text) in a request; 1 = as any word. */
  literal: number;
  /** Servers with more tools than this lend their tools no sibling context (the context field). */
  contextMaxTools: number;
  /** Weight of the other words of the action the request leads with (actions.ts); 0 = off. */
  actionSynonyms: number;
  /** Weight of a request's generated id (tt1234567) as its shape (tt#), matched to id examples a tool documents; 0 = off (the default when absent). */
  shapes?: number;
  /** Query-term frequency saturation (BM25's k3): a word the query repeats weighs more; 0 = each word once. */
  queryK3: number;
  /**
   * How many words after a negation in a description ("without reading the content", "use X
   * instead") are left out of the tool's words (negationScope.ts); 0 = off (the default when absent).
   */
  negation?: number;
}

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

export type KnobValue = number | string | boolean;

/**
 * One tunable parameter of the ranking, declared by the step that reads it (CANDIDATE_KNOBS in
 * candidates.ts, each re-rank signal's `knobs`): the tuner tries its grid, the ablation switches
 * it off.
 */
export interface Knob {
  /** Where it is in KeywordConfig and keywordWeights.json; a dotted path for nested ones (`fields.name.weight`). */
  readonly name: string;
  /** The values the tuner tries; none: not tuned. */
  readonly grid?: readonly number[];
  /** The value that switches its step off, and the step as the ablation names it ("action agreement"); none: no ablation row. */
  readonly off?: { readonly value: KnobValue; readonly ablation: string };
}

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
