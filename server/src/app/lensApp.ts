/**
 * The sidecar's core, wired: config → upstream pool → catalog → tool index (→ usage).
 * Both front doors (the LSP connection and the CLI) build one of these and drive it through
 * the `Lens` interface; it knows neither of them.
 */
import { join } from 'node:path';
import type { CallToolResult, GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import type { IndexStatus, SearchHit, SearchResponse, ServerStatus, UsageStats } from '../../../protocol/model';
import type { McpLensSettings } from '../../../protocol/settings';
import type { CatalogPrompt, CatalogResource, CatalogTool } from '../core/catalog';
import type { ConfigProblem, LoadedConfig, ServerConfig } from '../core/config/types';
import type { Logger } from '../core/logger';
import type { ToolIndex } from '../core/search/types';
import { ArgsValidator } from '../core/argsValidation';
import { createToolFilter } from '../core/config/toolFilter';
import { decideApproval } from '../core/config/approval';
import { describeServer } from '../core/config/describe';
import { ServerListTokens } from '../core/tokens';
import { noMatchHint } from '../core/noMatchHint';
import { loadWorkspaceConfig } from '../adapters/config/loadConfig';
import { UpstreamPool, type UpstreamPoolOptions } from '../adapters/upstream/pool';
import { readCatalogSnapshot, snapshotMatches, writeCatalogSnapshot, type CatalogSnapshot } from '../adapters/catalogSnapshotFile';
import { buildCatalog, parseResourceUri, type Catalog } from './catalogBuilder';
import { mergeStatuses, type HeldServer } from './serverStatuses';
import { ToolCalls } from './toolCalls';
import { openToolIndex } from './indexFactory';
import { UsageTracker } from '../usage/usageTracker';
import { ChangeEmitter } from '../core/changeEmitter';
import type { CallOptions, Disposable, Lens, LensChange, SearchRequest } from './lens';
import { errorMessage } from '../core/errorMessage';

export interface LensAppOptions {
  workspaceFolder: string;
  /** Folder for the tool index and usage data (CLI: <workspace>/.mcp-lens, editor: workspace storage). */
  storageDir: string;
  settings: McpLensSettings;
  /** A config file named by the user (`--config`): read alone, and approved by naming it. */
  configFile?: string;
  /** Workspace Trust: false starts nothing from workspace configuration. */
  trusted: boolean;
  /** server name → approved fingerprint. */
  approvals: Record<string, string>;
  /** `--trust`: approve every server found. */
  autoApprove: boolean;
  inputs: Record<string, string>;
  log: Logger;
  /** Replaces the index built from settings (tests, benchmarks). */
  index?: ToolIndex;
  /** Where usage is recorded; defaults to <storageDir>/usage. */
  usageDir?: string;
  /**
   * Answer from the catalog cached by the last run when the servers that would run are exactly
   * the ones it was listed from, without starting them (`mcp-lens search`). Calls then fail
   * as "not ready"; anything else starts the servers as usual.
   */
  preferCachedCatalog?: boolean;
  /**
   * Running inside VS Code, which starts `.vscode/mcp.json` servers itself: such servers are
   * then marked as duplicates. The CLI cannot know whether an editor is open, so it does not.
   */
  insideEditor?: boolean;
  pool?: Partial<UpstreamPoolOptions>;
  env?: Record<string, string | undefined>;
}

export class LensApp implements Lens {
  readonly workspaceFolder: string;
  private config!: LoadedConfig;
  private held: HeldServer[] = [];
  private running: ServerConfig[] = [];
  private catalog: Catalog = buildCatalog([], [], [], () => true);
  private tokensByServer = new Map<string, number>();
  private readonly listTokens = new ServerListTokens();
  private readonly changes = new ChangeEmitter<LensChange>();
  private readonly calls: ToolCalls;
  private syncing: Promise<void> = Promise.resolve();
  /** Set when the catalog comes from the cache instead of running servers. */
  private cached: CatalogSnapshot | undefined;
  private snapshotTimer: NodeJS.Timeout | undefined;
  private closed = false;

  private constructor(
    private readonly options: LensAppOptions,
    private readonly pool: UpstreamPool,
    private readonly index: ToolIndex,
    private readonly usage: UsageTracker,
  ) {
    this.workspaceFolder = options.workspaceFolder;
    this.calls = new ToolCalls({
      pool,
      validator: new ArgsValidator(),
      log: options.log,
      findTool: (n) => this.findTool(n),
      allNames: () => this.catalog.tools.map((t) => t.name),
      callTimeoutMs: () => this.options.settings.callTimeoutSeconds * 1000,
      // Only an agent's calls through the gateway are judged against its find_tools answers.
      record: (c) =>
        this.usage.record({ sessionId: c.sessionId, toolKey: c.tool.key, server: c.tool.server, startedAt: c.startedAt, durationMs: c.durationMs, outcome: c.outcome, args: c.args, fromAgent: c.origin === 'gateway' }),
    });
  }

  /** Loads config, starts every approved server, waits for each to settle once, indexes. */
  static async start(options: LensAppOptions): Promise<LensApp> {
    const pool = new UpstreamPool({
      log: options.log,
      connectTimeoutMs: options.settings.connectTimeoutSeconds * 1000,
      clientInfo: { name: 'mcp-lens', version: '0.1.0' },
      ...options.pool,
    });
    const index = options.index ?? (await openToolIndex(join(options.storageDir, 'index'), options.settings, options.log));
    const usage = await UsageTracker.open({
      dir: options.usageDir ?? join(options.storageDir, 'usage'),
      enabled: options.settings.usage.enabled,
      retentionDays: options.settings.usage.retentionDays,
      predictK: options.settings.predict.maxTools,
      log: options.log,
    });
    const app = new LensApp(options, pool, index, usage);
    pool.onDidChange((change) => app.onPoolChange(change.kind));
    index.onDidChange(() => app.changes.fire('index'));
    usage.onDidChange(() => app.changes.fire('usage'));
    await app.applyConfig();
    await app.syncing;
    return app;
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

  /** Servers held back until the user approves them, with a secret-free summary. */
  pendingApprovals(): { name: string; fingerprint: string; summary: string; sourceFile: string }[] {
    return this.held
      .filter((h) => h.reason === 'awaiting-approval')
      .map((h) => ({ name: h.config.name, fingerprint: h.config.fingerprint, summary: describeServer(h.config), sourceFile: h.config.source.file }));
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
  async reconfigure(state: { settings: McpLensSettings; approvals: Record<string, string>; inputs: Record<string, string>; trusted: boolean }): Promise<void> {
    this.options.approvals = { ...state.approvals };
    this.options.inputs = { ...state.inputs };
    this.options.trusted = state.trusted;
    await this.updateSettings(state.settings);
  }

  servers(): ServerStatus[] {
    return mergeStatuses(this.running, this.pool.statuses(), this.held, this.config.disabled, this.tokensByServer, this.options.insideEditor === true);
  }

  tools(): CatalogTool[] {
    return this.catalog.tools;
  }

  findTool(name: string): CatalogTool | undefined {
    return this.catalog.byName.get(name);
  }

  async search(request: SearchRequest): Promise<SearchResponse> {
    const started = performance.now();
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
      hits.push({ name: tool.name, server: tool.server, originalName: tool.originalName, description: tool.description, score: r.score, signals: r.signals, why: r.why });
    }
    const answer = hits.slice(0, limit);
    // The session's next call is judged against exactly what this answer showed.
    if (request.sessionId) this.usage.noteAnswer(request.sessionId, answer.map((h) => this.catalog.byName.get(h.name)!.key));
    const response: SearchResponse = { query: request.query, hits: answer, mode: ranked.mode, tookMs: performance.now() - started };
    if (answer.length === 0) response.noMatch = noMatchHint(request.query, this.catalog.tools, this.servers());
    return response;
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
    return this.pool.getPrompt(prompt.server, prompt.originalName, args);
  }

  resources(): CatalogResource[] {
    return this.catalog.resources;
  }

  async readResource(uri: string): Promise<ReadResourceResult> {
    const parsed = parseResourceUri(uri);
    if (!parsed || !this.running.some((s) => s.name === parsed.server)) throw new Error(`Unknown resource "${uri}"`);
    return this.pool.readResource(parsed.server, parsed.originalUri);
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
    if (this.snapshotTimer) {
      clearTimeout(this.snapshotTimer);
      if (!this.cached) this.writeSnapshot();
    }
    await this.pool.close();
    await this.syncing.catch(() => undefined);
    await this.index.close();
    await this.usage.close();
  }

  /** (Re)reads config and reconciles the pool with what may run. */
  private async applyConfig(): Promise<void> {
    const o = this.options;
    const loadOptions: Parameters<typeof loadWorkspaceConfig>[0] = { workspaceFolder: o.workspaceFolder, settings: this.options.settings, inputs: o.inputs };
    if (o.configFile) loadOptions.configFile = o.configFile;
    if (o.env) loadOptions.env = o.env;
    this.config = loadWorkspaceConfig(loadOptions);
    for (const p of this.config.problems) o.log.warn(`${p.file}: ${p.path ? p.path + ': ' : ''}${p.message}`);
    const running: ServerConfig[] = [];
    const held: HeldServer[] = [];
    for (const server of this.config.servers) {
      const decision = decideApproval(server, { approvals: o.approvals, trusted: o.trusted, autoApprove: o.autoApprove });
      if (decision === 'start') running.push(server);
      else held.push({ config: server, reason: decision === 'needs-approval' ? 'awaiting-approval' : 'untrusted' });
    }
    this.running = running;
    this.held = held;
    this.cached = o.preferCachedCatalog ? this.matchingSnapshot(running) : undefined;
    if (!this.cached) await this.pool.setServers(running);
    this.rebuildCatalog();
    this.changes.fire('servers');
  }

  private onPoolChange(kind: string): void {
    if (this.closed) return;
    if (kind !== 'state') this.rebuildCatalog();
    this.changes.fire(kind === 'state' ? 'servers' : 'tools');
  }

  /** Where the catalog came from: running servers, or the cache written at `writtenAt`. */
  catalogSource(): { kind: 'live' } | { kind: 'cached'; writtenAt: number; failed: string[] } {
    return this.cached ? { kind: 'cached', writtenAt: this.cached.writtenAt, failed: Object.keys(this.cached.failed) } : { kind: 'live' };
  }

  private get snapshotPath(): string {
    return join(this.options.storageDir, 'catalog.json');
  }

  private matchingSnapshot(running: readonly ServerConfig[]): CatalogSnapshot | undefined {
    const snapshot = readCatalogSnapshot(this.snapshotPath);
    const wanted = Object.fromEntries(running.map((s) => [s.name, s.fingerprint]));
    return snapshot && snapshotMatches(snapshot, wanted) ? snapshot : undefined;
  }

  /** Caches what the ready servers listed, a moment after the catalog settles. */
  private scheduleSnapshot(): void {
    if (this.cached || this.closed) return;
    clearTimeout(this.snapshotTimer);
    this.snapshotTimer = setTimeout(() => this.writeSnapshot(), 500);
    this.snapshotTimer.unref();
  }

  private writeSnapshot(): void {
    const states = new Map(this.pool.statuses().map((s) => [s.name, s.state]));
    // Only a settled catalog is worth caching: every server listed its tools or failed.
    if (this.running.some((s) => states.get(s.name) !== 'ready' && states.get(s.name) !== 'error')) return;
    const pick = (state: string) => Object.fromEntries(this.running.filter((s) => states.get(s.name) === state).map((s) => [s.name, s.fingerprint]));
    const servers = pick('ready');
    if (Object.keys(servers).length === 0) return;
    try {
      const tools = this.pool.tools().filter((t) => t.server in servers);
      writeCatalogSnapshot(this.snapshotPath, { version: 1, writtenAt: Date.now(), servers, failed: pick('error'), tools });
    } catch (err) {
      this.options.log.debug(`catalog cache not written (${errorMessage(err)})`);
    }
  }

  private rebuildCatalog(): void {
    const allowed = createToolFilter(this.config.include, this.config.exclude);
    this.catalog = this.cached
      ? buildCatalog(this.cached.tools, [], [], allowed)
      : buildCatalog(this.pool.tools(), this.pool.prompts(), this.pool.resources(), allowed);
    this.scheduleSnapshot();
    this.tokensByServer = this.listTokens.count(this.catalog.tools);
    void this.syncIndex();
    this.changes.fire('tools');
  }

  private syncIndex(): Promise<void> {
    const tools = this.catalog.tools;
    this.syncing = this.syncing
      .then(() => this.index.sync(tools))
      .catch((err: unknown) => this.options.log.error(`tool index: sync failed: ${errorMessage(err)}`));
    return this.syncing;
  }
}
