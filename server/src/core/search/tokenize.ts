/**
 * Turning tool text and queries into index terms. Tool names are identifiers
 * (`browser_take_screenshot`, `getFileInfo`, `kebab-case`, `v2.list/items`), so they are split
 * into words before anything else; words are then lowercased, stop words dropped and, for the
 * keyword index, reduced to their Porter2 stem so `screenshots`/`screenshot` and
 * `creating`/`create` meet. Text in other languages and scripts is folded and cut into runs
 * first (wordRuns.ts): accents dropped where optional, Chinese, Japanese, Korean and Thai as
 * character pairs, Latin words inside them on their own.
 */
import stem from 'wink-porter2-stemmer';
import { unspacedTerms, wordRuns } from './wordRuns';

/**
 * A small English stop-word list: function words that carry no tool meaning. The BM25
 * reference searcher (bench/src/reference) uses exactly this list, so keep it as it is: MCP Lens's
 * own additions go into STOP_WORDS below. Kept short on
 * purpose: words like `get`, `list`, `new`, `all` are stop words in prose but verbs/objects in
 * tool names, so they stay.
 */
export const BASE_STOP_WORDS: readonly string[] = [
  'a',
  'an',
  'the',
  'and',
  'or',
  'but',
  'if',
  'of',
  'at',
  'by',
  'for',
  'with',
  'about',
  'to',
  'from',
  'in',
  'on',
  'into',
  'is',
  'are',
  'was',
  'were',
  'be',
  'been',
  'being',
  'it',
  'its',
  'this',
  'that',
  'these',
  'those',
  'as',
  'i',
  'me',
  'my',
  'we',
  'our',
  'you',
  'your',
  'he',
  'she',
  'they',
  'them',
  'their',
  'his',
  'her',
  'do',
  'does',
  'did',
  'can',
  'could',
  'would',
  'should',
  'will',
  'shall',
  'may',
  'might',
  'must',
  'so',
  'than',
  'then',
  'there',
  'here',
  'what',
  'which',
  'who',
  'whom',
  'how',
  'when',
  'where',
  'why',
  'also',
  'any',
  'some',
  'such',
  'not',
  'no',
  'please',
  'am',
  'has',
  'have',
  'had',
  'having',
  'just',
  'very',
  'too',
  'us',
  'each',
  'both',
  'other',
  'own',
  'same',
];

/**
 * BASE_STOP_WORDS and the indefinite pronouns, which name no tool ("show me everything that's
 * running" is not the `everything` server).
 */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  ...BASE_STOP_WORDS,
  'everything',
  'anything',
  'something',
  'nothing',
  'everyone',
  'anyone',
  'someone',
  'everybody',
  'anybody',
  'somebody',
]);

/**
 * One word of a spaced script split as an identifier, lowercased: camelCase / PascalCase /
 * acronym boundaries (`getHTTPResponse` → get http response), letter/digit boundaries (`v2` →
 * v 2, `base64` → base 64), and anything not a letter or digit (`_ - . / : space`). Not
 * folded: the form a person reads (embeddingText); splitWords folds first.
 */
export function identifierWords(text: string): string[] {
  // One case throughout and no digit or separator: nothing to split ("file", "G", "HTTP", "日本").
  // The common case, and a long request in a mix of scripts is tens of thousands of such runs.
  if (ONE_CASE_LOWER.test(text)) return text === '' ? [] : [text];
  if (ONE_CASE_UPPER.test(text)) return [text.toLowerCase()];
  const spaced = text
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .replace(/(\p{L})(\p{N})/gu, '$1 $2')
    .replace(/(\p{N})(\p{L})/gu, '$1 $2')
    .toLowerCase();
  return spaced.split(/[^\p{L}\p{N}\p{M}]+/u).filter((w) => w.length > 0);
}

const ONE_CASE_LOWER = /^[\p{Ll}\p{Lo}\p{Lm}\p{M}]*$/u;
const ONE_CASE_UPPER = /^[\p{Lu}\p{Lo}\p{Lm}\p{M}]+$/u;

/** Camel case inside one word: a lowercase letter followed by a capital. */
const CAMEL = /\p{Ll}\p{Lu}/u;

/**
 * Splits identifiers and prose into lowercase terms, in any script (wordRuns.ts): text is
 * folded for matching (accents dropped where optional, full-width forms made plain), each word
 * of a spaced script is split as an identifier (identifierWords), and each run of an unspaced
 * script (Chinese, Japanese, Korean, Thai…) becomes its character pairs. Unicode letters are
 * kept (tool descriptions are not all English).
 */
