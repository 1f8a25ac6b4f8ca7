/**
 * What of the loaded configuration takes effect, decided in one place: which servers may run
 * (each by core/config/approval.ts: Workspace Trust, `--trust`, a file the user named, or the
 * approved fingerprint), which are held back and why, and the tool filters in force. The
 * reconciler applies exactly what `admit` returns and decides nothing itself, so a rule about
 * what the user must approve before it takes effect is a change to this function alone.
 *
 * Trust only grows by the user's hand (SECURITY.md): a change that shows more tools waits for
 * approval while the filter last accepted stays in force beside the new one (its narrowing part
 * applies at once); `--trust` and a named `--config` file approve the definitions there at
 * start (`approvedAtStart`), not what is added while serving.
 */
import type { ToolFilterLevel, ToolFilterLevels } from '../../../protocol/settings';
import { TOOL_FILTER_APPROVAL_NAME, toolFilterValue } from '../../../protocol/settings';
import type { LoadedConfig, ServerConfig } from '../core/config/types';
import { explainApproval } from '../core/config/approval';
import { effectiveFilter, filterWidening, withWorkspace } from '../core/config/filterWidening';
import type { ToolFilterSpec } from '../core/config/toolFilter';
import type { HeldServer } from './serverStatuses';

/** What the user has granted. */
export interface Grants {
  /**
   * Server name (folder-qualified in a multi-root workspace) → the approved fingerprint; under
   * TOOL_FILTER_APPROVAL_NAME, the workspace tool filter the user approved (toolFilterValue).
   */
  approvals: Record<string, string>;
  /** Workspace Trust: false starts nothing from workspace configuration. */
  trusted: boolean;
  /** `--trust`: approve every server trust lets through, as it is at start. */
  autoApprove: boolean;
  /**
   * Once serving: the definitions `--trust` or a named `--config` file approved at start (name →
   * fingerprint; the last admission's `approvedAtStart`). Undefined while starting.
   */
  approvedAtStart?: Readonly<Record<string, string>>;
  /** The workspace's include/exclude as last accepted; undefined before anything was (the first admission accepts what it finds). */
  acceptedFilter?: ToolFilterLevel;
}

/** A wider tool filter waiting for the user's approval. */
export interface PendingFilter {
  /** What approving it approves: the workspace level's toolFilterValue. */
  value: string;
  /** What it would show, one line each, escaped. */
  changes: string[];
}

/** What takes effect. */
export interface Admission {
  /** Definitions the pool runs (or registers, to start on their first call). */
  running: ServerConfig[];
  /** Definitions held back, with the reason the user sees. */
  held: HeldServer[];
  /** The tool filters in force: a tool is listed and callable only when every one lets it through. */
  filters: readonly ToolFilterSpec[];
  /** The workspace's include/exclude now accepted (the next admission's `Grants.acceptedFilter`). */
  acceptedFilter: ToolFilterLevel;
  /** A change of the workspace's include/exclude that would show more tools, waiting for approval. */
  pendingFilter?: PendingFilter;
  /** What `--trust` and a named file approve from now on (the next admission's `Grants.approvedAtStart`). */
  approvedAtStart: Record<string, string>;
}

/** Nothing runs before the first configuration is read. */
export const NOTHING_ADMITTED: Admission = {
  running: [],
  held: [],
  filters: [],
  acceptedFilter: {},
  approvedAtStart: {},
};

/**
 * `levels`: where include/exclude come from (the editor says which are the user's own); absent,
 * the CLI's case, everything in `config` is the workspace's.
 */
export function admit(config: LoadedConfig, grants: Grants, levels?: ToolFilterLevels): Admission {
  const running: ServerConfig[] = [];
  const held: HeldServer[] = [];
  for (const server of config.servers) {
    const { decision, reason } = explainApproval(server, grants);
    if (decision === 'start') running.push(server);
    else
      held.push({
        config: server,
        reason: decision === 'needs-approval' ? 'awaiting-approval' : 'untrusted',
        why: reason,
      });
  }
  const approvedAtStart = grants.approvedAtStart
    ? { ...grants.approvedAtStart }
    : Object.fromEntries(running.map((s) => [s.name, s.fingerprint]));
  return {
    running,
    held,
    approvedAtStart,
    ...admitFilter(levels ?? { user: {}, workspace: { include: config.include, exclude: config.exclude } }, grants),
  };
}

/**
 * The workspace's level of include/exclude is accepted when it shows nothing the accepted one
 * hides (the user's own level applies as it is), when the user approved exactly it, or when
 * nothing was accepted yet; otherwise both the accepted and the new filter stay in force.
 */
function admitFilter(
  levels: ToolFilterLevels,
  grants: Grants,
): Pick<Admission, 'filters' | 'acceptedFilter' | 'pendingFilter'> {
  const now = levels.workspace;
  const value = toolFilterValue(now);
  const accept = { filters: [effectiveFilter(levels)], acceptedFilter: now };
  if (!grants.acceptedFilter || grants.approvals[TOOL_FILTER_APPROVAL_NAME] === value) return accept;
  const before = effectiveFilter(withWorkspace(levels, grants.acceptedFilter));
  const changes = filterWidening(before, effectiveFilter(levels));
  if (changes.length === 0) return accept;
  return {
    filters: [before, effectiveFilter(levels)],
    acceptedFilter: grants.acceptedFilter,
    pendingFilter: { value, changes },
  };
}
