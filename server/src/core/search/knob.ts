/** The ranking's tunable parameters as the steps declare them; keywordConfig.ts reads and sets them in a config. */
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
