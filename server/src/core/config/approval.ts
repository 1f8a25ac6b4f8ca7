/**
 * Whether a configured server may start. Security rules, in order:
 *  1. Nothing from a workspace source (.vscode/mcp.json, .mcp.json, .cursor/mcp.json,
 *     mcpLens.servers) starts in an untrusted workspace, whatever else is set: `autoApprove`
 *     approves, it does not trust (the CLI, which has no Workspace Trust, passes trusted).
 *  2. `autoApprove` (CLI `--trust`) approves every server that rule 1 lets through.
 *  3. A file the user named with `--config` ('cli-config') is approved by naming it.
 *  Rules 2 and 3 approve what is there when MCP Lens starts, never a file forever: once it
 *  serves (`approvedAtStart` given), they cover only those definitions (name → fingerprint),
 *  so a server an agent adds to the named file, or to any file under `--trust`, while it runs
 *  waits for approval like any other (SECURITY.md "Trust only grows by the user's hand").
 *  4. Otherwise the server starts only if its current fingerprint is the approved one, so a
 *     new server or any change to command, args, env, cwd, url or headers needs approval.
 * Claude Desktop's config and Cursor's user-level `~/.cursor/mcp.json` are the user's own
 * files, so workspace trust does not gate them, but they were written for another tool, not for
 * MCP Lens in this workspace (where `${workspaceFolder}` and the working folder differ): they
 * still need approval on first use, per workspace.
 * In a multi-root workspace approvals are keyed by the folder-qualified name, and a folder's
 * fingerprint covers its path (folders.ts): an approval in one folder never starts another's.
 * `mcpLens.servers` counts as workspace config: the sidecar sees merged settings and cannot
 * tell user-level from workspace-level, so it takes the stricter reading.
 */
import type { ServerConfig } from './types';
import type { ConfigSourceKind } from '../../../../protocol/model';

export type ApprovalDecision = 'start' | 'needs-approval' | 'untrusted';

export interface SourcePolicy {
  /** Declared by the workspace: never starts in an untrusted workspace. */
  fromWorkspace: boolean;
  /** The user named this file explicitly; no per-server approval. */
  approvedByNaming: boolean;
}

const SOURCE_POLICY: Readonly<Record<ConfigSourceKind, SourcePolicy>> = {
  'vscode-mcp-json': { fromWorkspace: true, approvedByNaming: false },
  'mcp-json': { fromWorkspace: true, approvedByNaming: false },
  cursor: { fromWorkspace: true, approvedByNaming: false },
  settings: { fromWorkspace: true, approvedByNaming: false },
  'claude-desktop': { fromWorkspace: false, approvedByNaming: false },
  'cursor-user': { fromWorkspace: false, approvedByNaming: false },
  'cli-config': { fromWorkspace: false, approvedByNaming: true },
};

/** An unknown kind gets the strictest treatment. */
const STRICTEST: SourcePolicy = { fromWorkspace: true, approvedByNaming: false };

export interface ApprovalPolicy {
  /** server name → the fingerprint the user approved. */
  approvals: Record<string, string>;
  /** Workspace Trust. */
  trusted: boolean;
  /** CLI `--trust`: approve everything rule 1 allows. */
  autoApprove?: boolean;
  /**
   * Once serving, the definitions `--trust` and a named `--config` file approved at start
   * (name → fingerprint); undefined while starting, when they approve whatever is there.
   */
  approvedAtStart?: Readonly<Record<string, string>>;
  /** Overrides of SOURCE_POLICY per source kind. */
  sources?: Partial<Record<ConfigSourceKind, SourcePolicy>>;
}

export interface ApprovalOutcome {
  name: string;
  decision: ApprovalDecision;
  /** Short text for the user, e.g. `definition changed since it was approved`. */
  reason: string;
}

/** Why a definition --trust or a named file would have approved at start waits now. */
export const ADDED_WHILE_SERVING =
  'added or changed while MCP Lens was running: --trust and a named --config file approve only what was there at start';

export function explainApproval(server: ServerConfig, policy: ApprovalPolicy): ApprovalOutcome {
  const source = policy.sources?.[server.source.kind] ?? SOURCE_POLICY[server.source.kind] ?? STRICTEST;
  const out = (decision: ApprovalDecision, reason: string): ApprovalOutcome => ({
    name: server.name,
    decision,
    reason,
  });
  if (source.fromWorkspace && policy.trusted !== true) {
    return out('untrusted', 'workspace is not trusted; servers from workspace configuration do not start');
  }
  const approved = Object.prototype.hasOwnProperty.call(policy.approvals, server.name)
    ? policy.approvals[server.name]
    : undefined;
  const atStart = policy.approvedAtStart;
  const wasThereAtStart =
    atStart === undefined ||
    (Object.prototype.hasOwnProperty.call(atStart, server.name) && atStart[server.name] === server.fingerprint);
  if (policy.autoApprove === true && wasThereAtStart) return out('start', 'approved for all servers (--trust)');
  if (source.approvedByNaming && wasThereAtStart) return out('start', 'approved by naming the config file');
  if (typeof approved === 'string' && approved === server.fingerprint) return out('start', 'approved');
  if (policy.autoApprove === true || source.approvedByNaming) return out('needs-approval', ADDED_WHILE_SERVING);
  if (typeof approved === 'string') return out('needs-approval', 'definition changed since it was approved');
  return out('needs-approval', 'not approved yet');
}
