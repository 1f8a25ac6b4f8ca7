/**
 * What a learned file (learnedFile.ts) must be before any of it is believed: exactly what MCP
 * Lens writes, every value in its range. All or nothing: one entry that MCP Lens could not have
 * written (a forged weight of 50, an unknown field, a term with markup in it) and the whole file
 * is not trusted, since whoever wrote that one wrote the rest too.
 *
 * Format 2 carries who taught each example (`by`, usage/learnedProvenance.ts). A format 1 file (before
 * provenance was kept) is read with every example taught by one earlier teacher, LEGACY_TEACHER:
 * it counts for no session until a session of today teaches the same words. A format 1 file may
 * carry `spellings` (term → the word as typed, one map for the whole file, as MCP Lens wrote it
 * before each example kept its own words): checked as an example's words are, each of its terms a
 * term of the file's examples, and read into the examples' words.
 */
import { LEARNED_BOUNDS, type LearnedExample } from '../../core/usage/learnedExamples';
import { LEARNED_WORD, MAX_LEARNED_TERMS } from '../../core/usage/learnedTerms';

export const LEARNED_FORMAT = 2;
/** Who taught the examples of a format 1 file. */
export const LEGACY_TEACHER = 'earlier';
/** A teacher id as MCP Lens writes it (usage/learnedProvenance.ts), or LEGACY_TEACHER. */
const TEACHER = /^(?:[0-9a-f]{16}|earlier)$/;
/** The deepest the file nests: the file, its examples, an example, its terms. */
export const MAX_LEARNED_DEPTH = 4;
const MAX_KEY_LENGTH = 1024;
/** A format 1 file weighed an example up to 4 (the same request taught again): read as one. */
const FORMAT_1_MAX_WEIGHT = 4;
/** An example taught later than this past now is not one MCP Lens wrote. */
const CLOCK_SKEW_MS = 24 * 60 * 60 * 1000;
const FIELDS = new Set(['terms', 'words', 'key', 'server', 'fingerprint', 'weight', 'count', 'at', 'by', 'shared']);

export type LearnedCheck = { examples: LearnedExample[] } | { bad: string };

/** Checks a learned file's text (at most MAX_LEARNED_FILE_BYTES, read by the caller). */
export function checkLearnedText(text: string, now: number): LearnedCheck {
  const depth = nestingDepth(text, MAX_LEARNED_DEPTH);
  if (depth > MAX_LEARNED_DEPTH)
    return { bad: `it nests deeper than ${MAX_LEARNED_DEPTH} levels, as MCP Lens never writes` };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { bad: 'it is not valid JSON' };
  }
  const file = parsed as { format?: unknown; examples?: unknown; spellings?: unknown } | null;
  if (!file || typeof file !== 'object' || (file.format !== 1 && file.format !== 2) || !Array.isArray(file.examples))
    return { bad: `it is not a format ${LEARNED_FORMAT} learned-search file` };
  if (file.examples.length > LEARNED_BOUNDS.maxExamples)
    return {
      bad: `it holds ${file.examples.length} examples, more than the ${LEARNED_BOUNDS.maxExamples} MCP Lens keeps`,
    };
  const examples: LearnedExample[] = [];
  for (const [i, raw] of file.examples.entries()) {
    const e = file.format === 1 ? checkFormat1(raw, now) : checkExample(raw, now);
    if (typeof e === 'string') return { bad: `its example ${i + 1} is not one MCP Lens writes: ${e}` };
    examples.push(e);
  }
  if (file.spellings === undefined) return { examples };
  if (file.format !== 1) return { bad: 'it holds "spellings", which a format 2 file keeps in its examples' };
  const spellings = checkSpellings(file.spellings, examples);
  if (typeof spellings === 'string') return { bad: `its spellings are not what MCP Lens writes: ${spellings}` };
  return { examples: examples.map((e) => ({ ...e, words: e.terms.map((t) => spellings.get(t) ?? t) })) };
}

