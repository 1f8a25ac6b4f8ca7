/**
 * What search learning keeps of a request: its analysed words, never the text. A find_tools
 * request is the agent's own wording and may carry values (a URL, a path, an id, an address):
 * those are literal values (search/queryLiterals.ts) and are dropped before anything is kept,
 * as are markup (`<img src=x onerror=…>`: tags and their attributes are code an agent pasted, not
 * words of a request), stop words, request filler, single Latin letters and bare numbers. What is left
 * is stemmed as the keyword index stems, de-duplicated and capped, so a stored request is a short
 * set of index-like terms ("find literature on protein folding" → find, literatur, protein, fold),
 * each kept with the word as it was typed (lowercased: literature, folding), which is what a
 * person is shown.
 */
import { splitLiterals } from '../search/queryLiterals';
import { QUERY_FILLER } from '../search/queryFiller';
import { splitRequestWords, STOP_WORDS, stemWord } from '../search/tokenize';

/** At most this many terms are kept of one request (the first ones: a request leads with its ask). */
export const MAX_LEARNED_TERMS = 24;
/** A longer word is not a word of a request (a token, a hash): not kept. */
export const MAX_LEARNED_TERM_LENGTH = 40;
/**
 * What a kept term or typed word may hold: letters (with their marks) and digits, as the request
 * splitter yields them. Anything else in a learned file was not written by MCP Lens.
 */
export const LEARNED_WORD = /^[\p{L}\p{M}\p{N}]{1,40}$/u;

/** One kept word of a request: its index term (the stem) and the word as typed. */
export interface LearnedWord {
  term: string;
  word: string;
}

/**
 * A markup tag with its attributes (`<img src=x onerror="…">`, `</script>`), or an attribute
 * assignment left outside one (`onerror="…"`, `src=x`): code, not words.
 */
const MARKUP = /<\/?[a-z][^<>]{0,400}>|\b[a-z][\w-]{0,40}=(?:"[^"]{0,400}"|'[^']{0,400}'|[^\s"'<>]{0,400})/gi;

/** The words search learning keeps of a request, in order of first appearance (one per term). */
export function learnedWordsOf(text: string): LearnedWord[] {
  const out = new Map<string, string>();
  for (const word of splitRequestWords(splitLiterals(text.replace(MARKUP, ' ')).intent)) {
    if (
      /^[a-z]$/.test(word) ||
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
  return [...out].map(([term, word]) => ({ term, word }));
}

/** The terms search learning keeps of a request, in order of first appearance. */
export function learnedTermsOf(text: string): string[] {
  return learnedWordsOf(text).map((w) => w.term);
}
