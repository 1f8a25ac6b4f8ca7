/**
 * What the palette's tool search shows when nothing matches (pure, unit-tested without VS
 * Code): a line saying so and how to reword, tools with a close name, servers whose tools
 * cannot be found right now (with the way to fix that), and every searchable server with the
 * words its tools use, which opens that server's tool list.
 */
import { plural } from '../../../protocol/figureText';
import type { NoMatchHint, SearchHit, ServerState } from '../../../protocol/model';
import { capLength, oneLine } from '../../../protocol/untrustedText';

export type NoMatchAction =
  /** Go on with this tool, as if search had found it. */
  | { kind: 'tool'; hit: SearchHit }
  /** List this server's tools in the picker. */
  | { kind: 'server'; server: string }
  /** Run an MCP Lens command (approve servers, open the dashboard). */
  | { kind: 'command'; command: string }
  /** Informational: accepting it keeps the picker open. */
  | { kind: 'none' };

export interface NoMatchItem {
  /** A group heading (a QuickPick separator); the other fields are then unused. */
  separator?: string;
  label: string;
  description?: string;
  detail?: string;
  action: NoMatchAction;
}

const STATE_TEXT: Record<ServerState, string> = {
  'awaiting-approval': 'awaiting your approval: its tools are not searched until you approve it',
  starting: 'still starting: its tools appear when it is ready',
  error: 'failed',
  stopped: 'stopped',
  idle: 'idle: it starts on its first call',
  disabled: 'disabled',
  ready: 'ready',
  'needs-sign-in': 'needs sign-in: its tools are searched as it listed them last; sign in to call them',
};

/** `$(name)` in third-party text would render as an icon in a QuickPick: escape it. */
export function paletteText(text: string, max = 200): string {
  return capLength(oneLine(text), max).replace(/\$\(/g, '\\$(');
}

export function noMatchItems(query: string, hint: NoMatchHint): NoMatchItem[] {
  const items: NoMatchItem[] = [
    {
      label: `$(search-stop) No tools match "${paletteText(query, 60)}"`,
      detail:
        'Say what the tool should do in other words, e.g. the words the servers below use for it, or pick a tool or server here.',
      action: { kind: 'none' },
    },
  ];
  if (hint.closeNames.length) {
    items.push(separator('Close names'));
    for (const hit of hint.closeNames) {
      items.push({
        label: `$(symbol-method) ${paletteText(hit.name, 80)}`,
        description: `${paletteText(hit.server, 40)} · ${paletteText(hit.why, 60)}`,
        detail: paletteText(hit.description),
        action: { kind: 'tool', hit },
      });
    }
  }
  if (hint.unavailable.length) {
    items.push(separator('Not searched now'));
    for (const s of hint.unavailable) {
      const fix =
        s.state === 'awaiting-approval'
          ? { kind: 'command' as const, command: 'mcpLens.approveServers' }
          : { kind: 'command' as const, command: 'mcpLens.showDashboard' };
      items.push({
        label: `$(warning) ${paletteText(s.name, 60)}`,
        description: STATE_TEXT[s.state],
        detail: s.error
          ? paletteText(s.error)
          : s.state === 'awaiting-approval'
            ? 'Select to approve it.'
            : 'Select to see it in the dashboard.',
        action: fix,
      });
    }
  }
  if (hint.servers.length) {
    items.push(separator('Servers, and the words their tools use'));
    for (const s of hint.servers) {
      const item: NoMatchItem = {
        label: `$(server) ${paletteText(s.name, 60)}`,
        description: plural(s.tools, 'tool'),
        action: { kind: 'server', server: s.name },
      };
      if (s.words.length) item.detail = paletteText(`Its tools speak of: ${s.words.join(', ')}`);
      items.push(item);
    }
  }
  return items;
}

function separator(label: string): NoMatchItem {
  return { separator: label, label, action: { kind: 'none' } };
}
