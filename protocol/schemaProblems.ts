/**
 * What a schema found wrong with a value, in words a person or a model can act on: the field by
 * name (`"keywords[3]"`) and what it must be, never the value itself. A value may hold a secret,
 * and a megabyte of it must not come back as a megabyte of error. The meta-tools' arguments
 * (gateway/metaToolArgs.ts), the sidecar's LSP parameters and the settings' warnings all say it
 * the same way.
 */
import type * as z from 'zod/mini';
import { capLength, oneLine } from './untrustedText';

/** More problems than this are counted, not listed (an array of 10,000 wrong items is one mistake). */
const MAX_PROBLEMS = 5;

/** `"keywords[3]"` for ['keywords', 3]: the field, never its value. */
export function fieldName(path: readonly PropertyKey[]): string {
  const [first, ...rest] = path.map(String);
  return `"${first ?? ''}${rest.map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${p}`)).join('')}"`;
}

/** What the value at an issue's path must be, e.g. `must be a string`, `is longer than 128 characters, the limit`. */
export function mustBe(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return `must be ${article(kindName(issue.expected))}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'too_big':
      if (issue.origin === 'string') return `is longer than ${String(issue.maximum)} characters, the limit`;
      if (issue.origin === 'array') return `has more than ${String(issue.maximum)} items, the limit`;
      return `must be at most ${String(issue.maximum)}`;
    case 'too_small':
      if (issue.origin === 'string' || issue.origin === 'array') return 'must not be empty';
      return `must be at least ${String(issue.minimum)}`;
    default:
      return 'is not valid';
  }
}

function kindName(expected: string): string {
  if (expected === 'int') return 'integer';
  return expected === 'record' ? 'object' : expected;
}

function article(kind: string): string {
  return `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind}`;
}

export interface ProblemWords {
  /** The value the issues are about: tells a missing field from a wrong one. */
  value: unknown;
  /** What a missing top-level field is for, to say with "needs". */
  about?: (field: string) => string | undefined;
  /** The fields the value may have, to list when it has another. */
  fields?: readonly string[];
}

/** One line of problems, `; `-joined, the first five listed and the rest counted; duplicates said once. */
export function problemsText(issues: readonly z.core.$ZodIssue[], words: ProblemWords): string {
  const problems = [...new Set(issues.flatMap((i) => problemText(i, words)))];
  const shown = problems.slice(0, MAX_PROBLEMS).join('; ');
  return problems.length > MAX_PROBLEMS ? `${shown}; and ${problems.length - MAX_PROBLEMS} more` : shown;
}

function problemText(issue: z.core.$ZodIssue, words: ProblemWords): string[] {
  if (issue.code === 'unrecognized_keys') {
    const known = words.fields?.join(', ') || 'none';
    // A name a caller used is shown (cut, on one line) so a typo can be seen; the known ones follow.
    return issue.keys.map((k) => `has no argument "${capLength(oneLine(k), 60)}" (its arguments: ${known})`);
  }
  // A check of the schema's own (say, that an expression compiles) words its problem itself, field named.
  if (issue.code === 'custom') return [issue.message];
  const [top] = issue.path;
  const missing =
    issue.code === 'invalid_type' &&
    issue.path.length === 1 &&
    typeof words.value === 'object' &&
    words.value !== null &&
    (words.value as Record<PropertyKey, unknown>)[top!] === undefined;
  if (missing) {
    const about = words.about?.(String(top));
    return [`needs ${fieldName(issue.path)}${about ? ` (${about.replace(/\.$/, '')})` : ''}`];
  }
  // The value as a whole (no field): what it must be, said of it.
  return [issue.path.length === 0 ? mustBe(issue) : `${fieldName(issue.path)} ${mustBe(issue)}`];
}
