/**
 * Config → approved definitions → pool. Reads the workspace's configuration (ConfigSource),
 * lets `admit` (admission.ts) decide what takes effect, and hands the pool exactly the servers
 * that may run: the pool starts, stops or restarts only those whose definition was added,
 * removed or changed (by fingerprint). Servers whose catalog is known can wait for their first
 * call (lazy startup, cached search). It says once per definition that a server waits for
 * approval and how to give it, and when a watched file changes it reads everything again, one
 * reload at a time, held while a client writes several files as one change.
 */
import { join } from 'node:path';
import type { ServerStatus } from '../../../protocol/model';
import type { McpLensSettings } from '../../../protocol/settings';
import {
  parseToolFilterValue,
  TOOL_FILTER_APPROVAL_NAME,
  toolFilterValue,
  type ToolFilterLevels,
} from '../../../protocol/settings';
import { escapeForDisplay } from '../../../protocol/untrustedText';
import type { LoadedConfig } from '../core/config/types';
import type { FolderInput } from '../core/config/folders';
import { ADDED_WHILE_SERVING } from '../core/config/approval';
import { approvalLines, describeServer } from '../core/config/describe';
import { errorMessage } from '../core/errorMessage';
import type { UpstreamPool, ServerLifecycle } from '../adapters/upstream/pool';
import { NOTHING_ADMITTED, admit, type Admission, type Grants } from './admission';
import { ConfigSource } from './configSource';
import type { KnownCatalog } from './knownCatalog';
import type { EditorState, PendingApproval } from './lensControl';
import type { LensAppOptions } from './lensAppOptions';
import { configFileRows, mergeStatuses, pendingFilterRow } from './serverStatuses';

export type ServerReconcilerOptions = Pick<
  LensAppOptions,
  | 'workspaceFolder'
  | 'workspaceFolders'
  | 'configFile'
  | 'env'
  | 'watch'
  | 'fileState'
  | 'approvals'
  | 'trusted'
  | 'autoApprove'
  | 'inputs'
  | 'log'
  | 'waitForServers'
  | 'insideEditor'
  | 'asksApprovalAtStart'
  | 'preferCachedCatalog'
  | 'idleTimeoutMs'
  | 'toolFilterLevels'
  | 'acceptedToolFilter'
> & {
  pool: UpstreamPool;
  known: KnownCatalog;
  /** The settings in force (they decide `mcpLens.servers`, include/exclude and the startup mode). */
  settings(): McpLensSettings;
  /** The pool was handed its servers (and again once they settled, when waiting): the catalog follows. */
  poolChanged(): void;
  /** What `servers()` shows changed. */
  serversChanged(): void;
  /** The CLI's settings file says something new: the owner applies it, which applies the config too. */
  settingsRead(settings: McpLensSettings): Promise<void>;
};

export class ServerReconciler {
  private loaded!: LoadedConfig;
  private admission: Admission = NOTHING_ADMITTED;
  /** Servers registered without starting them (lazy startup, cached search). */
  private deferredNow: ReadonlySet<string> = new Set();
  /** Whether apply() ran before (what waits at the first one may be asked about at once: asksApprovalAtStart). */
  private appliedOnce = false;
  /** Pending approvals already announced in the log (name + fingerprint). */
  private announced = new Set<string>();
  private grants: Grants;
  private inputs: Record<string, string>;
  private folders: FolderInput[] | undefined;
  private filterLevels: ToolFilterLevels | undefined;
  private readonly source: ConfigSource;
  /** Reloads after file changes run one after another. */
  private reloading: Promise<void> = Promise.resolve();
  private paused = 0;
  private changedWhilePaused = false;
  private closed = false;

  constructor(private readonly o: ServerReconcilerOptions) {
    this.grants = { approvals: { ...o.approvals }, trusted: o.trusted, autoApprove: o.autoApprove };
    // The editor keeps the accepted filter across sidecar restarts; the CLI accepts what it reads at start.
    const accepted = parseToolFilterValue(o.acceptedToolFilter);
    if (accepted) this.grants.acceptedFilter = accepted;
    this.inputs = { ...o.inputs };
    this.folders = o.workspaceFolders;
    this.filterLevels = o.toolFilterLevels;
    const source: ConstructorParameters<typeof ConfigSource>[0] = {
      workspaceFolder: o.workspaceFolder,
      log: o.log,
      watch: o.watch === true,
    };
    if (o.configFile) source.configFile = o.configFile;
    if (o.env) source.env = o.env;
    if (o.fileState) source.extraFiles = o.fileState.files;
    this.source = new ConfigSource(source);
    this.source.onDidChange(() => this.reloadFromDisk());
  }

