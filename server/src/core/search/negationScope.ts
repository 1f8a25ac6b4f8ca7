/**
 * Negation scope: the words of a tool's description that say what the tool does *not* do
 * ("without reading the actual content", "does not create the application", "use read_text_file
 * instead", "rather than the full object") are evidence against the tool, not for it, so the
 * keyword index does not read them as the tool's words (catalogTokens.ts). Like NegEx (Chapman
 * et al., 2001): a trigger opens a scope over the next few words, which ends early at the end
 * of the clause or at a word that starts another one ("but", "which", "when"…).
 *
 * - A trigger inside a condition ("if the file cannot be read", "when you don't know where it
 *   is", "if not provided") says nothing about what the tool does: it opens no scope; nor does
 *   a passive one ("the last page cannot be closed", "non-members will not be ranked"), which
 *   says what becomes of the things the tool acts on.
 * - "use X instead" and "instead, use X" name another tool: X's words are not this tool's.
 * - In a sentence that marks the tool deprecated, and the one after it, "use X", "in favor of
 *   X", "replaced by X" name its replacement (deprecatedFor reads the name; the deprecation
 *   signal makes the tool yield to it).
 *
 * The triggers are English, German, French and Spanish words that come before what they
 * negate. Chinese and Japanese are left out: Chinese negators begin ordinary words (不同
 * "different", 不断 "continuously"), which text cut into character pairs cannot tell from a
 * negation, and Japanese negates after the verb. Pure and linear in the text's length.
 */

/** A word of the text and where it is. */
interface Word {
  /** Lowercased, accents dropped. */
  readonly w: string;
  readonly start: number;
  readonly end: number;
  /** The text between the previous word and this one ends a clause (. ; : ! ? ( ) newline, list marks). */
  readonly clauseStart: boolean;
  /** …or only a comma (a condition ends there: "if not provided, …"). */
  readonly afterComma: boolean;
}

/** Words that negate what follows them. */
const NEGATORS: ReadonlySet<string> = new Set([
  'not',
  'no',
  'never',
  'without',
  'cannot',
  'nor',
  'neither',
  // German, French, Spanish
  'ohne',
  'nicht',
  'kein',
  'keine',
  'keinen',
  'keinem',
  'keiner',
  'keines',
  'nie',
  'niemals',
  'statt',
  'anstatt',
  'anstelle',
  'sans',
  'jamais',
  'ne',
  'nunca',
  'jamas',
]);

/** Two-word openers: "instead of", "rather than", "no longer"… (the first word, then the second). */
const NEGATOR_PAIRS: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['instead', new Set(['of'])],
  ['rather', new Set(['than'])],
  ['plutot', new Set(['que'])],
]);

/** Three-word openers. */
const NEGATOR_TRIPLES: readonly (readonly [string, string, string])[] = [
  ['au', 'lieu', 'de'],
  ['en', 'lugar', 'de'],
  ['en', 'vez', 'de'],
];

/** A negator followed by one of these is no negation ("not only…but also", "no matter"). */
const NOT_NEGATING_NEXT: ReadonlySet<string> = new Set(['only', 'just', 'matter', 'necessarily', 'doubt']);

/** Words that open a condition: a negation after them, in the same clause, is part of the condition. */
const CONDITIONS: ReadonlySet<string> = new Set([
  'if',
  'when',
  'whenever',
  'unless',
  'whether',
  'until',
  'wenn',
  'falls',
  'ob',
  'si',
  'quand',
  'lorsque',
  'cuando',
]);

/** After a negation, these make it passive or a state ("cannot be undone"): about the objects, not the tool. */
const PASSIVE: ReadonlySet<string> = new Set(['be', 'been', 'being']);

/** Words that start another clause and so end a scope. */
const SCOPE_ENDS: ReadonlySet<string> = new Set([
  'but',
  'however',
  'although',
  'though',
  'which',
  'while',
  'whereas',
  'because',
  'since',
  'so',
  'yet',
  'except',
  'instead',
  'then',
  'when',
  'where',
  'if',
  'unless',
  'until',
  'aber',
  'sondern',
  'mais',
  'pero',
  'sino',
]);

