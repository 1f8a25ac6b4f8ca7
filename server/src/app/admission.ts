/**
 * What of the loaded configuration takes effect, decided in one place: which servers may run
 * (each by core/config/approval.ts: Workspace Trust, `--trust`, a file the user named, or the
 * approved fingerprint), which are held back and why, and the tool filter in force. The
 * reconciler applies exactly what `admit` returns and decides nothing itself, so a rule about
 * what the user must approve before it takes effect is a change to this function alone.
 */
import type { LoadedConfig, ServerConfig } from '../core/config/types';
import { decideApproval } from '../core/config/approval';
import type { HeldServer } from './serverStatuses';

/** What the user has granted. */
export interface Grants {
  /** Server name (folder-qualified in a multi-root workspace) → the approved fingerprint. */
  approvals: Record<string, string>;
  /** Workspace Trust: false starts nothing from workspace configuration. */
  trusted: boolean;
  /** `--trust`: approve every server trust lets through. */
  autoApprove: boolean;
}

/** What takes effect. */
export interface Admission {
  /** Definitions the pool runs (or registers, to start on their first call). */
  running: ServerConfig[];
  /** Definitions held back, with the reason the user sees. */
  held: HeldServer[];
  /** The tool filter the catalog applies. */
  include: readonly string[];
  exclude: readonly string[];
}

/** Nothing runs before the first configuration is read. */
export const NOTHING_ADMITTED: Admission = { running: [], held: [], include: [], exclude: [] };

export function admit(config: LoadedConfig, grants: Grants): Admission {
  const running: ServerConfig[] = [];
  const held: HeldServer[] = [];
  for (const server of config.servers) {
    const decision = decideApproval(server, grants);
    if (decision === 'start') running.push(server);
    else held.push({ config: server, reason: decision === 'needs-approval' ? 'awaiting-approval' : 'untrusted' });
  }
  return { running, held, include: config.include, exclude: config.exclude };
}
