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
export function closestNames(name: string, candidates: readonly string[], limit = 3, normalized?: readonly string[]): string[] {
  const wanted = normalize(name);
  if (wanted === '') return [];
  const scored: { candidate: string; score: number }[] = [];
  for (let i = 0; i < candidates.length; i++) {
    const candidate = candidates[i]!;
    const c = normalized?.[i] ?? normalize(candidate);
    // The distance is at least the difference in length: a name that long cannot reach the
    // threshold by similarity (at 100,000 tools, most of the time went to such names).
    let score = similarityBound(wanted, c) < MIN_SCORE ? 0 : similarity(wanted, c);
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

/** 1 − normalized Levenshtein distance. */
function similarity(a: string, b: string): number {
  const longest = Math.max(a.length, b.length);
  if (longest === 0) return 1;
  return 1 - levenshtein(a, b) / longest;
}

function levenshtein(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length]!;
}
