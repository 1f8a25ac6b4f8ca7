/**
 * The re-rank signals (stage 2 of rankingPipeline.ts), one line each; each signal is one file
 * under signals/. Adding a signal is its file and its line here: KeywordIndex applies every
 * signal exported here, and the tuner and the ablation read their knobs from the same list.
 */
export { actionAgreement } from './signals/actionAgreement';
export { deprecation } from './signals/deprecation';
export { literalSlots } from './signals/literalSlots';
export { nameCoverage } from './signals/nameCoverage';
export { productMention } from './signals/productMention';
export { queryCoverage } from './signals/queryCoverage';