  /** The configuration as last read. */
  get config(): LoadedConfig {
    return this.loaded;
  }

  /** What took effect at the last reconciliation. */
  get admitted(): Admission {
    return this.admission;
  }

  /** Running servers the pool registered without starting them. */
  get deferred(): ReadonlySet<string> {
    return this.deferredNow;
  }

  /**
   * Servers held back until the user approves them, with a secret-free summary and every field
   * (one per line, escaped), then a wider tool filter waiting for approval, if any.
   */
  pendingApprovals(): PendingApproval[] {
    const servers: PendingApproval[] = this.admission.held
      .filter((h) => h.reason === 'awaiting-approval')
      .map((h) => ({
        name: h.config.name,
        fingerprint: h.config.fingerprint,
        summary: describeServer(h.config),
        details: approvalLines(h.config),
        sourceFile: h.config.source.file,
      }));
    const filter = this.admission.pendingFilter;
    if (!filter) return servers;
    return [
      ...servers,
      {
        kind: 'tool-filter',
        name: TOOL_FILTER_APPROVAL_NAME,
        fingerprint: filter.value,
        summary: filter.changes.join('; '),
        details: filter.changes,
        sourceFile: this.settingsFile(),
      },
    ];
  }

  /** The workspace's include/exclude as accepted now (toolFilterValue), for the editor to keep across restarts. */
  acceptedToolFilter(): string {
    return toolFilterValue(this.admission.acceptedFilter);
  }

  async approve(approvals: Record<string, string>): Promise<void> {
    this.grants = { ...this.grants, approvals: { ...this.grants.approvals, ...approvals } };
    await this.apply();
  }

  async setInputs(inputs: Record<string, string>): Promise<void> {
    this.inputs = { ...this.inputs, ...inputs };
    await this.apply();
  }

  /** Takes the editor's approvals, inputs, trust and folders as they are now; the next apply() uses them. */
  replaceEditorState(state: Omit<EditorState, 'settings'>): void {
    if (state.folders) this.folders = state.folders;
    if (state.toolFilterLevels) this.filterLevels = state.toolFilterLevels;
    this.grants = { ...this.grants, approvals: { ...state.approvals }, trusted: state.trusted };
    this.inputs = { ...state.inputs };
  }

  /**
   * (Re)reads the configuration and reconciles the pool with what may run. Waits for the servers
   * it started only when the options ask for it (one-shot CLI commands).
   */
  async apply(): Promise<void> {
    this.loaded = this.source.load(this.o.settings(), this.inputs, this.folders);
    this.admission = admit(this.loaded, this.grants, this.filterLevels);
    // What was accepted carries to the next admission: the definitions --trust and a named file
    // approved at start (frozen by the first admission), and the tool filter accepted now.
    this.grants = {
      ...this.grants,
      approvedAtStart: this.admission.approvedAtStart,
      acceptedFilter: this.admission.acceptedFilter,
    };
    this.announcePending();
    this.o.known.setConfigured(new Set(this.loaded.servers.map((s) => s.name)));
    const running = this.admission.running;
    const settled = this.o.pool.setServers(running, this.lifecycle(running));
    this.o.poolChanged();
    this.o.serversChanged();
    if (this.o.waitForServers !== false) {
      await settled;
      this.o.poolChanged();
    }
  }

  isRunning(name: string): boolean {
    return this.admission.running.some((s) => s.name === name);
  }

  /** The name back when the server runs under MCP Lens; an error naming it otherwise. */
  runningServer(name: string): string {
    if (!this.isRunning(name)) throw new Error(`Server "${name}" is not running under MCP Lens`);
    return name;
  }

  async restart(name: string): Promise<void> {
    await this.o.pool.restart(this.runningServer(name));
  }

  /**
   * One row per configured server and per unusable config file. `cachedTools`: the tools the
   * catalog holds for a server, which for one not connected (yet) are what it listed last time.
   */
  statuses(
    tokensByServer: ReadonlyMap<string, number>,
    cachedTools: (server: string) => readonly unknown[] | undefined,
  ): ServerStatus[] {
    const { running, held } = this.admission;
    const rows = mergeStatuses(
      running,
      this.o.pool.statuses(),
      held,
      this.loaded.disabled,
      tokensByServer,
      this.o.insideEditor === true,
    );
    for (const row of rows) {
      const tools = cachedTools(row.name);
      if (row.state === 'ready' || !tools) continue;
      // Not connected (yet): its tools are searchable from the catalog it listed last time.
      row.toolCount = tools.length;
      row.fromCache = true;
      if (row.state === 'stopped') row.state = 'idle';
    }
    const filter = this.admission.pendingFilter;
    const filterRows = filter ? [pendingFilterRow(filter, this.settingsFile())] : [];
    return [...rows, ...configFileRows(this.loaded.problems, this.loaded.folders), ...filterRows];
  }

