/**
 * Text in any language and script, made ready for matching (tokenize.ts splits what this
 * yields into words). Two steps, both linear in the text's length:
 *
 * 1. Folding (foldForMatching): compatibility forms become their plain letters (full-width
 *    `ＧｉｔＨｕｂ` → GitHub, `ﬁ` → fi, full-width `！？` → !?), and accents are dropped from
 *    letters of the scripts where they are optional in search (`Lösche` meets `losche`,
 *    `café` meets `cafe`, Greek tonos, Arabic and Hebrew vowel points). Marks that make another
 *    letter elsewhere stay (Cyrillic й is not и, Devanagari vowel signs, Thai vowels, Japanese
 *    dakuten): dropping them changes the word. A few letters fold by hand (ß → ss, æ → ae,
 *    ø → o, and Russian ё → е, which Russian writes either way).
 *    Only terms are folded: what a person or an agent reads is never touched.
 * 2. Runs (wordRuns): letters and digits in a row, cut where an unspaced script (Chinese,
 *    Japanese, Korean, Thai…) meets another, so "在GitHub上创建issue" is 在 | GitHub | 上创建 |
 *    issue. A run of an unspaced script has no word boundaries to find, so it is indexed as
 *    its overlapping character pairs (unspacedTerms: 上创建 → 上创, 创建), as Lucene's CJK
 *    bigram filter does. Pairs, not a dictionary segmenter (Intl.Segmenter): they need no
 *    data, give the same terms on every runtime and ICU version (what a past request taught
 *    must match the same request later), and find a word however a dictionary would cut it
 *    (ICU 78 cuts 数据库表 as 数据 | 库 | 表 and 截图 as 截 | 图). Words of spaced scripts
 *    (Latin, Cyrillic, Greek, German compounds) are left whole for tokenize.ts.
 */

/**
 * Scripts written without spaces between words, plus Hangul (spaced, but a word carries its
 * particles: 데이터베이스의), as a regex class body. U+30FC (the katakana long-vowel mark ー)
 * is Script=Common but only ever inside kana words.
 */
export const UNSPACED_SCRIPTS =
  '\\p{sc=Han}\\p{sc=Hiragana}\\p{sc=Katakana}\\p{sc=Hangul}\\p{sc=Thai}\\p{sc=Lao}\\p{sc=Khmer}\\p{sc=Myanmar}\\u30FC';

/** Scripts whose combining marks (accents, vowel points) are optional in search. */
const FOLDED_MARKS = new RegExp('([\\p{sc=Latin}\\p{sc=Greek}\\p{sc=Arabic}\\p{sc=Hebrew}])\\p{M}+', 'gu');

/** Letters people write without their stroke, as two letters, or (ё) as another letter; after NFC. */
const LETTER_FOLDS: Readonly<Record<string, string>> = {
  ß: 'ss',
  ẞ: 'SS',
  æ: 'ae',
  Æ: 'AE',
  œ: 'oe',
  Œ: 'OE',
  ø: 'o',
  Ø: 'O',
  ł: 'l',
  Ł: 'L',
  đ: 'd',
  Đ: 'D',
  ı: 'i',
  þ: 'th',
  Þ: 'TH',
  ё: 'е',
  Ё: 'Е',
};
const FOLDED_LETTERS = new RegExp(`[${Object.keys(LETTER_FOLDS).join('')}]`, 'gu');

/**
 * The text as terms should see it (see the header); ASCII text is returned as it is. Case is
 * kept (camel-case splitting needs it). NFC at the end puts back together what NFKD took
 * apart and no accent was dropped from (Hangul syllables, が, Devanagari).
 */
export function foldForMatching(text: string): string {
  if (!/[^\x00-\x7f]/.test(text)) return text;
  return text.normalize('NFKD').replace(FOLDED_MARKS, '$1').normalize('NFC').replace(FOLDED_LETTERS, foldLetter);
}

/** A capital that folds to two letters is written Ae before a lowercase letter (Ærø), AE in capitals (ÆRØ), so camel case stays as it was. */
function foldLetter(c: string, offset: number, text: string): string {
  const folded = LETTER_FOLDS[c] ?? c;
  if (folded.length < 2 || folded === folded.toLowerCase() || !/\p{Ll}/u.test(text[offset + 1] ?? '')) return folded;
  return folded[0]! + folded.slice(1).toLowerCase();
}

/** One run of a folded text: a word (identifier) of a spaced script, or a run of an unspaced one. */
export interface WordRun {
  text: string;
  unspaced: boolean;
}

const ASCII_RUN = /[A-Za-z0-9]+/g;
/**
 * An unspaced run (its characters with their marks), or a spaced word: a letter or digit, then
 * letters, digits and marks (a Devanagari word keeps its vowel signs), none of them unspaced.
 * Every character is tested a fixed number of times: linear.
 */
const ANY_RUN = new RegExp(
  `((?:[${UNSPACED_SCRIPTS}]\\p{M}*)+)|(?![${UNSPACED_SCRIPTS}])[\\p{L}\\p{N}](?:(?![${UNSPACED_SCRIPTS}])[\\p{L}\\p{N}\\p{M}])*`,
  'gu',
);

/**
 * The last text cut into runs, and its runs: a request's analysis reads the same text several
 * times (its words, its camel-case names, its action, the products it names), and a long one in
 * a mix of scripts is tens of thousands of runs. One entry: nothing else is kept.
 */
let lastRuns: { text: string; runs: readonly WordRun[] } | undefined;

/** The runs of a text, folded for matching (foldForMatching), in order. Not to be changed by the caller. */
export function wordRuns(text: string): readonly WordRun[] {
  if (lastRuns?.text === text) return lastRuns.runs;
  const out: WordRun[] = [];
  if (!/[^\x00-\x7f]/.test(text)) {
    for (const m of text.matchAll(ASCII_RUN)) out.push({ text: m[0], unspaced: false });
  } else {
    for (const m of foldForMatching(text).matchAll(ANY_RUN)) out.push({ text: m[0], unspaced: m[1] !== undefined });
  }
  // Short texts (tool fields at indexing, one word) are cheap to cut again, and many.
  if (text.length >= 256) lastRuns = { text, runs: out };
  return out;
}

/**
 * The terms of an unspaced run: its overlapping pairs of characters (a character with its
 * marks counts as one), or the one character of a run of one. Lowercase has no meaning here.
 */
export function unspacedTerms(run: string): string[] {
  const chars = /\p{M}/u.test(run) ? (run.match(/\P{M}\p{M}*/gu) ?? []) : Array.from(run);
  if (chars.length <= 1) return chars;
  const out: string[] = [];
  for (let i = 1; i < chars.length; i++) out.push(chars[i - 1]! + chars[i]!);
  return out;
}
