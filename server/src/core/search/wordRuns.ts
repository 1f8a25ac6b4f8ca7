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
export const UNSPACED_SCRIPTS = '\\p{sc=Han}\\p{sc=Hiragana}\\p{sc=Katakana}\\p{sc=Hangul}\\p{sc=Thai}\\p{sc=Lao}\\p{sc=Khmer}\\p{sc=Myanmar}\\u30FC';

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
const UNSPACED_CHAR = new RegExp(`[${UNSPACED_SCRIPTS}]`, 'u');
/**
 * An unspaced run (its characters with their marks), or a spaced word: a letter or digit, then
 * letters, digits and marks (a Devanagari word keeps its vowel signs), none of them unspaced.
 * Every character is tested a fixed number of times: linear.
 */
const ANY_RUN = new RegExp(`(?:[${UNSPACED_SCRIPTS}]\\p{M}*)+|(?![${UNSPACED_SCRIPTS}])[\\p{L}\\p{N}](?:(?![${UNSPACED_SCRIPTS}])[\\p{L}\\p{N}\\p{M}])*`, 'gu');

/** The runs of a text, folded for matching (foldForMatching), in order. */
export function wordRuns(text: string): WordRun[] {
  const out: WordRun[] = [];
  if (!/[^\x00-\x7f]/.test(text)) {
    for (const m of text.matchAll(ASCII_RUN)) out.push({ text: m[0], unspaced: false });
    return out;
  }
  for (const m of foldForMatching(text).matchAll(ANY_RUN)) out.push({ text: m[0], unspaced: UNSPACED_CHAR.test(m[0][0]!) });
  return out;
}

/**
 * The terms of an unspaced run: its overlapping pairs of characters (a character with its
 * marks counts as one), or the one character of a run of one. Lowercase has no meaning here.
 */
export function unspacedTerms(run: string): string[] {
  const chars = run.match(/\P{M}\p{M}*/gu) ?? [];
  if (chars.length <= 1) return chars;
  const out: string[] = [];
  for (let i = 1; i < chars.length; i++) out.push(chars[i - 1]! + chars[i]!);
  return out;
}
