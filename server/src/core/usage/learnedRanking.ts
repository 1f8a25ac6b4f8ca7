/**
 * How what search learning knows reaches the ranking, in its last stage (core/search/
 * usageSignal.ts): two readings of the same learned documents (learnedDocuments.ts), in order.
 *
 * 1. The learned field (learnedField.ts): a tool's learned words scored as one more field of
 *    its document (BM25, its own field weight, the keyword ranking's k1, the idf of the whole
 *    document: the catalog's fields and the learned ones) and added to the score its keyword
 *    match made. Evidence adds up as a keyword match does: many past requests saturate, one
 *    counts like one occurrence in a short field.
 * 2. The vote (learnedVote.ts): each tool's match over the most the request could match, times
 *    the evidence behind it, added at `weight` × the top hit's score. Being normalised by the
 *    request, it lifts a tool whose learned words hold most of the request whatever its length.
 *
 * With nothing learned, or nothing learned that matches, the hits come back as they are: a cold
 * start is the ranking without learning, exactly. Pure.
 *
 * The weights are chosen by replay (bench/src/replay.ts: `mcp-lens bench --history 0.5 --seeds
 * 10`) on the dev halves: the shipped pair is the one at least as good as the vote alone on
 * every set at every share of wrong calls. The field alone loses to the vote on long requests
 * (a long request's one shared word adds as much as it would to a short one's); counting the
 * field's document frequency over the learned documents alone makes a server's name, which
 * every request of its tools says, weigh as a rare word, so that one wrong lesson outranks the
 * right tool. The replay's figures, the check on the held-out halves and what was not kept are
 * in bench-results.md ("Search learning: the field and the vote").
 */
import type { RankedTool } from '../search/types';
import type { LearnedDocuments } from './learnedDocuments';
import { FIELD_K1, rerankByField } from './learnedField';
import { boundLearning } from './learnedLimits';
import { rerankByVotes } from './learnedVote';

export interface LearnedRankingKnobs {
  /** The vote's weight against the top hit's score (1); 0: no vote. */
  weight: number;
  /** A tool's vote × weight / (weight + evidence), its learned weight being its requests' summed weights. */
  evidence: number;
  /** The learned field's weight: what one past request's word adds to its term frequency; 0: no field. */
  field: number;
  /** The learned field's length normalisation (BM25's b). */
  fieldB: number;
  /** The most one past request behind a tool's match may move it, in the top hit's score (learnedLimits.ts). */
  lift: number;
}

/** Chosen on the dev halves (the file's comment; `lift`: learnedLimits.ts). */
export const LEARNED_RANKING_KNOBS: LearnedRankingKnobs = {
  weight: 6,
  evidence: 12,
  field: 0.5,
  fieldB: 0.75,
  lift: 0.75,
};

/** A request, as the learned ranking reads it. */
export interface LearnedRequest {
  /** Its learned terms (learnedTerms.ts). */
  terms: readonly string[];
  limit: number;
  /** How many tools the catalog holds. */
  catalogSize: number;
  /** How many catalog tools hold a term in their own fields (0 for none). */
  documentFrequency: (term: string) => number;
  /** The keyword ranking's first score (0 with no keyword hit): the scale the field's score is on. */
  keywordTop: number;
  /** Whose search it is (usage/learnedProvenance.ts): it reads what every session may, and what it taught itself. */
  viewer?: string;
  /** Tools whose annotations say they are destructive (toolAnnotations.ts): never first by learning alone. */
  destructive?: (key: string) => boolean;
}

/** `hits` re-ranked with what `documents` learned (the file's comment), at most `limit`. */
export function rerankByLearning(
  hits: readonly RankedTool[],
  documents: LearnedDocuments,
  request: LearnedRequest,
  knobs: LearnedRankingKnobs,
): RankedTool[] {
  const reading = documents.read(request.viewer);
  let out: readonly RankedTool[] = hits;
  if (knobs.field > 0) {
    const scores = reading.fieldScores(request.terms, {
      weight: knobs.field,
      b: knobs.fieldB,
      k1: FIELD_K1,
      documents: request.catalogSize,
      catalogFrequency: request.documentFrequency,
    });
    out = rerankByField(out, scores, request.keywordTop, request.limit);
  }
  if (knobs.weight > 0)
    out = rerankByVotes(out, reading.votes(request.terms, knobs.evidence), knobs.weight, request.limit);
  if (out === hits || (out.every((h, i) => h === hits[i]) && out.length === hits.length)) return [...hits];
  return boundLearning(hits, out, reading, { ...request, lift: knobs.lift });
}