export function splitWords(text: string): string[] {
  const out: string[] = [];
  for (const run of wordRuns(text)) append(out, run.unspaced ? unspacedTerms(run.text) : identifierWords(run.text));
  return out;
}

/**
 * Words that are one name written in camel case (GitHub, HubSpot, MongoDB, DevTools,
 * getFileInfo), lowercased whole: the form a server or a tool is named by (`github`,
 * `hubspot`). splitWords splits them, which matches their parts but not the name itself.
 */
export function joinedCamelWords(text: string): string[] {
  const out: string[] = [];
  for (const run of wordRuns(text)) if (!run.unspaced && CAMEL.test(run.text)) out.push(run.text.toLowerCase());
  return out;
}

/**
 * A request's words: splitWords's, except that a camel-case name stays whole ("GitHub" →
 * github), as the server or tool it names is spelled. Its parts (camelCaseParts) are for the
 * caller to add as expansions, so "GitHub" also meets "git hub" and "HackerNews" "Hacker News".
 */
export function splitRequestWords(text: string): string[] {
  const out: string[] = [];
  for (const run of wordRuns(text)) {
    if (run.unspaced) append(out, unspacedTerms(run.text));
    else if (CAMEL.test(run.text)) out.push(run.text.toLowerCase());
    else append(out, identifierWords(run.text));
  }
  return out;
}

/** The words inside the camel-case names of a text ("GitHub and HubSpot" → git, hub, hub, spot). */
export function camelCaseParts(text: string): string[] {
  const out: string[] = [];
  for (const run of wordRuns(text)) if (!run.unspaced && CAMEL.test(run.text)) append(out, identifierWords(run.text));
  return out;
}

/** `out.push(...items)` without spreading: one run of a long request can hold more words than a call has arguments. */
function append(out: string[], items: readonly string[]): void {
  for (const item of items) out.push(item);
}

const stemCache = new Map<string, string>();

/**
 * Longer words are not English words (the longest in the bench datasets' tools and requests is
 * about half this) and stay whole: the Porter2 library's suffix rules (`/(.+)(sses)$/` and the
 * like) re-read a word from each of its letters, quadratic in a long word. Nor are they
 * cached: the cache would hold whatever long text a request or a tool sends.
 */
const MAX_STEMMED_LENGTH = 64;

/** Porter2 stem of one lowercase word, cached (the same words recur across thousands of tools). */
export function stemWord(word: string): string {
  // Porter2 is an English algorithm: words with other letters or digits stay as they are, and
  // uncached (a long request in Chinese is thousands of character pairs).
  if (word.length > MAX_STEMMED_LENGTH || !/^[a-z]+$/.test(word)) return word;
  let s = stemCache.get(word);
  if (s === undefined) {
    s = stem(word);
    if (stemCache.size > 200_000) stemCache.clear();
    stemCache.set(word, s);
  }
  return s;
}

/**
 * A text's sentences: it splits after a run of `.`, `!` or `?` that ends the text or is followed
 * by a space ("Done. Next" → Done, Next; "v1.2" stays whole). The lookbehind lets a match start
 * only at a run's first mark: without it a run not followed by a space ("!!!…!x") was re-read
 * from each of its marks, quadratic in its length.
 */
export function splitSentences(text: string): string[] {
  return text.split(/(?<![.!?])[.!?]+(?:\s|$)/);
}

/**
 * A light English stemmer (Harman's S-stemmer plus -ing/-ed): plurals and simple verb forms
 * only, so `generate` and `general` stay apart where Porter2 would merge them.
 */
export function lightStem(word: string): string {
  if (word.length <= 3 || !/^[a-z]+$/.test(word)) return word;
  let w = word;
  if (w.endsWith('ies') && !w.endsWith('eies') && !w.endsWith('aies')) w = w.slice(0, -3) + 'y';
  else if (w.endsWith('es') && !/(aes|ees|oes)$/.test(w) && /(ches|shes|sses|xes|zes)$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith('s') && !/(us|ss|is)$/.test(w)) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith('ed') && !w.endsWith('eed')) w = w.slice(0, -2);
  return w;
}

/** How text becomes terms; the switches exist so the benchmark can measure each step. */
export interface TermOptions {
  stem: boolean;
  /** Drop STOP_WORDS. */
  stopWords: boolean;
}

/** Index terms of a text: split, stop words removed, optionally stemmed. Order is kept (for bigrams). */
export function termsOf(text: string, options: TermOptions): string[] {
  const out: string[] = [];
  for (const w of splitWords(text)) {
    if (options.stopWords && STOP_WORDS.has(w)) continue;
    out.push(options.stem ? stemWord(w) : w);
  }
  return out;
}
