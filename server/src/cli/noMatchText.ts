/**
 * The no-match hint (core/noMatchHint.ts) as `mcp-lens search` prints it: what the palette and
 * find_tools say when nothing matches, as lines for a terminal.
 */
import { plural } from '../../../protocol/figureText';
import type { NoMatchHint } from '../../../protocol/model';
import { cutAtWord, escapeForDisplay, oneLine } from '../../../protocol/untrustedText';

/** Names and words are third-party text: one line, escaped, cut. */
export function shown(text: string): string {
  return escapeForDisplay(cutAtWord(oneLine(text), 80));
}

export function noMatchLines(hint: NoMatchHint): string[] {
  const lines = ["No tool matches. Say it with the words the servers' tools use (below), or narrow it with --server."];
  if (hint.closeNames.length)
    lines.push(`close names: ${hint.closeNames.map((h) => `${shown(h.name)} (${shown(h.server)})`).join(', ')}`);
  if (hint.unavailable.length) {
    lines.push('not searched now:');
    for (const s of hint.unavailable)
      lines.push(
        `  ${shown(s.name)}: ${s.state}${s.error ? ` (${escapeForDisplay(cutAtWord(oneLine(s.error), 160))})` : ''}`,
      );
  }
  // Idle ones were left stopped on purpose, and the note on stderr already names them.
  const lastKnown = (hint.lastKnown ?? []).filter((s) => s.state !== 'idle');
  if (lastKnown.length)
    lines.push(
      `searched from their last known tools (not connected now): ${lastKnown.map((s) => `${shown(s.name)} (${s.state})`).join(', ')}`,
    );
  if (hint.servers.length) {
    lines.push('servers and the words their tools use:');
    for (const s of hint.servers)
      lines.push(`  ${shown(s.name)} (${plural(s.tools, 'tool')}): ${s.words.map(shown).join(', ')}`);
  }
  return lines;
}
