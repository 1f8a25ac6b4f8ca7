/**
 * Figures as words, worded the same in the dashboard, the editor and the CLI: a count with
 * its noun in the right number, a share as a percentage, and a change in tokens as a saving
 * or, when MCP Lens sends more than the servers would, as a cost. Pure: no I/O.
 */

/** The noun for `count`: `pluralNoun(1, 'call')` → "call", `pluralNoun(2, 'query', 'queries')` → "queries". */
export function pluralNoun(count: number, singular: string, pluralForm = `${singular}s`): string {
  return Math.abs(count) === 1 ? singular : pluralForm;
}

/** A count and its noun: `plural(1, 'call')` → "1 call", `plural(1234, 'tool')` → "1,234 tools". */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count.toLocaleString('en-US')} ${pluralNoun(count, singular, pluralForm)}`;
}

/** `part` of `whole` as a whole percentage ("62%"); "n/a" when there is no whole. */
export function percentText(part: number, whole: number): string {
  return whole > 0 ? `${Math.round((part / whole) * 100)}%` : 'n/a';
}

/** What MCP Lens's tools/list costs against every server's own, in words. */
export interface TokenChange {
  /** `saving`: fewer tokens than the servers' own lists; `cost`: more; `even`: the same. */
  kind: 'saving' | 'cost' | 'even';
  /** The size of the change, unsigned, one decimal: "21.1%". */
  percent: string;
  /** "fewer", "more" or "as many". */
  comparative: string;
  /** The difference in tokens, unsigned. */
  tokens: number;
}

/**
 * A saving stays a saving and a cost is worded as a cost: never "-21.1% fewer".
 * `savingsPercent` is the one the sidecar computed (core/tokens.ts); its sign is not trusted
 * on its own because it is rounded, the token counts decide.
 */
export function tokenChange(t: { baselineTokens: number; exposedTokens: number; savingsPercent: number }): TokenChange {
  const tokens = Math.abs(t.baselineTokens - t.exposedTokens);
  const percent = `${Math.abs(t.savingsPercent).toFixed(1)}%`;
  if (t.exposedTokens < t.baselineTokens) return { kind: 'saving', percent, comparative: 'fewer', tokens };
  if (t.exposedTokens > t.baselineTokens) return { kind: 'cost', percent, comparative: 'more', tokens };
  return { kind: 'even', percent: '0.0%', comparative: 'as many', tokens: 0 };
}

/**
 * Why an exposure mode can cost more than the servers' own lists, and what to do instead.
 * Shown next to a cost so it reads as a trade-off the user can change, not a fault.
 */
export function tokenCostReason(exposure: string): string {
  if (exposure === 'all')
    return 'All mode lists every tool plus the MCP Lens meta-tools, so each request carries more than the servers\' own lists. Set mcpLens.exposure to "search" or "predictive" to save tokens.';
  if (exposure === 'pinned')
    return 'The pinned tools plus the MCP Lens meta-tools cost more than the servers\' own lists. Pin fewer tools, or set mcpLens.exposure to "search".';
  return 'With this few tools, the MCP Lens meta-tools cost more than the tools themselves; the saving grows with the catalog.';
}
