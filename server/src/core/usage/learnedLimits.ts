/**
 * What learning may do to a ranking, whatever was learned and whoever taught it (SECURITY.md,
 * "Search learning"): the last step of the learned ranking (learnedRanking.ts). Pure.
 *
 * 1. A bounded lift. Learning moves a tool's score by at most `lift` × the first hit's score
 *    (before learning) for each past request (its weight: one at most) that is read for this
 *    request and holds one of its words; down by as much for each that counts against it. A
 *    search session adds at most one past request per tool (searchSteps.ts), and an example of
 *    the learned file weighs one at most (learnedExamples.ts), so one session, or one entry of the
 *    file, moves a tool by at most `lift` of the first hit's score: a tool that scored less than
 *    (1 − lift) of the first hit without learning is not made first by it. Honest learning is
 *    many past requests, so it is rarely held back: the vote of one past request is at most
 *    weight/(1 + evidence) = 6/13 of the first hit, and the learned field of one adds a share of
 *    a keyword field's score. `lift` is chosen by replay, each value tried beside no bound
 *    (bench-results.md, "Search learning: the lift bound"): the smaller, the less one forged entry
 *    or one session can do, down to where the bound starts to cost honest learning.
 * 2. No destructive tool first by learning alone. A tool whose annotations say it is
 *    destructive (toolAnnotations.ts) is first after learning only if it was first before: else
 *    the best tool that is not destructive (or the first before learning) takes first place,
 *    and a destructive tool only learning found is never the only answer.
 * 3. One reason. Each tool learning moved says so once, in its `why`, after the bound, since the
 *    bounded score decides whether learning lifted it or held it down (learnedReason.ts).
 */
import type { RankedTool } from '../search/types';
import type { LearnedReading } from './learnedDocuments';
import { withLearnedReason } from './learnedReason';

export interface LearningLimits {
  /** The request's learned terms. */
  terms: readonly string[];
  limit: number;
  /** The most one past request may move a tool, in the first hit's score. */
  lift: number;
  destructive?: (key: string) => boolean;
}

const LED_HERE = (n: number) => `${n} past request${n === 1 ? '' : 's'} with these words led here`;
const NOT_HERE = 'past requests with these words did not lead here';
const NOT_FIRST = 'not first by learning alone: its annotations say it may destroy data';

/** `after` (the learned ranking of `before`) held to the limits above, at most `limits.limit`. */
export function boundLearning(
  before: readonly RankedTool[],
  after: readonly RankedTool[],
  reading: LearnedReading,
  limits: LearningLimits,
): RankedTool[] {
  const was = new Map(before.map((h, i) => [h.key, { hit: h, score: h.score, position: i }]));
  const scale =
    before[0] && before[0].score > 0 ? before[0].score : after[0] && after[0].score > 0 ? after[0].score : 1;
  const terms = new Set(limits.terms);
  const scored = after.map((h, i) => {
    const old = was.get(h.key);
    const base = old?.score ?? 0;
    if (h === old?.hit) return { hit: h, moved: false, score: base, base, position: old.position };
    const evidence = reading.evidence(h.key, terms);
    const up = evidence.for > 0 ? limits.lift * evidence.for * scale : 0;
    const down = evidence.against > 0 ? limits.lift * evidence.against * scale : 0;
    const score = Math.min(base + up, Math.max(base - down, h.score));
    // Ties keep the order before learning: a tool passes another only by more than the gap.
    return { hit: h, moved: true, score, base, position: old?.position ?? before.length + i };
  });
  scored.sort((a, b) => b.score - a.score || a.position - b.position);
  const out = scored.map(({ hit, moved, score, base }) =>
    moved ? explained(hit, score, score >= base, reading.requests(hit.key)) : hit,
  );
  return keepDestructiveOffTop(before, out, limits.destructive).slice(0, Math.max(0, limits.limit));
}

function explained(hit: RankedTool, score: number, up: boolean, requests: number): RankedTool {
  return withLearnedReason(hit, score, up ? LED_HERE(requests) : NOT_HERE);
}

/** Rule 2 of the file's comment. */
function keepDestructiveOffTop(
  before: readonly RankedTool[],
  ranked: RankedTool[],
  destructive: ((key: string) => boolean) | undefined,
): RankedTool[] {
  const first = ranked[0];
  const wasFirst = before[0]?.key;
  if (!destructive || !first || first.key === wasFirst || !destructive(first.key)) return ranked;
  const mayLead = (h: RankedTool) => h.key === wasFirst || !destructive(h.key);
  const i = ranked.findIndex(mayLead);
  const above = ranked
    .slice(0, i < 0 ? ranked.length : i)
    .map((h) => ({ ...h, why: h.why ? `${h.why}; ${NOT_FIRST}` : NOT_FIRST }));
  if (i > 0) return [ranked[i]!, ...above, ...ranked.slice(i + 1)];
  // Nothing else in the answer may lead: the first hit before learning does, or, with none, no
  // tool only learning found is answered.
  const lead = before[0];
  return lead ? [lead, ...above.filter((h) => h.key !== lead.key)] : [];
}
