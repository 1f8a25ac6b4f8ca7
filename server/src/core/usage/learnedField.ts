/**
 * Using what search learning knows as a learned field of each tool's document: the words of
 * the past requests that led to a tool (learnedDocuments.ts), scored BM25-style with their own
 * field weight and the keyword ranking's k1, and added to the score the keyword match made —
 * on its scale, not as a vote on a normalised one (learnedVote.ts). A tool the field scores
 * that the ranking did not hold joins with the field's score alone; words known not to lead
 * to a tool score a second field that is subtracted. With nothing learned that matches, the
 * hits come back as they are. Pure.
 *
 * The field scores on the keyword ranking's scale; the hits may be on another (hybrid search's
 * fused scores, fusion.ts), so the field's score is converted by the hits' top score over the
 * keyword ranking's: 1 in keyword search, whose hits are the keyword ranking's. In hybrid this
 * is a choice, not a measurement (no real embedding model was measured here): a field that
 * scores what the keyword first hit scored adds what the fused first hit scores.
 */
import { DEFAULT_KEYWORD_CONFIG } from '../search/keywordConfig';
import type { RankedTool } from '../search/types';

/** The keyword ranking's term saturation, so the field's score adds like another field's. */
export const FIELD_K1 = DEFAULT_KEYWORD_CONFIG.k1;

/**
 * `hits` with each tool's field score added (see the file's comment), at most `limit`; as they
 * are when no score is non-zero. `keywordTop`: the keyword ranking's first score (0: none).
 */
export function rerankByField(
  hits: readonly RankedTool[],
  scores: ReadonlyMap<string, number>,
  keywordTop: number,
  limit: number,
): RankedTool[] {
  if (![...scores.values()].some((s) => s !== 0)) return [...hits];
  const top = hits[0]?.score;
  const scale = keywordTop > 0 && top !== undefined && top > 0 ? top / keywordTop : 1;
  const scored = hits.map((h, position) => {
    const s = (scores.get(h.key) ?? 0) * scale;
    return { tool: s !== 0 ? moved(h, h.score + s) : h, score: h.score + s, position };
  });
  const held = new Set(hits.map((h) => h.key));
  for (const [key, field] of scores) {
    const s = field * scale;
    if (held.has(key) || s <= 0) continue;
    scored.push({ tool: moved({ key, score: 0, signals: [], why: '' }, s), score: s, position: scored.length });
  }
  scored.sort((a, b) => b.score - a.score || a.position - b.position);
  return scored.slice(0, Math.max(0, limit)).map((s) => s.tool);
}

/** The hit with its new score, marked as moved by usage (learnedRanking.ts says why, once). */
function moved(hit: RankedTool, score: number): RankedTool {
  return { ...hit, score, signals: hit.signals.includes('usage') ? hit.signals : [...hit.signals, 'usage'] };
}
