/**
 * What search learning keeps of a request: its analysed words, never the text. A find_tools
 * request is the agent's own wording and may carry values (a URL, a path, an id, an address):
 * those are literal values (search/queryLiterals.ts) and are dropped before anything is kept,
 * as are stop words, request filler and bare numbers. What is left is stemmed as the keyword
 * index stems, de-duplicated and capped, so a stored request is a short set of index-like
 * terms ("find literature on protein folding" → find, literatur, protein, fold).
 */
import { splitLiterals } from '../search/queryLiterals';
import { QUERY_FILLER } from '../search/queryFiller';
import { splitRequestWords, STOP_WORDS, stemWord } from '../search/tokenize';

/** At most this many terms are kept of one request (the first ones: a request leads with its ask). */
export const MAX_LEARNED_TERMS = 24;
/** A longer word is not a word of a request (a token, a hash): not kept. */
export const MAX_LEARNED_TERM_LENGTH = 40;

/** The terms search learning keeps of a request, in order of first appearance. */
export function learnedTermsOf(text: string): string[] {
  return [...learnedSpellingsOf(text).keys()];
}

/**
 * The same terms, each with the word it was made of as the request wrote it (lower-cased): what
 * the dashboard shows, since a stem ("rememb", "talli") is not a word anyone typed.
 */
export function learnedSpellingsOf(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const word of splitRequestWords(splitLiterals(text).intent)) {
    if (
      STOP_WORDS.has(word) ||
      QUERY_FILLER.has(word) ||
      word.length > MAX_LEARNED_TERM_LENGTH ||
      /^\p{N}+$/u.test(word)
    )
      continue;
    const term = stemWord(word);
    if (!out.has(term)) out.set(term, word);
    if (out.size >= MAX_LEARNED_TERMS) break;
  }
  return out;
}
