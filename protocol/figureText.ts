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

/** 12345 → "12,345", unsigned: the words around it say which way. */
function tokens(n: number): string {
  return Math.abs(Math.round(n)).toLocaleString('en-US');
}

/** What "saved per request" is, in one line, with the two figures it is the difference of. */
export function perRequestMeaning(t: { baselineTokens: number; exposedTokens: number }, exposure: string): string {
  return `Per request: each request the agent sends carries the tool definitions, ${tokens(t.baselineTokens)} tokens with every server listed directly, ${tokens(t.exposedTokens)} through MCP Lens (${exposure} mode).`;
}

/** The figures behind "saved in total" (TokenStats). */
export interface TotalParts {
  baselineTokens: number;
  exposedTokens: number;
  savedTokensTotal: number;
  requests: { toolCalls: number; toolCallSavedTokens: number; searches: number; searchTokens: number };
  shaping?: { savedTokens: number };
  codeMode?: { savedTokens: number };
}

/**
 * What "saved in total" is, in one line, as the sum it is: the tool calls at the per-request
 * saving, the searches' cost, the result tokens kept out. "(2,903 each)" when every call saved
 * what a request saves now, so the two figures read as the same thing.
 */
export function totalMeaning(t: TotalParts): string {
  const r = t.requests;
  const perRequest = t.baselineTokens - t.exposedTokens;
  const calls = `${plural(r.toolCalls, 'agent tool call')} ${r.toolCallSavedTokens < 0 ? 'cost' : 'saved'} ${tokens(r.toolCallSavedTokens)}`;
  const each =
    r.toolCalls > 0 && r.toolCallSavedTokens === r.toolCalls * perRequest
      ? r.toolCalls === 1
        ? ' (the per-request figure)'
        : ` (${tokens(perRequest)} each, the per-request figure)`
      : r.toolCalls > 0
        ? " (each its request's tool definitions, as listed then)"
        : '';
  const searches = `${plural(r.searches, 'search', 'searches')} cost ${tokens(r.searchTokens)} (${r.searches === 1 ? 'its request and answer' : 'their requests and answers'})`;
  const kept = (t.shaping?.savedTokens ?? 0) + (t.codeMode?.savedTokens ?? 0);
  const keptText = kept > 0 ? `, ${tokens(kept)} kept out of tool results` : '';
  return `In total: ${calls}${each}, ${searches}${keptText}.`;
}

/** The total as a figure and its label: a saving, or a cost while searches outweigh the calls so far. */
export function totalFigure(t: Pick<TotalParts, 'savedTokensTotal'>): { value: string; label: string; cost: boolean } {
  const cost = t.savedTokensTotal < 0;
  return {
    value: tokens(t.savedTokensTotal),
    label: cost ? 'more tokens in total so far (searches before the calls they lead to)' : 'tokens saved in total',
    cost,
  };
}

/**
 * How many tool calls the usage log holds and whose they are, so the figure reads beside search
 * quality's "agent calls": "4 tool calls recorded: 1 by agents, 3 by you (dashboard, palette)".
 */
export function usageCallsText(u: { callsRecorded: number; agentCalls?: number }): string {
  const head = `${plural(u.callsRecorded, 'tool call')} recorded`;
  if (u.agentCalls === undefined || u.callsRecorded === 0) return `${head}.`;
  const yours = u.callsRecorded - u.agentCalls;
  const parts = [`${u.agentCalls.toLocaleString('en-US')} by agents`];
  if (yours > 0) parts.push(`${yours.toLocaleString('en-US')} by you (dashboard, palette)`);
  return `${head}: ${parts.join(', ')}. Search quality judges the agents' calls only.`;
}
