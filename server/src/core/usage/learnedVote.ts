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
 * The vote's knobs, when it was the only use of what was learned (learnedRanking.ts holds
 * today's knobs: the vote beside a learned field). Chosen on the dev halves of the replay
 * (bench/src/replay.ts: `mcp-lens bench --history 0.5 --seeds 10`) at 10% silent wrong calls,
 * every set held to its cold start at 30%. One past request weighs 12 × 1/13 (a near-exact repeat of it lands at about 0.4 of the top hit's
 * score: it wins where keyword search found little, not over a strong match); twenty weigh
 * 12 × 20/32. Dev halves, mean of seeds 1-10 (metatool: seed 1), cold start first: metatool
 * R@1/MRR@10 at 10% wrong and R@1 at 30%; mcp-servers and toolbench R@1 at 10%; workspace-19
 * R@1 at 30% (the set that gave way first):
 *
 *   weight, evidence   metatool                    mcp-servers    toolbench      workspace-19
 *   3, 2               .438/.536 → .593/.704, .558  .637 → .668    .355 → .372    .655 → .638
 *   6, 4                         → .666/.763, .622  .668           .374           .638
 *   9, 8                         → .693/.782, .629  .668           .375           .638
 *   12, 12 (then shipped)        → .695/.784, .616  .668           .376           .655
 *   12, 16                       → .684/.775, .617  .668           .369           .655
 *   16, 20                       → .678/.772, .604  .668           .376           .655
 *
 * Tried and not kept (dev halves): teaching a call of the answer's first hit at half weight
 * (what the ranking already believed, and what a careless agent calls when wrong) held
 * workspace-19 at 30% wrong with weight 3 but cost metatool 0.010 R@1 at every weight tried; a
 * floor on how much of the request a tool's learned words must match (0.15) took mcp-servers'
 * gain away (0.668 → 0.637) and 0.25 most of metatool's; leaving the server's own name out of
 * what a tool learns (the keyword ranking's product mentions weigh it already) cost metatool
 * 0.021 R@1 and gained nothing elsewhere.
 *
 * Tried again and not kept (dev halves, R@1 at 10% silent wrong calls unless said; toolbench,
 * mcp-servers, workspace-19 mean of seeds 1-10, metatool seed 1). Then shipped: .376, .668, .655,
 * metatool .695. Votes scaled to the request's best learned match instead of the most it could
 * score (long requests make every vote small): .344, .617, .771, .682, and at 30% wrong
 * toolbench .363 → .247, mcp-servers .679 → .485 (a wrong lesson's weak match becomes a full
 * vote); the same with a floor of 0.1 of the most: .371, .625, .785, .670. Evidence 4: .373,
 * .656, .655 (.599 at 30%), .705. Weight 24: .378, .660, .655 (.638 at 30%), .682. The first
 * hit's call at half weight, at weight 12 and 24: .369/.370, .671/.650, .655, .681/.681. A
 * floor of 0.1 on weight × vote: mcp-servers .652, workspace-19 MRR@10 .864 → .855 (0.05:
 * no change). The replay's held-out gaps are mostly the data's (bench/src/replay.ts reports the
 * most R@1 any ranking can score: a request for n tools scores at most 1/n).
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
    return { tool: v && v.vote !== 0 ? voted(h, v, score * top) : h, score, position };
  });
  const held = new Set(hits.map((h) => h.key));
  for (const [key, v] of votes) {
    if (held.has(key) || v.vote <= 0) continue;
    const score = weight * v.vote;
    scored.push({
      tool: voted({ key, score: 0, signals: [], why: '' }, v, score * top),
      score,
      position: scored.length,
    });
  }
  scored.sort((a, b) => b.score - a.score || a.position - b.position);
  return scored.slice(0, Math.max(0, limit)).map((s) => s.tool);
}

function voted(hit: RankedTool, v: ToolVote, score: number): RankedTool {
  const reason =
    v.vote > 0
      ? `learned: ${v.requests} past request${v.requests === 1 ? '' : 's'} with these words led here`
      : 'learned: past requests with these words did not lead here';
  return {
    ...hit,
    score,
    signals: hit.signals.includes('usage') ? hit.signals : [...hit.signals, 'usage'],
    why: hit.why ? `${hit.why}; ${reason}` : reason,
  };
}
