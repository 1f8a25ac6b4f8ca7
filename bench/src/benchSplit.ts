/**
 * The dev / held-out split of every retrieval set: a request is held out when the FNV-1a hash
 * of its id is odd. Ranking parameters are chosen on the dev half only (tuneKeyword.ts);
 * `mcp-lens bench` reports both halves, so a gain that does not carry over shows.
 */
import type { BenchQuery } from './dataset';

export function isHeldOut(q: BenchQuery): boolean {
  let h = 2166136261;
  for (let i = 0; i < q.id.length; i++) h = Math.imul(h ^ q.id.charCodeAt(i), 16777619);
  return ((h >>> 0) & 1) === 1;
}
