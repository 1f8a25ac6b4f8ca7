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
 * Measured by replay (bench/src/replay.ts), dev halves only, half the history: R@1 at 0%, 10% and
 * 30% silent wrong calls (metatool seed 1, its MRR@10 at 10% in brackets; the others the mean
 * of seeds 1-10). Cold start: metatool .438 (.536), mcp-servers .637, toolbench .355,
 * workspace-19 .655.
 *
 *   vote weight, evidence; field weight   metatool               mcp-servers     toolbench       workspace-19
 *   12, 12; no field (the vote alone)     .708 .695 .621 (.784)  .683 .668 .679  .382 .376 .363  .655 .655 .655
 *   no vote; 4                            .688 .665 .613 (.768)  .683 .660 .649  .392 .384 .364  .714 .700 .683
 *   12, 12; 1                             .716 .694 .624 (.786)  .683 .660 .664  .393 .382 .365  .714 .700 .683
 *   6, 12; 1                              .726 .710 .652 (.796)  .683 .660 .671  .393 .386 .370  .714 .700 .683
 *   4, 12; 1                              .725 .707 .650 (.793)  .683 .660 .671  .388 .382 .370  .714 .700 .683
 *   6, 12; 0.75                           .725 .704 .648 (.791)  .683 .660 .671  .393 .386 .374  .714 .700 .683
 *   6, 12; 0.5 (shipped)                  .723 .701 .656 (.789)  .683 .668 .679  .383 .377 .368  .714 .700 .683
 *
 * The shipped pair is the one that is at least the vote alone's on every set at every share of
 * wrong calls (and with 30% wrong calls of which half are noticed: .685, .674, .377, .714
 * against .671, .674, .374, .655); a field of 1 gains more on toolbench and metatool R@1 but
 * loses a request on mcp-servers. The field alone loses metatool to the vote (.665 against
 * .695): a long request's one shared word adds as much as it would to a short one's.
 *
 * Checked once on the held-out halves (10 seeds each, metatool too), vote alone → shipped, R@1 /
 * MRR@10 at 10% wrong and R@1 at 30%: metatool .688/.780 → .702/.792, .630 → .650; mcp-servers
 * .672/.929 → .701/.966, .626 → .651; toolbench .410/.918 → .406/.910, .399 → .387 (the one set
 * it lowers); workspace-19 .470/.759 → .561/.855, .470 → .541 (its R@5 at 30% .887 → .929, above
 * the cold start's .901, which the vote alone fell below); mcp-servers-multilingual (not used to
 * choose: dev .547 → .536 at 10%, .484 → .492 at 30%) .679/.727 → .684/.731, .582 → .580.
 *
 * Measured, not kept (same figures): the field's document frequency counted over the learned
 * documents only (idf over the catalog's tool count): the server's name, which every request
 * of a server's tools says, then weighs as a rare word, and one wrong lesson ("Airtable rows in
 * the Leads table" → list_comments) outranks the right tool. Field 4 alone: .688 .663 .623,
 * .683 .657 .638, .405 .389 .358, .828 .780 .789; vote 6 and field 2: .723 .703 .649, .683 .657
 * .638, .410 .392 .360, .840 .799 .785 (mcp-servers below the vote alone at 30%: .638 against
 * .679). Field length normalisation b 0.3 instead of 0.75 (field 4, no vote): .692 .673 .621,
 * .683 .657 .638, .411 .394 .357, .840 .799 .789. The field's own k1 of 4 (field 4, no vote):
 * .713 .696 .635, .683 .657 .633, .411 .384 .346, .781 .740 .663.
 */
import type { RankedTool } from '../search/types';
import type { LearnedDocuments } from './learnedDocuments';
import { FIELD_K1, rerankByField } from './learnedField';
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
}

/** Chosen on the dev halves (the file's comment). */
export const LEARNED_RANKING_KNOBS: LearnedRankingKnobs = { weight: 6, evidence: 12, field: 0.5, fieldB: 0.75 };

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
}

/** `hits` re-ranked with what `documents` learned (the file's comment), at most `limit`. */
export function rerankByLearning(
  hits: readonly RankedTool[],
  documents: LearnedDocuments,
  request: LearnedRequest,
  knobs: LearnedRankingKnobs,
): RankedTool[] {
  let out: readonly RankedTool[] = hits;
  if (knobs.field > 0) {
    const scores = documents.fieldScores(request.terms, {
      weight: knobs.field,
      b: knobs.fieldB,
      k1: FIELD_K1,
      documents: request.catalogSize,
      catalogFrequency: request.documentFrequency,
    });
    out = rerankByField(out, scores, request.keywordTop, request.limit);
  }
  if (knobs.weight > 0)
    out = rerankByVotes(out, documents.votes(request.terms, knobs.evidence), knobs.weight, request.limit);
  return [...out];
}
