/**
 * What a hit's `why` says about search learning: one clause, "learned: …". The learned field and
 * the vote (learnedRanking.ts) both re-score a hit; each saying so gave "learned: past requests
 * with these words led here; learned: 1 past request with these words led here". The later
 * reading replaces the earlier's clause: the result says it once. Pure.
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