  pauseReloads(): void {
    this.paused++;
  }

  resumeReloads(): boolean {
    if (this.paused > 0) this.paused--;
    if (this.paused > 0 || !this.changedWhilePaused) return false;
    this.changedWhilePaused = false;
    return true;
  }

  reload(): Promise<void> {
    this.reloadFromDisk();
    return this.reloading;
  }

  /** Stops watching; a reload still queued does nothing. */
  close(): void {
    this.closed = true;
    this.source.close();
  }

  /** A watched file changed: reload (the CLI's settings and approvals too), one reload at a time. */
  private reloadFromDisk(): void {
    if (this.paused > 0) {
      this.changedWhilePaused = true;
      return;
    }
    this.reloading = this.reloading
      .then(async () => {
        if (this.closed) return;
        const state = this.o.fileState?.read();
        if (state) this.grants = { ...this.grants, approvals: { ...state.approvals } };
        if (state && JSON.stringify(state.settings) !== JSON.stringify(this.o.settings()))
          await this.o.settingsRead(state.settings);
        else await this.apply();
      })
      .catch((err: unknown) => this.o.log.error(`reloading the configuration: ${errorMessage(err)}`));
  }

  /** Where the workspace's include/exclude are read (the CLI reads only this file; the editor also a .code-workspace file). */
  private settingsFile(): string {
    return join(this.o.workspaceFolder, '.vscode', 'settings.json');
  }

  /** Says once per definition (and per pending tool filter) what waits for approval, and how to give it. */
  private announcePending(): void {
    const now = new Set<string>();
    // At start, a front door that asks at once says it all (asksApprovalAtStart).
    const quiet = this.o.asksApprovalAtStart === true && !this.appliedOnce;
    this.appliedOnce = true;
    for (const p of this.pendingApprovals()) {
      const key = `${p.name}\0${p.fingerprint}`;
      now.add(key);
      if (quiet || this.announced.has(key)) continue;
      this.o.log.warn(p.kind === 'tool-filter' ? this.filterWarning(p) : this.serverWarning(p));
    }
    this.announced = now;
  }

  private serverWarning(p: PendingApproval): string {
    const addedWhileServing = this.admission.held.some(
      (h) => h.config.name === p.name && h.why === ADDED_WHILE_SERVING,
    );
    const how = this.o.insideEditor
      ? 'approve it when VS Code asks, or with "MCP Lens: Approve Servers"'
      : addedWhileServing
        ? 'approve it when the terminal running `mcp-lens serve --http` asks, or from its dashboard, or restart mcp-lens serve'
        : 'run `mcp-lens tools` in a terminal to approve it, or restart with --trust';
    const what = addedWhileServing ? 'was added or changed while MCP Lens runs' : 'is new or changed';
    return `[${escapeForDisplay(p.name)}] not started: its definition in ${escapeForDisplay(p.sourceFile)} ${what} and needs your approval (${how})`;
  }

  private filterWarning(p: PendingApproval): string {
    const how = this.o.insideEditor
      ? 'approve it when VS Code asks, or with "MCP Lens: Approve Servers"'
      : 'approve it when the terminal running `mcp-lens serve --http` asks, or restart mcp-lens serve to accept the file as it is';
    return (
      `[${escapeForDisplay(p.sourceFile)}] not applied: the workspace's tool filter changed and would show more tools (${p.details.join('; ')}); ` +
      `the tools it hid stay hidden until you approve (${how})`
    );
  }

  /** Which servers start now and which wait for their first call (lazy startup, cached search). */
  private lifecycle(running: Admission['running']): ServerLifecycle {
    const settings = this.o.settings();
    const lazy = settings.startup === 'lazy';
    if (!lazy && !this.o.preferCachedCatalog) return {};
    const deferred = new Set(running.filter((s) => this.o.known.entry(s)).map((s) => s.name));
    this.deferredNow = deferred;
    const lifecycle: ServerLifecycle = { deferred };
    if (lazy) lifecycle.idleTimeoutMs = this.o.idleTimeoutMs ?? settings.idleTimeoutMinutes * 60_000;
    return lifecycle;
  }
}
