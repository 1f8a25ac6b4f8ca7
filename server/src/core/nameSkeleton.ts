/**
 * Look-alike folding for names, so a tool called `dеlete_repo` (Cyrillic `е`), `ｄｅｌｅｔｅ_repo`
 * or `delete\u200b_repo` is the same name as `delete_repo` wherever a name decides what is
 * hidden. Two steps:
 *  1. `normalizeName` (protocol/untrustedText): NFKC, controls and invisible characters gone;
 *  2. the confusable skeleton of Unicode TR39 (the confusables table, from the `unhomoglyph`
 *     package's data): every character that looks like another maps to one prototype, e.g.
 *     Cyrillic `а`/`е`/`о`/`р` to Latin `a`/`e`/`o`/`p`, `1`/`I`/`|` to `l`, `m` to `rn`.
 * The skeleton is for comparing only: `skeleton(a) === skeleton(b)` means a person could take one
 * for the other. It is case-folded after mapping (exclude patterns ignore case).
 */
import confusables from 'unhomoglyph/data.json';
import { normalizeName } from '../../../protocol/untrustedText';

const TABLE = confusables as Record<string, string>;

function mapConfusables(text: string, keep: (ch: string) => boolean): string {
  let out = '';
  for (const ch of text.normalize('NFD')) out += keep(ch) ? ch : (TABLE[ch] ?? ch);
  return out.normalize('NFD');
}

const never = () => false;

/** The TR39-style skeleton of a name, case-folded. */
export function nameSkeleton(name: string): string {
  return skeletonOf(normalizeName(name), never);
}

/** Glob syntax that must survive folding a pattern (`|` would otherwise become `l`). */
const GLOB_SYNTAX = new Set(['*', '?', '[', ']', '{', '}', '(', ')', '!', '|', ',', '/', '\\', '@', '+', '^']);

/** The skeleton of a glob pattern: its literal characters folded, its glob syntax kept. */
export function patternSkeleton(pattern: string): string {
  return skeletonOf(normalizeName(pattern), (ch) => GLOB_SYNTAX.has(ch));
}

function skeletonOf(text: string, keep: (ch: string) => boolean): string {
  // Case-folding can produce a character that maps again (Cyrillic `І` → `і`), so fold twice.
  return mapConfusables(mapConfusables(text, keep).toLowerCase(), keep);
}