/** A format 1 file's spellings: one typed word for each of some of its examples' terms. */
function checkSpellings(raw: unknown, examples: readonly LearnedExample[]): Map<string, string> | string {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return 'not an object';
  const terms = new Set(examples.flatMap((e) => e.terms));
  const out = new Map<string, string>();
  for (const [term, word] of Object.entries(raw as Record<string, unknown>)) {
    if (!terms.has(term)) return `a term no example holds (${JSON.stringify(term.slice(0, 40))})`;
    if (!isWord(word)) return `the word for ${JSON.stringify(term)} is not one word of letters and digits`;
    out.set(term, word as string);
  }
  return out;
}

/**
 * How deep `text` nests arrays and objects, counted outside strings, stopping once past `limit`:
 * one pass over the text, before it is parsed.
 */
export function nestingDepth(text: string, limit: number): number {
  let depth = 0;
  let most = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > most && (most = depth) > limit) return most;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return most;
}

function checkExample(raw: unknown, now: number): LearnedExample | string {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return 'not an object';
  const e = raw as Record<string, unknown>;
  const unknown = Object.keys(e).find((k) => !FIELDS.has(k));
  if (unknown !== undefined) return `a field MCP Lens does not write (${JSON.stringify(unknown.slice(0, 40))})`;
  if (typeof e.by !== 'string' || !TEACHER.test(e.by)) return 'who taught it is not recorded as MCP Lens records it';
  if (e.shared !== undefined && e.shared !== true) return '"shared" is neither absent nor true';
  const common = checkCommon(e, LEARNED_BOUNDS.maxWeight, now);
  if (typeof common === 'string') return common;
  const words = e.words;
  if (!Array.isArray(words) || words.length !== common.terms.length || !words.every(isWord))
    return 'its words are not one word as typed per term';
  return { ...common, words: words as string[], by: e.by, ...(e.shared === true && { shared: true as const }) };
}

function checkFormat1(raw: unknown, now: number): LearnedExample | string {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return 'not an object';
  const common = checkCommon(raw as Record<string, unknown>, FORMAT_1_MAX_WEIGHT, now);
  if (typeof common === 'string') return common;
  const weight = Math.max(-LEARNED_BOUNDS.maxWeight, Math.min(LEARNED_BOUNDS.maxWeight, common.weight));
  return { ...common, weight, words: common.terms, by: LEGACY_TEACHER };
}

function checkCommon(
  e: Record<string, unknown>,
  maxWeight: number,
  now: number,
): Omit<LearnedExample, 'words' | 'by' | 'shared'> | string {
  const terms = e.terms;
  if (!Array.isArray(terms) || terms.length === 0 || terms.length > MAX_LEARNED_TERMS || !terms.every(isWord))
    return `its terms are not 1 to ${MAX_LEARNED_TERMS} words of letters and digits`;
  if (new Set(terms).size !== terms.length) return 'its terms repeat';
  if (!shortString(e.server) || !shortString(e.key) || !(e.key as string).startsWith(`${e.server as string}/`))
    return 'its tool is not named as MCP Lens names tools';
  if (typeof e.fingerprint !== 'string' || !/^[0-9a-f]{16}$/.test(e.fingerprint))
    return 'its fingerprint is not 16 hex digits';
  const weight = e.weight;
  if (typeof weight !== 'number' || !Number.isFinite(weight) || weight === 0 || Math.abs(weight) > maxWeight)
    return `its weight is not a number from -${maxWeight} to ${maxWeight} other than 0`;
  if (!Number.isSafeInteger(e.count) || (e.count as number) < 0) return 'its count is not a whole number';
  if (typeof e.at !== 'number' || !Number.isFinite(e.at) || e.at < 0 || e.at > now + CLOCK_SKEW_MS)
    return 'when it was taught is not a time MCP Lens could have written';
  return {
    terms: terms as string[],
    key: e.key as string,
    server: e.server as string,
    fingerprint: e.fingerprint,
    weight,
    count: e.count as number,
    at: e.at,
  };
}

function isWord(v: unknown): boolean {
  return typeof v === 'string' && LEARNED_WORD.test(v);
}

/** A name of at most MAX_KEY_LENGTH characters without control characters. */
function shortString(v: unknown): boolean {
  return typeof v === 'string' && v.length > 0 && v.length <= MAX_KEY_LENGTH && !/\p{Cc}/u.test(v);
}
