/**
 * "Did you mean" for unknown tool names: an agent that misspells or half-remembers a name
 * gets the closest real names back, so it can correct itself in one step.
 */
import { capLength, stripControls } from '../../../protocol/untrustedText';

/**
 * The one "unknown tool" text, for call_tool, direct calls, run_code and get_tool_schema
 * alike. An excluded tool gets exactly this text too: exclusion is not revealed.
 */
export function unknownToolMessage(name: string, candidates: readonly string[]): string {
  const near = closestNames(name, candidates);
  const hint = near.length ? ` Did you mean: ${near.join(', ')}?` : ' Use find_tools to search for the right tool.';
  return `Unknown tool "${capLength(stripControls(name), 100)}".${hint}`;
}

/**
 * Up to `limit` candidates closest to `name`, best first; none when nothing is close.
 * `normalized`: the candidates as normalizeName gives them, when a caller keeps them.
 */
export function closestNames(
  name: string,
  candidates: readonly string[],
  limit = 3,
  normalized?: readonly string[],
): string[] {
  const wanted = normalize(name);
  if (wanted === '') return [];
  const wantedLetters = letterCounts(wanted);
  const scored: { candidate: string; score: number }[] = [];
  for (let i = 0; i < candidates.length; i++) {
    const candidate = candidates[i]!;
    const c = normalized?.[i] ?? normalize(candidate);
    // The distance is at least the difference in length: a name that long cannot reach the
    // threshold by similarity (at 100,000 tools, most of the time went to such names).
    let score = similarityBound(wanted, c) < MIN_SCORE ? 0 : similarity(wanted, c, wantedLetters);
    // Agents often drop or add the server prefix: `get_sum` for `everything_get-sum`.
    if (c.endsWith(wanted) || wanted.endsWith(c)) score = Math.max(score, 0.8);
    else if (c.includes(wanted) || wanted.includes(c)) score = Math.max(score, 0.6);
    if (score >= MIN_SCORE) scored.push({ candidate, score });
  }
  scored.sort((a, b) => b.score - a.score || a.candidate.localeCompare(b.candidate));
  return scored.slice(0, limit).map((s) => s.candidate);
}

/** Least similarity a suggestion has. */
const MIN_SCORE = 0.45;

/** similarity(a, b) is at most this: the edit distance is at least the difference in length. */
function similarityBound(a: string, b: string): number {
  const longest = Math.max(a.length, b.length);
  return longest === 0 ? 1 : 1 - Math.abs(a.length - b.length) / longest;
}

/** A name as closestNames compares it: lowercase letters and digits only. */
export function normalizeName(s: string): string {
  return normalize(s);
}

function normalize(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, '');
}

/**
 * 1 − normalized Levenshtein distance, or 0 when it is below MIN_SCORE (then its exact value
 * changes nothing: closestNames drops it or raises it to a prefix score above it).
 */
function similarity(a: string, b: string, aLetters: Int32Array): number {
  const longest = Math.max(a.length, b.length);
  if (longest === 0) return 1;
  const max = Math.floor((1 - MIN_SCORE) * longest) + 1;
  if (letterDifference(aLetters, b) > max) return 0;
  const d = a.length <= 32 ? bitParallelDistance(a, b) : levenshteinWithin(a, b, max);
  return d === undefined || d > max ? 0 : 1 - d / longest;
}

/** Per character code, the bits of the positions where it occurs in the last pattern (bitParallelDistance). */
const positions = new Int32Array(128);
let positionsOf = '';

/**
 * The Levenshtein distance of a (at most 32 characters, normalized) and b, with one 32-bit
 * word per column (Myers 1999, Hyyrö's formulation): each vertical delta of a column is a bit,
 * so a name costs O(its length), not a table. The whole query compared with every name of an
 * organisation's catalog took a second with the table.
 */
export function bitParallelDistance(a: string, b: string): number {
  if (a.length === 0) return b.length;
  if (positionsOf !== a) {
    positions.fill(0);
    for (let i = 0; i < a.length; i++) positions[a.charCodeAt(i) & 127]! |= 1 << i;
    positionsOf = a;
  }
  const last = 1 << (a.length - 1);
  let plus = -1; // vertical +1 deltas
  let minus = 0; // vertical −1 deltas
  let distance = a.length;
  for (let j = 0; j < b.length; j++) {
    const code = b.charCodeAt(j);
    let eq = code < 128 ? positions[code]! : 0;
    const xv = eq | minus;
    eq |= ((eq & plus) + plus) ^ plus;
    let hPlus = minus | ~(eq | plus);
    const hMinus = plus & eq;
    if (hPlus & last) distance++;
    else if (hMinus & last) distance--;
    hPlus = (hPlus << 1) | 1;
    plus = (hMinus << 1) | ~(xv | hPlus);
    minus = hPlus & xv;
  }
  return distance;
}

/** How many times each character (normalized: a-z, 0-9) occurs in a name. */
function letterCounts(s: string): Int32Array {
  const counts = new Int32Array(128);
  for (let i = 0; i < s.length; i++) counts[s.charCodeAt(i) & 127]!++;
  return counts;
}

const letterScratch = new Int32Array(128);

/**
 * A lower bound of the edit distance in O(length): each edit fixes at most one surplus and one
 * missing character, so the distance is at least the larger of the two counts. It rules out
 * most names at once, without a distance table.
 */
function letterDifference(aLetters: Int32Array, b: string): number {
  letterScratch.set(aLetters);
  for (let i = 0; i < b.length; i++) letterScratch[b.charCodeAt(i) & 127]!--;
  let surplus = 0;
  let missing = 0;
  for (let k = 0; k < 128; k++) {
    const v = letterScratch[k]!;
    if (v > 0) surplus += v;
    else missing -= v;
  }
  return Math.max(surplus, missing);
}

/** Rows of the distance table, reused: a no-match answer compares the query with every name (200,000 at 100,000 tools). */
let rowA = new Int32Array(64);
let rowB = new Int32Array(64);

/**
 * The Levenshtein distance of a and b, or undefined once it must exceed `max` (every cell of a
 * row is above it): most names are far from the query, and the rest of their table is skipped.
 */
function levenshteinWithin(a: string, b: string, max: number): number | undefined {
  if (rowA.length <= b.length) ((rowA = new Int32Array(b.length + 1)), (rowB = new Int32Array(b.length + 1)));
  let prev = rowA;
  let cur = rowB;
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (ca === b.charCodeAt(j - 1) ? 0 : 1));
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return undefined;
    [prev, cur] = [cur, prev];
  }
  return prev[b.length]!;
}
