/**
 * Whether a ranking is confident in its first hit (pure). Confident means the first hit
 * stands clearly apart from the second: its score is at least CONFIDENT_MARGIN (relative)
 * above the runner-up's, or it is the only hit. The margin is relative so it holds for any
 * score scale (BM25F sums, usage-boosted scores), and it is a property of the ranking alone —
 * never of particular tools or queries.
 *
 * find_tools uses it to decide what to inline: a confident top hit comes with its full input
 * schema (the agent will most likely call it next), close top hits come with compact
 * signatures instead (the agent must still choose). Fused rankings (hybrid mode's reciprocal
 * ranks) have compressed margins, so they are rarely confident: they get the signatures.
 *
 * The threshold was picked from the score gaps of a handful of find_tools answers on the
 * recorded 19-server catalog, not tuned on the retrieval sets; `mcp-lens bench` measures how
 * well it separates right first hits from wrong ones (each set's "first-hit confidence" line in
 * bench-results.md).
 */

/** The first hit must score this much above the second (share of its own score): 0.2 = 25 % above. */
export const CONFIDENT_MARGIN = 0.2;

/** (s1 − s2) / s1 for the first two scores; 1 for a single hit; 0 for none or a non-positive top score. */
export function scoreMargin(scores: readonly number[]): number {
  const [first, second] = scores;
  if (first === undefined || !(first > 0) || !Number.isFinite(first)) return 0;
  if (second === undefined) return 1;
  return Math.max(0, (first - Math.max(0, second)) / first);
}

export function isConfident(scores: readonly number[], margin = CONFIDENT_MARGIN): boolean {
  return scores.length > 0 && scoreMargin(scores) >= margin;
}

/**
 * A hit is close to the top when it scores at least this share of the first hit's score.
 * find_tools gives close hits their input types and the others a name and a line: a far hit
 * is rarely the one an agent calls, and its signature costs as much as a close one's. On the
 * bench sets nearly every gold tool that ranks in the top 5 is close at this share, and a higher
 * one drops noticeably more of them (bench-results.md, "Close hits").
 */
export const CLOSE_SHARE = 0.5;

/** How many of the leading scores are close to the first (its share of it at least `share`); 0 for no positive top score. */
export function closeCount(scores: readonly number[], share = CLOSE_SHARE): number {
  const first = scores[0];
  if (first === undefined || !(first > 0) || !Number.isFinite(first)) return 0;
  let n = 0;
  while (n < scores.length && scores[n]! >= share * first) n++;
  return n;
}
