/**
 * The rows of "MCP Lens: List Servers" (pure, unit-tested without VS Code): each server with
 * its state, tool count and reason, and what picking it does — approve a server that waits
 * for approval, restart one that failed, open a config file that does not parse.
 */
import type { ServerStatus } from '../../../protocol/model';
import { signInLine } from '../../../protocol/signInText';
import { paletteText } from './noMatchItems';

export type ServerAction =
  | { kind: 'approve'; name: string }
  | { kind: 'restart'; name: string }
  | { kind: 'signIn'; name: string }
  | { kind: 'open'; file: string }
  | { kind: 'none' };

export interface ServerItem {
  label: string;
  description: string;
  detail?: string;
  action: ServerAction;
}

const ICON: Record<ServerStatus['state'], string> = {
  ready: '$(pass-filled)',
  starting: '$(loading~spin)',
  idle: '$(debug-pause)',
  error: '$(error)',
  stopped: '$(circle-slash)',
  disabled: '$(circle-slash)',
  'awaiting-approval': '$(shield)',
  'needs-sign-in': '$(sign-in)',
};

export function serverItems(servers: readonly ServerStatus[]): ServerItem[] {
  // What needs the user first: approvals, then failures, then the rest by name.
  const rank = (s: ServerStatus) =>
    s.state === 'awaiting-approval' ? 0 : s.state === 'needs-sign-in' ? 1 : s.state === 'error' ? 2 : 3;
  return [...servers].sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name)).map(item);
}

function item(s: ServerStatus): ServerItem {
  const tools = `${s.toolCount} tool${s.toolCount === 1 ? '' : 's'}${s.fromCache ? ' (last known)' : ''}`;
  const base = { label: `${ICON[s.state]} ${paletteText(s.name, 80)}` };
  // A row is one line of each: what is wrong goes whole in `detail`, what MCP Lens does meanwhile
  // beside the action, and a waiting server's definition is shown by the approval it opens.
  if (s.configFile)
    return {
      ...base,
      description: `config file: select to open it${s.note ? ' · its last valid version still runs' : ''}`,
      detail: paletteText(s.error ?? ''),
      action: { kind: 'open', file: s.sourceFile },
    };
  switch (s.state) {
    case 'awaiting-approval':
      return {
        ...base,
        description: 'awaiting approval — select to approve',
        detail: 'Not started until you approve it; approving shows exactly what it runs.',
        action: { kind: 'approve', name: s.name },
      };
    case 'needs-sign-in':
      return {
        ...base,
        description: `needs sign-in — select to sign in · ${tools}`,
        detail: paletteText(signInLine(s.error)),
        action: { kind: 'signIn', name: s.name },
      };
    case 'error':
      return {
        ...base,
        description: `failed — select to restart · ${tools}`,
        detail: paletteText(s.error ?? ''),
        action: { kind: 'restart', name: s.name },
      };
    case 'idle':
      return { ...base, description: `idle: starts on its first call · ${tools}`, action: { kind: 'none' } };
    case 'starting':
      return {
        ...base,
        description: `starting · ${tools}`,
        ...(s.error ? { detail: paletteText(s.error) } : {}),
        action: { kind: 'none' },
      };
    default:
      return {
        ...base,
        description: `${s.state} · ${tools}`,
        ...(s.error ? { detail: paletteText(s.error) } : {}),
        action: { kind: 'none' },
      };
  }
}
