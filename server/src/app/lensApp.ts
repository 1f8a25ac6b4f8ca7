/**
 * The sidecar's core, wired: config → upstream pool → catalog → tool index (→ usage).
 * Both front doors (the LSP connection and the CLI) build one of these and drive it through
 * the `Lens` interface; it knows neither of them.
 */
import { join } from 'node:path';
import type { CallToolResult, CompleteRequest, CompleteResult, GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import type { IndexStatus, SearchHit, SearchResponse, ServerStatus, UsageStats } from '../../../protocol/model';
import type { McpLensSettings } from '../../../protocol/settings';
import { cleanReplyInPlace, escapeForDisplay } from '../../../protocol/untrustedText';
import type { CatalogPrompt, CatalogResource, CatalogResourceTemplate, CatalogTool } from '../core/catalog';
import type { ConfigProblem, LoadedConfig, ServerConfig } from '../core/config/types';
import type { FolderInput } from '../core/config/folders';
import type { ToolIndex } from '../core/search/types';
import { ArgsValidator } from '../core/argsValidation';
import { decideApproval } from '../core/config/approval';
import { approvalLines, describeServer } from '../core/config/describe';
import { ServerListTokens, rememberTokenCounts, rememberedTokenCounts, serverListTexts, useTokenCounter } from '../core/tokens';
import { o200kTokenizer } from '../adapters/tokens/o200kCounter';
import { noMatchHint } from '../core/noMatchHint';
import { UpstreamPool, type ServerLifecycle } from '../adapters/upstream/pool';
import type { Catalog } from './catalogBuilder';
import { ResourceRouting } from './resourceRouting';
import { UpstreamRequests } from './upstreamRequests';
import { CatalogComposer, type CatalogSource } from './catalogComposer';
import { ConfigSource } from './configSource';
import { KnownCatalog } from './knownCatalog';
import { configFileRows, mergeStatuses, type HeldServer } from './serverStatuses';
import { ToolCalls } from './toolCalls';
import { openToolIndex } from './indexFactory';
import { UsageTracker } from '../usage/usageTracker';
import { ChangeEmitter } from '../core/changeEmitter';
import type { CallOptions, Disposable, Lens, LensChange, SearchRequest } from './lens';
import type { LensAppOptions } from './lensAppOptions';
import { errorMessage } from '../core/errorMessage';

export type { LensAppOptions };

// Token counts come from the compact o200k table (a few MB), not gpt-tokenizer's (~70 MB).
useTokenCounter(o200kTokenizer);

/**
 * A search on an empty catalog, while servers that have never listed their tools are starting,
 * waits for the first of them to list, at most this long after MCP Lens started: a first run has
 * nothing else to answer from. Once any server has tools, or past this, no search waits, so one
 * slow or hanging server never delays the others' tools.
 */
const EMPTY_CATALOG_GRACE_MS = 5000;

export class LensApp implements Lens {
  readonly workspaceFolder: string;
  private config!: LoadedConfig;
  private held: HeldServer[] = [];
  private running: ServerConfig[] = [];
  /** Servers registered without starting them (lazy startup, cached search). */
  private deferred: ReadonlySet<string> = new Set();
  /** Pending approvals already announced in the log (name + fingerprint). */
  private announced = new Set<string>();
  private tokensOf: { catalog: Catalog; tokens: Map<string, number> } | undefined;
  private readonly listTokens = new ServerListTokens();
  private readonly changes = new ChangeEmitter<LensChange>();
  private readonly calls: ToolCalls;
  private readonly configSource: ConfigSource;
  private readonly known: KnownCatalog;
  private readonly composer: CatalogComposer;
  private readonly routing: ResourceRouting;
  /** Where upstreams' sampling, elicitation, roots, logging and updates meet the gateway's sessions. */
  readonly clients: UpstreamRequests;
  private syncing: Promise<void> = Promise.resolve();
  private syncQueued = false;
  private firstSync: Promise<void> | undefined;
  private rebuildTimer: NodeJS.Timeout | undefined;
  /** Reloads after file changes run one after another. */
  private reloading: Promise<void> = Promise.resolve();
  private paused = 0;
  private changedWhilePaused = false;
  private closed = false;
  private readonly startedAt = Date.now();

  /** Set by start() once opened; servers start before (see there). */
  private index!: ToolIndex;
  private usage!: UsageTracker;
  private opened!: () => void;
  /** Resolves once the index and usage are open: index syncs wait for it. */
  private readonly indexOpen = new Promise<void>((resolve) => (this.opened = resolve));

  private constructor(
    private readonly options: LensAppOptions,
    private readonly pool: UpstreamPool,
    inbound: UpstreamRequests,
  ) {
    this.workspaceFolder = options.workspaceFolder;
    this.clients = inbound;
    this.routing = new ResourceRouting({
      pool,
      prompts: () => this.catalog.prompts,
      resources: () => this.catalog.resources,
      isRunning: (server) => this.running.some((s) => s.name === server),
    });
    inbound.usePool(pool);
    this.calls = new ToolCalls({
      pool,
      validator: new ArgsValidator(),
      log: options.log,
      findTool: (n) => this.findTool(n),
      allNames: () => this.catalog.tools.map((t) => t.name),
      callTimeoutMs: () => this.options.settings.callTimeoutSeconds * 1000,
      // Only an agent's calls through the gateway are judged against its find_tools answers.
      record: (c) =>
        this.usage.record({
          sessionId: c.sessionId,
          toolKey: c.tool.key,
          server: c.tool.server,
          startedAt: c.startedAt,
          durationMs: c.durationMs,
          outcome: c.outcome,
          args: c.args,
          fromAgent: c.origin === 'gateway',
        }),
    });
    const source: ConstructorParameters<typeof ConfigSource>[0] = { workspaceFolder: options.workspaceFolder, log: options.log, watch: options.watch === true };
    if (options.configFile) source.configFile = options.configFile;
    if (options.env) source.env = options.env;
    if (options.fileState) source.extraFiles = options.fileState.files;
    this.configSource = new ConfigSource(source);
    this.known = new KnownCatalog(join(options.storageDir, 'catalog.json'), options.log);
    // Counted in an earlier run: a warm start counts no tokens at all.
    rememberTokenCounts(this.known.tokenCounts);
    this.known.keepTokenCounts(() => rememberedTokenCounts(serverListTexts(this.catalog.tools)));
    this.composer = new CatalogComposer(pool, this.known);
  }

  /**
   * Loads config and starts every approved server in parallel. Search answers at once from the
   * last known catalog; unless `waitForServers` is false, resolves once each server settled once.
   */
  static async start(options: LensAppOptions): Promise<LensApp> {
    // The inbound side resolves our resource URIs through the app, built just below (called only once it is).
    const inbound = new UpstreamRequests({ log: options.log, resolveUri: (uri: string) => app.routing.resolveUri(uri) });
    const pool = new UpstreamPool({
      log: options.log,
      connectTimeoutMs: options.settings.connectTimeoutSeconds * 1000,
      inbound,
      ...options.pool,
    });
    const app: LensApp = new LensApp(options, pool, inbound);
    pool.onDidChange((change) => app.onPoolChange(change.kind));
    app.configSource.onDidChange(() => app.reloadFromDisk());
    try {
      [app.index, app.usage] = await Promise.all([
        options.index ?? openToolIndex(join(options.storageDir, 'index'), options.settings, options.log),
        UsageTracker.open({
          dir: options.usageDir ?? join(options.storageDir, 'usage'),
          enabled: options.settings.usage.enabled,
          retentionDays: options.settings.usage.retentionDays,
          predictK: options.settings.predict.maxTools,
          log: options.log,
        }),
      ]);
    } catch (err) {
      await pool.close();
      throw err;
    }
    app.index.onDidChange(() => app.changes.fire('index'));
    app.usage.onDidChange(() => app.changes.fire('usage'));
    app.opened();
    // The catalog (from the cache) is indexed before the servers start: on a small machine,
    // twenty starting processes would otherwise take the CPU the first answer needs. They
    // start a few milliseconds later, one per turn of the event loop (pool.ts).
    const configured = app.applyConfig();
    await configured;
    await app.firstSync;
    return app;
  }

  private get catalog(): Catalog {
    return this.composer.catalog;
  }

  settings(): McpLensSettings {
    return this.options.settings;
  }

  configProblems(): ConfigProblem[] {
    return this.config.problems;
  }

  missingInputs(): string[] {
    return this.config.missingInputs;
  }

  /** Servers held back until the user approves them, with a secret-free summary and every field (one per line, escaped). */
  pendingApprovals(): { name: string; fingerprint: string; summary: string; details: string[]; sourceFile: string }[] {
    return this.held
      .filter((h) => h.reason === 'awaiting-approval')
      .map((h) => ({
        name: h.config.name,
        fingerprint: h.config.fingerprint,
        summary: describeServer(h.config),
        details: approvalLines(h.config),
        sourceFile: h.config.source.file,
      }));
  }

  /** Records approvals and starts what they allow. */
  async approve(approvals: Record<string, string>): Promise<void> {
    this.options.approvals = { ...this.options.approvals, ...approvals };
    await this.applyConfig();
  }

  async setInputs(inputs: Record<string, string>): Promise<void> {
    this.options.inputs = { ...this.options.inputs, ...inputs };
    await this.applyConfig();
  }

  /**
   * Applies the editor's whole state at once (one config reload): settings, the full set of
   * approvals and inputs (so a revoked approval or a forgotten input takes effect), and trust.
   */
  async reconfigure(state: {
    settings: McpLensSettings;
    approvals: Record<string, string>;
    inputs: Record<string, string>;
    trusted: boolean;
    folders?: FolderInput[];
  }): Promise<void> {
    if (state.folders) this.options.workspaceFolders = state.folders;
    this.options.approvals = { ...state.approvals };
    this.options.inputs = { ...state.inputs };
    this.options.trusted = state.trusted;
    await this.updateSettings(state.settings);
  }

  servers(): ServerStatus[] {
    const rows = mergeStatuses(this.running, this.pool.statuses(), this.held, this.config.disabled, this.tokensByServer(), this.options.insideEditor === true);
    for (const row of rows) {
      const tools = this.composer.toolsOf(row.name);
      if (row.state === 'ready' || !tools) continue;
      // Not connected (yet): its tools are searchable from the catalog it listed last time.
      row.toolCount = tools.length;
      row.fromCache = true;
      if (row.state === 'stopped') row.state = 'idle';
    }
    return [...rows, ...configFileRows(this.config.problems, this.config.folders)];
  }

  /**
   * Tokens of each server's tools/list. Known counts (this run or the cache) are used at once;
   * a catalog with new lists is counted in the background, one server per turn of the event
   * loop, so counting never holds up an answer, and the rows say so when it is done.
   */
  private tokensByServer(): Map<string, number> {
    const catalog = this.catalog;
    if (this.tokensOf?.catalog === catalog) return this.tokensOf.tokens;
    const known = this.listTokens.countKnown(catalog.tools);
    if (known) {
      this.tokensOf = { catalog, tokens: known };
      return known;
    }
    void this.countInBackground(catalog);
    return this.tokensOf?.tokens ?? new Map();
  }

  private counting: Catalog | undefined;

  private async countInBackground(catalog: Catalog): Promise<void> {
    if (this.counting === catalog) return;
    this.counting = catalog;
    for (const server of new Set(catalog.tools.map((t) => t.server))) {
      await new Promise((r) => setImmediate(r));
      if (this.closed || this.counting !== catalog) return;
      this.listTokens.count(catalog.tools.filter((t) => t.server === server));
    }
    this.counting = undefined;
    if (this.catalog !== catalog) return;
    this.tokensOf = { catalog, tokens: this.listTokens.count(catalog.tools) };
    this.known.touch();
    this.changes.fire('servers');
  }

  tools(): CatalogTool[] {
    return this.catalog.tools;
  }

  findTool(name: string): CatalogTool | undefined {
    return this.catalog.byName.get(name);
  }

  async search(request: SearchRequest): Promise<SearchResponse> {
    const started = performance.now();
    // Answers come from the last known catalog at once and never wait for a server: one that
    // has never listed its tools (a new definition, or one that hangs) is named in the answer
    // as still starting (`starting`, find_tools's servers_starting) instead. Only a first run,
    // with no tools known at all, waits briefly for the first server to list.
    await this.firstSync;
    await this.firstTools();
    // A server that just came up is in the catalog once its burst is composed: compose now
    // rather than answer without its tools and without naming it as starting.
    if (this.rebuildTimer) this.rebuildCatalog();
    // A catalog change is indexed in milliseconds: answer from the index that has it.
    await this.syncing;
    const limit = Math.min(50, Math.max(1, request.limit ?? this.options.settings.search.defaultLimit));
    const options: Parameters<ToolIndex['search']>[1] = { limit };
    if (request.keywords?.length) options.keywords = request.keywords;
    if (request.server) options.server = request.server;
    const ranked = await this.index.search(request.query, options);
    // Usage re-ranks within what the query found; a session without calls is left as is.
    const rankedHits = request.sessionId ? this.usage.boost(request.sessionId, ranked.hits) : ranked.hits;
    const hits: SearchHit[] = [];
    for (const r of rankedHits) {
      // The index may briefly hold tools that just disappeared or were excluded: the
      // catalog is the authority on what exists.
      const tool = this.catalog.byKey.get(r.key);
      if (!tool) continue;
      hits.push({
        name: tool.name,
        server: tool.server,
        originalName: tool.originalName,
        description: tool.description,
        score: r.score,
        signals: r.signals,
        why: r.why,
      });
    }
    const answer = hits.slice(0, limit);
    // The session's next call is judged against exactly what this answer showed.
    if (request.sessionId)
      this.usage.noteAnswer(
        request.sessionId,
        answer.map((h) => this.catalog.byName.get(h.name)!.key),
      );
    const response: SearchResponse = { query: request.query, hits: answer, mode: ranked.mode, tookMs: performance.now() - started };
    if (answer.length === 0) response.noMatch = noMatchHint(request.query, this.catalog.tools, this.servers());
    const starting = this.composer.startingWithoutTools(this.running);
    if (starting.length) response.starting = starting;
    return response;
  }

  /** See EMPTY_CATALOG_GRACE_MS. */
  private async firstTools(): Promise<void> {
    const waiting = () => this.catalog.tools.length === 0 && this.composer.startingWithoutTools(this.running).length > 0;
    const left = this.startedAt + EMPTY_CATALOG_GRACE_MS - Date.now();
    if (left <= 0 || !waiting()) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        sub.dispose();
        resolve();
      };
      const timer = setTimeout(done, left);
      const sub = this.changes.on(() => {
        if (!waiting()) done();
      });
    });
  }

  /** The one call path: see toolCalls.ts. */
  callTool(name: string, args: Record<string, unknown>, options: CallOptions = {}): Promise<CallToolResult> {
    return this.calls.call(name, args, options);
  }

  prompts(): CatalogPrompt[] {
    return this.catalog.prompts;
  }

  async getPrompt(name: string, args: Record<string, string>): Promise<GetPromptResult> {
    const prompt = this.catalog.prompts.find((p) => p.name === name);
    if (!prompt) throw new Error(`Unknown prompt "${name}"`);
    // Upstream replies are untrusted text (as call results are in toolCalls.ts).
    return cleanReplyInPlace(await this.pool.getPrompt(prompt.server, prompt.originalName, args));
  }

  resources(): CatalogResource[] {
    return this.catalog.resources;
  }

  resourceTemplates(): CatalogResourceTemplate[] {
    return this.routing.resourceTemplates();
  }

  readResource(uri: string): Promise<ReadResourceResult> {
    return this.routing.readResource(uri);
  }

  complete(params: CompleteRequest['params']): Promise<CompleteResult> {
    return this.routing.complete(params);
  }

  indexStatus(): IndexStatus {
    return this.index.status();
  }

  usageStats(): UsageStats | undefined {
    return this.usage.stats((key) => this.catalog.byKey.get(key)?.name ?? key);
  }

  /**
   * Client-safe names of the tools this session most likely needs next, for `predictive`
   * exposure: between predict.minTools and predict.maxTools when there is any history,
   * topped up from the workspace's overall frequency; none on a cold start.
   */
  predictedTools(sessionId: string): string[] {
    const { minTools, maxTools } = this.options.settings.predict;
    const keys = this.usage.predict(sessionId, maxTools).map((p) => p.key);
    if (keys.length < minTools) {
      for (const p of this.usage.predict(`${sessionId}#frequency`, maxTools)) if (!keys.includes(p.key)) keys.push(p.key);
    }
    return keys
      .map((k) => this.catalog.byKey.get(k)?.name)
      .filter((n): n is string => n !== undefined)
      .slice(0, maxTools);
  }

  async clearUsage(): Promise<void> {
    await this.usage.clear();
  }

  async restartServer(name: string): Promise<void> {
    if (!this.running.some((s) => s.name === name)) throw new Error(`Server "${name}" is not running under MCP Lens`);
    await this.pool.restart(name);
  }

  async reindex(): Promise<void> {
    await this.applyConfig();
    await this.syncIndex();
  }

  async updateSettings(settings: McpLensSettings): Promise<void> {
    this.options.settings = settings;
    await this.usage.setEnabled(settings.usage.enabled);
    await this.applyConfig();
    this.changes.fire('settings');
  }

  onDidChange(listener: (change: LensChange) => void): Disposable {
    return this.changes.on(listener);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.rebuildTimer);
    this.configSource.close();
    this.known.flush();
    await this.pool.close();
    await this.syncing.catch(() => undefined);
    await this.index.close();
    await this.usage.close();
  }

  /** Where the catalog came from: running servers, or (for servers left stopped) what they listed before. */
  catalogSource(): CatalogSource {
    return this.composer.source(this.running, this.deferred);
  }

  /** Holds reloads on file changes (a client editing several config files as one change). */
  pauseReloads(): void {
    this.paused++;
  }

  /** Ends a pause; true when a file changed meanwhile (the caller reloads, once). */
  resumeReloads(): boolean {
    if (this.paused > 0) this.paused--;
    if (this.paused > 0 || !this.changedWhilePaused) return false;
    this.changedWhilePaused = false;
    return true;
  }

  /** Reads the configuration again now. */
  reload(): Promise<void> {
    this.reloadFromDisk();
    return this.reloading;
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
        const state = this.options.fileState?.read();
        if (state) this.options.approvals = { ...state.approvals };
        if (state && JSON.stringify(state.settings) !== JSON.stringify(this.options.settings)) await this.updateSettings(state.settings);
        else await this.applyConfig();
      })
      .catch((err: unknown) => this.options.log.error(`reloading the configuration: ${errorMessage(err)}`));
  }

  /**
   * (Re)reads config and reconciles the pool with what may run: only servers that were added,
   * removed or changed start or stop. Waits for the servers it started only when the options
   * ask for it (one-shot CLI commands).
   */
  private async applyConfig(): Promise<void> {
    const o = this.options;
    this.config = this.configSource.load(o.settings, o.inputs, o.workspaceFolders);
    const running: ServerConfig[] = [];
    const held: HeldServer[] = [];
    for (const server of this.config.servers) {
      const decision = decideApproval(server, { approvals: o.approvals, trusted: o.trusted, autoApprove: o.autoApprove });
      if (decision === 'start') running.push(server);
      else held.push({ config: server, reason: decision === 'needs-approval' ? 'awaiting-approval' : 'untrusted' });
    }
    this.running = running;
    this.held = held;
    this.announcePending();
    this.known.setConfigured(new Set(this.config.servers.map((s) => s.name)));
    const settled = this.pool.setServers(running, this.lifecycle(running));
    this.rebuildCatalog();
    this.changes.fire('servers');
    if (o.waitForServers !== false) {
      await settled;
      this.rebuildCatalog();
    }
  }

  /** Says once per definition that a server waits for approval, and how to give it. */
  private announcePending(): void {
    const now = new Set<string>();
    for (const p of this.pendingApprovals()) {
      const key = `${p.name}\0${p.fingerprint}`;
      now.add(key);
      if (this.announced.has(key)) continue;
      const how = this.options.insideEditor
        ? 'approve it when VS Code asks, or with "MCP Lens: Approve Servers"'
        : 'run `mcp-lens tools` in a terminal to approve it, or pass --trust';
      this.options.log.warn(
        `[${escapeForDisplay(p.name)}] not started: its definition in ${escapeForDisplay(p.sourceFile)} is new or changed and needs your approval (${how})`,
      );
    }
    this.announced = now;
  }

  /** Which servers start now and which wait for their first call (lazy startup, cached search). */
  private lifecycle(running: readonly ServerConfig[]): ServerLifecycle {
    const lazy = this.options.settings.startup === 'lazy';
    if (!lazy && !this.options.preferCachedCatalog) return {};
    const deferred = new Set(running.filter((s) => this.known.entry(s)).map((s) => s.name));
    this.deferred = deferred;
    const lifecycle: ServerLifecycle = { deferred };
    if (lazy) lifecycle.idleTimeoutMs = this.options.idleTimeoutMs ?? this.options.settings.idleTimeoutMinutes * 60_000;
    return lifecycle;
  }

  private onPoolChange(kind: string): void {
    if (this.closed) return;
    this.scheduleRebuild();
    this.changes.fire(kind === 'state' ? 'servers' : 'tools');
  }

  /** Pool events come in bursts (20 servers connecting): one rebuild per burst. */
  private scheduleRebuild(): void {
    if (this.rebuildTimer) return;
    this.rebuildTimer = setTimeout(() => {
      this.rebuildTimer = undefined;
      if (!this.closed) this.rebuildCatalog();
    }, 15);
  }

  /** Recomposes the catalog from the pool and the known catalog; reindexes only when it changed. */
  private rebuildCatalog(): void {
    clearTimeout(this.rebuildTimer);
    this.rebuildTimer = undefined;
    const changed = this.composer.compose(this.running, this.config.include, this.config.exclude);
    if (!changed && this.firstSync) return;
    // Prompts and resources are not searched: only new tools cost a sync of the index.
    if (changed === 'tools' || !this.firstSync) {
      this.firstSync ??= this.syncIndex();
      void this.syncIndex();
    }
    this.changes.fire('tools');
  }

  /** Index syncs queue up; a sync that is still waiting picks up the latest catalog. */
  private syncIndex(): Promise<void> {
    if (this.syncQueued) return this.syncing;
    this.syncQueued = true;
    this.syncing = this.syncing
      .then(() => this.indexOpen)
      .then(() => {
        this.syncQueued = false;
        return this.index.sync(this.catalog.tools);
      })
      .catch((err: unknown) => this.options.log.error(`tool index: sync failed: ${errorMessage(err)}`));
    return this.syncing;
  }
}
