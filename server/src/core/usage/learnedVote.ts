/**
 * Using what search learning knows in the ranking's last stage (core/search/usageSignal.ts):
 * each tool's vote (learnedDocuments.ts: how well its learned words match the request, times
 * the evidence behind them) is added to the keyword (or hybrid) ranking, after the learned
 * field (learnedField.ts; learnedRanking.ts says why both). Pure.
 *
 * A tool's final score is its share of the top hit's score plus `weight` × its vote; a tool
 * the vote names that the ranking did not hold joins with the vote alone. That is how learning
 * closes vocabulary gaps ("literature" for a tool that says "papers"): the earlier stages never
 * find such a tool, the past requests do. A negative vote (words known not to lead to a tool)
 * moves a hit down. With nothing learned, or nothing learned that matches, the hits come back
 * as they are: a cold start is the ranking without learning, exactly.
 */
import type { RankedTool } from '../search/types';
import type { ToolVote } from './learnedDocuments';

/*
 * The vote's knobs (learnedRanking.ts holds the ones in force: the vote beside a learned field)
 * are chosen on the dev halves of the replay (bench/src/replay.ts: `mcp-lens bench --history
 * 0.5 --seeds 10`) at 10% silent wrong calls, every set held to its cold start at 30%. A
 * near-exact repeat of one past request lands well below the top hit's score: it wins where
 * keyword search found little, not over a strong match. The replay's figures for the weights
 * tried, and for what was tried and not kept, are in bench-results.md ("Search learning: the
 * vote's knobs").
 */

/**
 * `hits` re-ranked with `votes` (see the file's comment), at most `limit`; `hits` as they are
 * when no vote is positive. Scores stay on the hits' scale.
 */
export function rerankByVotes(
  hits: readonly RankedTool[],
  votes: ReadonlyMap<string, ToolVote>,
  weight: number,
  limit: number,
): RankedTool[] {
  if (weight <= 0 || ![...votes.values()].some((v) => v.vote !== 0)) return [...hits];
  const top = hits[0]?.score && hits[0].score > 0 ? hits[0].score : 1;
  const scored = hits.map((h, position) => {
    const v = votes.get(h.key);
    const score = h.score / top + weight * (v?.vote ?? 0);
    return { tool: v && v.vote !== 0 ? moved(h, score * top) : h, score, position };
  });
  const held = new Set(hits.map((h) => h.key));
  for (const [key, v] of votes) {
    if (held.has(key) || v.vote <= 0) continue;
    const score = weight * v.vote;
    scored.push({
      tool: moved({ key, score: 0, signals: [], why: '' }, score * top),
      score,
      position: scored.length,
    });
  }
  scored.sort((a, b) => b.score - a.score || a.position - b.position);
  return scored.slice(0, Math.max(0, limit)).map((s) => s.tool);
}

/** The hit with its new score, marked as moved by usage (learnedRanking.ts says why, once). */
function moved(hit: RankedTool, score: number): RankedTool {
  return { ...hit, score, signals: hit.signals.includes('usage') ? hit.signals : [...hit.signals, 'usage'] };
}
