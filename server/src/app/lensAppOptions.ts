/** How a LensApp is set up by each front door (the sidecar, each CLI command, tests, benches). */
import type { McpLensSettings, ToolFilterLevels } from '../../../protocol/settings';
import type { FolderInput } from '../core/config/folders';
import type { Logger } from '../core/logger';
import type { ToolIndex } from '../core/search/types';
import type { UpstreamPoolOptions } from '../adapters/upstream/pool';
import type { SharedLessons } from '../adapters/state/pgLessons';

export interface LensAppOptions {
  workspaceFolder: string;
  /**
   * A multi-root workspace's folders, the first being `workspaceFolder`: each folder's config
   * files and own `mcpLens.servers` are read as that folder's, its servers named
   * `<folder>/<server>` (core/config/folders.ts). Absent or one folder: `workspaceFolder` alone.
   */
  workspaceFolders?: FolderInput[];
  /** Folder for the catalog cache, the tool index and usage data, outside the workspace (CLI: the user's state folder, adapters/workspaceState.ts; editor: workspace storage). */
  storageDir: string;
  settings: McpLensSettings;
  /** A config file named by the user (`--config`): read alone, and approved by naming it. */
  configFile?: string;
  /** Workspace Trust: false starts nothing from workspace configuration. */
  trusted: boolean;
  /** server name (folder-qualified in a multi-root workspace) → approved fingerprint. */
  approvals: Record<string, string>;
  /** `--trust`: approve every server found at start (not those added while serving). */
  autoApprove: boolean;
  /**
   * The editor: which of `settings.include`/`exclude` the user's own settings set and which the
   * workspace's files do. A change from the workspace that shows more tools waits for approval;
   * the user's own applies at once. Absent (the CLI): every pattern is the workspace's.
   */
  toolFilterLevels?: ToolFilterLevels;
  /**
   * The workspace's include/exclude accepted before (toolFilterValue; the editor keeps it across
   * sidecar restarts). Absent: what is read at start is accepted.
   */
  acceptedToolFilter?: string;
  inputs: Record<string, string>;
  log: Logger;
  /** Replaces the index built from settings (tests, benchmarks). */
  index?: ToolIndex;
  /** Search lessons shared with other replicas (`serve --http --state`); absent: the learned file. */
  sharedLessons?: SharedLessons;
  /** Where usage is recorded; defaults to <storageDir>/usage. */
  usageDir?: string;
  /**
   * Leave every server whose catalog is cached (or which failed last time) stopped and answer
   * from the cache (`mcp-lens search`); the others are started to list their tools, and a call
   * starts its server.
   */
  preferCachedCatalog?: boolean;
  /**
   * Whether start() (and approve, setInputs, reindex…) wait until every server they started
   * settled once. True by default (one-shot CLI commands); the sidecar and `serve` answer at
   * once from the cached catalog and let servers connect in the background.
   */
  waitForServers?: boolean;
  /**
   * Index the catalog and launch the servers only once this settles, and let start() resolve
   * before (`serve`: its client's first tools/list is answered from the cached catalog first).
   * start() then never waits for servers. Absent: start() indexes, then the servers launch.
   */
  startAfter?: Promise<void>;
  /** Watch the config files and apply their changes as they happen (the sidecar, `serve`). */
  watch?: boolean;
  /**
   * State the CLI keeps in files (settings in .vscode/settings.json, the approval store): with
   * `watch`, these files are watched too and `read` again when one changes, so approving a
   * server with `mcp-lens tools` in another terminal starts it in a running `serve`.
   */
  fileState?: { files: string[]; read(): { settings: McpLensSettings; approvals: Record<string, string> } };
  /**
   * Running inside VS Code, which starts `.vscode/mcp.json` servers itself: such servers are
   * then marked as duplicates. The CLI cannot know whether an editor is open, so it does not.
   */
  insideEditor?: boolean;
  /**
   * The front door asks the user about every server waiting for approval as soon as `start`
   * returns (the CLI on a terminal): what waits then is not announced in the log, whose advice
   * (run `mcp-lens tools` in a terminal) would contradict the question that follows. What comes
   * to wait later is announced as always.
   */
  asksApprovalAtStart?: boolean;
  pool?: Partial<UpstreamPoolOptions>;
  /**
   * With lazy startup, stop a server after this many milliseconds without a call instead of
   * `mcpLens.idleTimeoutMinutes` (whose least is a minute): tests that wait for the idle stop.
   */
  idleTimeoutMs?: number;
  env?: Record<string, string | undefined>;
  /**
   * How long work no one asked for (indexing, token counts, the catalog cache's writes) waits at
   * most for starting servers (startupQuiet.ts; QUIET_WAIT_MAX_MS by default): tests of a hanging server.
   */
  startupQuietMaxMs?: number;
}