/** After "deprecated", these name the replacement. */
const REPLACEMENT_OPENERS: ReadonlySet<string> = new Set(['use', 'see', 'favor', 'favour', 'replaced', 'superseded']);

/** Where a clause ends between two words: sentence marks (a period only before a space or the end), brackets, line breaks, list marks. */
const CLAUSE_END = /[.!?](?:\s|$)|[;:()[\]{}\n|•*—–]|\s-\s/;

const WORD = /[\p{L}\p{N}][\p{L}\p{N}\p{M}_'’-]*/gu;

function words(text: string): Word[] {
  const out: Word[] = [];
  let last = 0;
  for (const m of text.matchAll(WORD)) {
    const start = m.index;
    const gap = text.slice(last, start);
    let w = m[0].toLowerCase();
    if (/[^\x00-\x7f]/.test(w)) w = w.normalize('NFD').replace(/\p{M}/gu, '');
    out.push({ w, start, end: start + m[0].length, clauseStart: CLAUSE_END.test(gap), afterComma: gap.includes(',') });
    last = start + m[0].length;
  }
  return out;
}

/** "doesn't", "can't", "won't", French "n'est", "n'accepte": a negation written into the word. */
function contracted(w: string): boolean {
  return /n['’]t$/.test(w) || /^n['’]\p{L}/u.test(w);
}

/** The [start, end) character ranges of `text` inside a negation's scope, `window` words at most each (0: none). */
export function negatedSpans(text: string, window: number): [number, number][] {
  if (window <= 0 || text === '') return [];
  const ws = words(text);
  const spans: [number, number][] = [];
  /** A condition word ("if", "when"…) since the clause or its last comma: negations there are part of it. */
  let conditional = false;
  /** Sentences since one that said "deprecated" (replacements are named in it or the next). */
  let sinceDeprecated = Infinity;
  for (let i = 0; i < ws.length; i++) {
    const word = ws[i]!;
    if (word.clauseStart && sentenceEnds(text, ws, i)) sinceDeprecated++;
    if (word.clauseStart || word.afterComma) conditional = false;
    if (CONDITIONS.has(word.w)) conditional = true;
    if (word.w.startsWith('deprecat')) sinceDeprecated = 0;
    const opened = conditional ? undefined : scopeOpenedAt(ws, i, sinceDeprecated <= 1);
    // "cannot be undone", "will not be ranked": a state of what the tool acts on, not a thing it does not do.
    if (opened === undefined || PASSIVE.has(ws[opened]?.w ?? '')) continue;
    const to = listAfterColon(text, ws, opened, scopeEnd(ws, opened, window), window);
    spans.push([word.start, ws[Math.max(to, opened) - 1]!.end]);
  }
  for (let i = 0; i < ws.length; i++)
    if (ws[i]!.w === 'instead' && ws[i + 1]?.w !== 'of') useBefore(ws, i, window, spans);
  return merged(spans);
}

/**
 * Where the scope of a negation at word `i` starts (the index of its first negated word), or
 * undefined when word `i` opens none. `deprecated`: a sentence said the tool is deprecated, so
 * "use X" and "in favor of X" name its replacement.
 */
function scopeOpenedAt(ws: readonly Word[], i: number, deprecated: boolean): number | undefined {
  const w = ws[i]!.w;
  const next = ws[i + 1]?.w;
  if (NEGATORS.has(w)) {
    if (next !== undefined && NOT_NEGATING_NEXT.has(next)) return undefined;
    // "whether or not": a condition, with nothing after it.
    if (w === 'not' && ws[i - 1]?.w === 'or') return undefined;
    return i + 1;
  }
  if (contracted(w)) return i + 1;
  if (next !== undefined && NEGATOR_PAIRS.get(w)?.has(next)) return i + 2;
  for (const [a, b, c] of NEGATOR_TRIPLES) if (w === a && next === b && ws[i + 2]?.w === c) return i + 3;
  if (deprecated && REPLACEMENT_OPENERS.has(w)) return next === 'of' || next === 'by' ? i + 2 : i + 1;
  return undefined;
}

/** A sentence ends between word `i` and the one before it. */
function sentenceEnds(text: string, ws: readonly Word[], i: number): boolean {
  return /[.!?\n]/.test(text.slice(ws[i - 1]?.end ?? 0, ws[i]!.start));
}

/** The index after the last word of a scope that starts at `from`: `window` words at most, and never past the clause. */
function scopeEnd(ws: readonly Word[], from: number, window: number): number {
  let to = from;
  while (to < ws.length && to - from < window && !endsScope(ws[to]!)) to++;
  return to;
}

/**
 * "Not recommended for: multiple pages, unknown locations." — a negation that ends at a colon
 * within two words introduces a list of what the tool is not for: the scope runs on to the end
 * of the sentence or line, `window` × 3 words at most.
 */
function listAfterColon(text: string, ws: readonly Word[], from: number, to: number, window: number): number {
  const next = ws[to];
  if (!next || to - from > 2 || !text.slice(ws[to - 1]?.end ?? 0, next.start).includes(':')) return to;
  let end = to + 1;
  while (end < ws.length && end - to < window * 3 && !sentenceEnds(text, ws, end)) end++;
  return end;
}

function endsScope(word: Word): boolean {
  return word.clauseStart || word.afterComma || SCOPE_ENDS.has(word.w);
}

/** "use X instead" / "instead, use X": the words of X, `window` at most. */
function useBefore(ws: readonly Word[], at: number, window: number, spans: [number, number][]): void {
  // Back to "use" in the same clause.
  for (let j = at - 1; j >= 0 && at - j <= window + 1; j--) {
    if (ws[j]!.w === 'use' && j + 1 < at) {
      spans.push([ws[j + 1]!.start, ws[at]!.end]);
      return;
    }
    if (ws[j]!.clauseStart) break;
  }
  // Forward: "instead, use X" / "instead use X".
  if (ws[at + 1]?.w === 'use' && !ws[at + 1]!.clauseStart) {
    const to = scopeEnd(ws, at + 2, window);
    if (to > at + 2) spans.push([ws[at]!.start, ws[to - 1]!.end]);
  }
}

function merged(spans: [number, number][]): [number, number][] {
  spans.sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const s of spans) {
    const last = out[out.length - 1];
    if (last && s[0] <= last[1]) last[1] = Math.max(last[1], s[1]);
    else out.push([s[0], s[1]]);
  }
  return out;
}

