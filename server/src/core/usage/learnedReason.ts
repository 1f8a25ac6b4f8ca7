/**
 * What a hit's `why` says about search learning: one clause, "learned: …". The learned field and
 * the vote (learnedRanking.ts) both re-score a hit; the clause is written once, by the bound that
 * follows them (learnedLimits.ts), and replaces any learned clause the hit already carries, so a
 * result says it once whichever readings moved it. Pure.
 */
import type { RankedTool } from '../search/types';

const PREFIX = 'learned: ';

/** `hit` with `score`, the usage signal, and `reason` ("learned: …") as its only learned clause. */
export function withLearnedReason(hit: RankedTool, score: number, reason: string): RankedTool {
  const kept = hit.why ? hit.why.split('; ').filter((clause) => clause && !clause.startsWith(PREFIX)) : [];
  return {
    ...hit,
    score,
    signals: hit.signals.includes('usage') ? hit.signals : [...hit.signals, 'usage'],
    why: [...kept, `${PREFIX}${reason}`].join('; '),
  };
}
