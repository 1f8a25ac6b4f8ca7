/**
 * What a front door that owns a Lens steers besides the Lens itself: the user's decisions
 * (approvals, `${input:…}` values, trust, folders), reloads of the configuration, and what it
 * must show the user about it. The editor's sidecar session and the CLI's commands hold a
 * `Lens & LensControl`; the MCP gateway and the dashboard's handlers hold only a `Lens`, so an
 * agent's requests can never reach these. `LensApp` implements both.
 */
import type { McpLensSettings, ToolFilterLevels } from '../../../protocol/settings';
import type { ConfigProblem } from '../core/config/types';
import type { FolderInput } from '../core/config/folders';

/**
 * A server held back until the user approves its definition, or (`kind: 'tool-filter'`) a change
 * of the workspace's include/exclude that would show more tools, held back until approved.
 */
export interface PendingApproval {
  /** Absent: a server. */
  kind?: 'tool-filter';
  /** The server's name; for a tool filter TOOL_FILTER_APPROVAL_NAME (protocol/settings.ts). */
  name: string;
  /** What approving approves, exactly: the definition's fingerprint, or the filter's toolFilterValue. */
  fingerprint: string;
  /** What it runs (or shows), in one line, without secrets. */
  summary: string;
  /** Every field of the definition (or every widening change), one per line, escaped (what an approval prompt shows). */
  details: string[];
  /** The file that declares it. */
  sourceFile: string;
}

/** The editor's whole state, applied at once by `reconfigure`. */
export interface EditorState {
  settings: McpLensSettings;
  /** Every approval (server name → approved fingerprint): one left out is revoked. */
  approvals: Record<string, string>;
  /** Every `${input:…}` value: one left out is forgotten. */
  inputs: Record<string, string>;
  /** Workspace Trust. */
  trusted: boolean;
  /** A multi-root workspace's folders; absent: unchanged. */
  folders?: FolderInput[];
  /** Which include/exclude patterns are the user's own and which the workspace's; absent: unchanged. */
  toolFilterLevels?: ToolFilterLevels;
}

/**
 * Where the catalog came from: running servers (`live`), or, for servers left stopped because
 * their catalog was cached (`mcp-lens search`), what they listed at `writtenAt`.
 */
export type CatalogSource =
  { kind: 'live' } | { kind: 'cached'; writtenAt: number; servers: string[]; failed: string[] };

export interface LensControl {
  /** Problems of the configuration as last read (each is also logged once when it appears). */
  configProblems(): ConfigProblem[];
  /** `${input:id}` ids the configuration refers to and no value was given for. */
  missingInputs(): string[];
  /** Servers (and a wider tool filter) held back until the user approves them. */
  pendingApprovals(): PendingApproval[];
  /**
   * The workspace's include/exclude accepted now (toolFilterValue): narrowing changes are
   * accepted at once. The editor records it with its approvals and hands it back at the next
   * sidecar start, so a restart never accepts what was waiting.
   */
  acceptedToolFilter(): string;
  /** Records approvals (name → fingerprint, on top of the others) and starts what they allow. */
  approve(approvals: Record<string, string>): Promise<void>;
  /** Adds `${input:…}` values and starts what they complete. */
  setInputs(inputs: Record<string, string>): Promise<void>;
  /**
   * Applies the editor's whole state in one reload, so a revoked approval or a forgotten input
   * takes effect too.
   */
  reconfigure(state: EditorState): Promise<void>;
  /** Reads the configuration again now; resolves once it is applied. */
  reload(): Promise<void>;
  /** Holds reloads on file changes (a client editing several config files as one change); pauses nest. */
  pauseReloads(): void;
  /** Ends a pause; true when a watched file changed meanwhile (the caller reloads, once). */
  resumeReloads(): boolean;
  /** Where the catalog came from (`mcp-lens search` says when it answers from the cache). */
  catalogSource(): CatalogSource;
}