/** A text's words that are inside a negation's scope, and the rest. */
export interface NegationSplit {
  /** The text with its negated spans blanked (the rest keeps its clauses); the text itself when there are none. */
  affirmed: string;
  /** The negated spans, one after another; '' when there are none. */
  negated: string;
}

export function splitNegation(text: string, window: number): NegationSplit {
  const spans = negatedSpans(text, window);
  if (spans.length === 0) return { affirmed: text, negated: '' };
  let affirmed = '';
  let at = 0;
  for (const [start, end] of spans) {
    affirmed += text.slice(at, start) + ' ';
    at = end;
  }
  return {
    affirmed: affirmed + text.slice(at),
    negated: spans.map(([start, end]) => text.slice(start, end)).join(' ; '),
  };
}

/** Marks an index term as negated: `¬read` is "says it does not read", never `read`. */
export const NEGATED = '¬';

/**
 * The tool names a deprecated tool's description points to as its replacement ("DEPRECATED:
 * use read_text_file instead", "deprecated in favor of `search_v2`"), as written, in order; none
 * when the description does not say it is deprecated. The caller keeps only names of real tools.
 */
export function deprecatedFor(text: string): string[] {
  if (!/deprecat/i.test(text)) return [];
  const out: string[] = [];
  const ws = words(text);
  let sinceDeprecated = Infinity;
  for (let i = 0; i < ws.length; i++) {
    const word = ws[i]!;
    if (word.clauseStart && sentenceEnds(text, ws, i)) sinceDeprecated++;
    if (word.w.startsWith('deprecat')) sinceDeprecated = 0;
    if (sinceDeprecated > 1 || !REPLACEMENT_OPENERS.has(word.w)) continue;
    const skip = ws[i + 1]?.w === 'of' || ws[i + 1]?.w === 'by' ? 2 : 1;
    // The name, and the word after it ("use the read_text_file tool": the name may follow "the").
    for (const name of [ws[i + skip], ws[i + skip + 1]])
      if (name && !name.clauseStart) out.push(text.slice(name.start, name.end));
  }
  return out;
}
