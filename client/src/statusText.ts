/** Pure text for the status bar, from the sidecar's last state (unit-tested without VS Code). */
import { plural, tokenChange } from '../../protocol/figureText';
import type { StateChangedParams } from '../../protocol/lspProtocol';

export interface StatusSummary {
  tools: number;
  servers: number;
  indexing: boolean;
  /** Servers in error plus an index error. */
  problems: number;
  savedTokens: number;
  tooltipLines: string[];
  /**
   * What a screen reader announces. Without it VS Code reads the text plus the raw tooltip
   * markdown, where MarkdownString.appendText has turned every space into a literal `&nbsp;`.
   */
  ariaLabel: string;
}

export function formatTokens(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(1)}M`;
  if (n >= 10_000) return `${Math.round(n / 1000)}k`;
  if (n >= 1000) return `${(n / 1000).toFixed(1)}k`;
  return String(n);
}

export function statusSummary(p: StateChangedParams): StatusSummary {
  const failing = p.servers.filter((s) => s.state === 'error');
  const waiting = p.servers.filter((s) => s.state === 'awaiting-approval');
  const indexing = p.index.state === 'indexing';
  const problems = failing.length + (p.index.state === 'error' ? 1 : 0);
  const t = p.stats.tokens;
  // Per request, as the dashboard's figure: the servers' tools/list minus what MCP Lens lists.
  const savedTokens = Math.max(0, t.baselineTokens - t.exposedTokens);
  const change = tokenChange(t);
  const n = (v: number) => v.toLocaleString('en-US');
  const lists = `it lists ${n(t.exposedTokens)} tokens of tool definitions instead of every server's ${n(t.baselineTokens)} (${p.stats.exposure} mode, ${change.percent} ${change.comparative})`;
  const lines = [
    `MCP Lens: ${plural(p.stats.tools, 'tool')} from ${p.servers.filter((s) => s.state === 'ready').length}/${plural(p.servers.length, 'server')}`,
    change.kind === 'cost'
      ? `Costs ${plural(change.tokens, 'token')} more in every request the agent sends: ${lists}`
      : `Saves ${plural(change.tokens, 'token')} in every request the agent sends: ${lists}`,
    `Search: ${p.index.mode.label}${indexing ? ` — indexing ${Math.round((p.index.progress ?? 0) * 100)}%` : ''}`,
  ];
  for (const s of failing) lines.push(`⚠ ${s.name}: ${s.error ?? 'error'}`);
  if (waiting.length) lines.push(`Waiting for approval: ${waiting.map((s) => s.name).join(', ')}`);
  const signIn = p.servers.filter((s) => s.state === 'needs-sign-in');
  if (signIn.length) lines.push(`Needs sign-in: ${signIn.map((s) => s.name).join(', ')}`);
  if (p.index.state === 'error') lines.push(`⚠ index: ${p.index.error ?? 'error'}`);
  const ariaLabel = `${lines.join('. ')}. Opens the MCP Lens dashboard.`;
  return {
    tools: p.stats.tools,
    servers: p.servers.length,
    indexing,
    problems,
    savedTokens,
    tooltipLines: lines,
    ariaLabel,
  };
}

/** The main item's text: the tools and, when MCP Lens saves, the tokens it saves per request, with their unit. */
export function statusBarText(s: Pick<StatusSummary, 'tools' | 'indexing' | 'savedTokens'>): string {
  const saved = s.savedTokens > 0 ? ` · ${formatTokens(s.savedTokens)} tokens saved` : '';
  return `${s.indexing ? '$(sync~spin)' : '$(telescope)'} ${plural(s.tools, 'tool')}${saved}`;
}

/** The sign-in item: its text, what clicking does, or undefined when no server needs sign-in. */
export function signInText(names: readonly string[]): { text: string; tooltip: string; args: string[] } | undefined {
  if (names.length === 0) return undefined;
  const one = names.length === 1;
  return {
    // A server name is the workspace's text: `$(…)` in it must not render as an icon.
    text: one
      ? `$(sign-in) ${names[0]!.replace(/\$\(/g, '\\$(')}: needs sign-in`
      : `$(sign-in) ${plural(names.length, 'server')} need sign-in`,
    tooltip: `${names.join(', ')} ${one ? 'needs' : 'need'} an account: ${one ? 'its' : 'their'} tools are found but cannot be called until you sign in. Click to sign in.`,
    // One server: sign in to it; several: the command asks which.
    args: one ? [names[0]!] : [],
  };
}

/** The workspace's include/exclude changed so that more tools would show (the sidecar holds it). */
const FILTER_TOOLTIP =
  "The workspace's tool filter (mcpLens.include / mcpLens.exclude) changed so that hidden tools could be found and called. It applies once you approve it. Click to review.";

/** The approval item's text, or undefined when nothing waits for approval (servers, or a wider tool filter). */
export function approvalText(
  names: readonly string[],
  toolFilter = false,
): { text: string; tooltip: string } | undefined {
  if (names.length === 0)
    return toolFilter ? { text: '$(shield) tool filter change awaiting approval', tooltip: FILTER_TOOLTIP } : undefined;
  return {
    text: `$(shield) ${plural(names.length, 'server')}${toolFilter ? ' and a tool filter change' : ''} awaiting approval`,
    tooltip: `Not started until you approve ${names.length === 1 ? 'it' : 'them'}: ${names.join(', ')}. Click to review and approve.`,
  };
}
