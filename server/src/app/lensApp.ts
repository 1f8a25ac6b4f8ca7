/**
 * The sidecar's core, wired: config → upstream pool (ServerReconciler) → catalog
 * (CatalogComposer) → tool index (CatalogSync), searched by ToolSearch, called through
 * ToolCalls, with usage learning and search learning. Both front doors (the LSP connection and the CLI) start one
 * and drive it through `Lens` and `LensControl`; it knows neither of them. Each part is handed
 * what it reads (functions, or this object as a slice of `Lens`), never this class, so each
 * can be read and tested alone.
 */
import { join } from 'node:path';
import type { CallToolResult, GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import type { IndexStatus, LearnedSearchView, SearchResponse, ServerStatus, UsageStats } from '../../../protocol/model';
import type { McpLensSettings } from '../../../protocol/settings';
import type { CatalogPrompt, CatalogResource, CatalogTool } from '../core/catalog';
import type { ConfigProblem } from '../core/config/types';
import type { ToolIndex } from '../core/search/types';
import { ChangeEmitter } from '../core/changeEmitter';
import { useTokenCounter } from '../core/tokens';
import { o200kTokenizer } from '../adapters/tokens/o200kCounter';
import { UpstreamPool } from '../adapters/upstream/pool';
import type { SearchLearning } from '../usage/searchLearning';
import type { UsageTracker } from '../usage/usageTracker';
import { CatalogComposer } from './catalogComposer';
import { CatalogSync } from './catalogSync';
import { KnownCatalog } from './knownCatalog';
import type { CallOptions, Disposable, Lens, LensChange, SearchRequest } from './lens';
import type { LensAppOptions } from './lensAppOptions';
import { openLensStores } from './lensStores';
import type { CatalogSource, EditorState, LensControl, PendingApproval } from './lensControl';
import { ServerReconciler } from './serverReconciler';
import { ServerTokenCounts } from './serverTokens';
import { ToolCalls } from './toolCalls';
import { ToolSearch } from './toolSearch';
import { UpstreamForwarding } from './upstreamForwarding';

export class LensApp implements Lens, LensControl {
  readonly workspaceFolder: string;
  private currentSettings: McpLensSettings;
  private closed = false;
  private readonly changes = new ChangeEmitter<LensChange>();
  private readonly known: KnownCatalog;
  private readonly composer: CatalogComposer;
  private readonly reconciler: ServerReconciler;
  private readonly sync: CatalogSync;
  private readonly tokens: ServerTokenCounts;
  private readonly finder: ToolSearch;
  private readonly calls: ToolCalls;
  private readonly forwarding: UpstreamForwarding;

  private constructor(
    options: LensAppOptions,
    private readonly pool: UpstreamPool,
    private readonly index: ToolIndex,
    private readonly usage: UsageTracker,
    private readonly learning: SearchLearning,
    startedAt: number,
  ) {
    this.workspaceFolder = options.workspaceFolder;
    this.currentSettings = options.settings;
    const catalog = () => this.composer.catalog;
    this.known = new KnownCatalog(join(options.storageDir, 'catalog.json'), options.log);
    this.composer = new CatalogComposer(pool, this.known);
    this.reconciler = new ServerReconciler({
      ...options,
      pool,
      known: this.known,
      settings: () => this.currentSettings,
      poolChanged: () => this.sync.rebuild(),
      serversChanged: () => this.changes.fire('servers'),
      settingsRead: (settings) => this.updateSettings(settings),
    });
    this.sync = new CatalogSync({
      compose: () => this.composer.compose(this.reconciler.admitted),
      tools: () => this.composer.catalog.tools,
      index,
      log: options.log,
      changed: () => this.changes.fire('tools'),
    });
    this.tokens = new ServerTokenCounts({ known: this.known, catalog, counted: () => this.changes.fire('servers') });
    this.finder = new ToolSearch({
      lens: this,
      index,
      usage,
      learning,
      sync: this.sync,
      catalog,
      startingWithoutTools: () => this.composer.startingWithoutTools(this.reconciler.admitted.running),
      startedAt,
    });
    // Search learning hears every finished call beside usage (searchLearning.ts: only an agent's teach).
    const record = (call: Parameters<UsageTracker['record']>[0]) => {
      usage.record(call);
      learning.noteCall(call);
    };
    this.calls = new ToolCalls({ lens: this, pool, log: options.log, usage: { record } });
    this.forwarding = new UpstreamForwarding({ pool, catalog, isRunning: (name) => this.reconciler.isRunning(name) });
    pool.onDidChange((change) => {
      if (this.closed) return;
      this.sync.schedule();
      this.changes.fire(change.kind === 'state' ? 'servers' : 'tools');
    });
    index.onDidChange(() => this.changes.fire('index'));
    usage.onDidChange(() => this.changes.fire('usage'));
    learning.onDidChange(() => this.changes.fire('usage'));
  }

  /**
   * Opens the index and usage, loads config and starts every approved server in parallel.
   * Search answers at once from the last known catalog; unless `waitForServers` is false,
   * resolves once each server settled once.
   */
  static async start(options: LensAppOptions): Promise<LensApp> {
    const startedAt = Date.now();
    // Token counts come from the compact o200k table (a few MB), not gpt-tokenizer's (~70 MB).
    useTokenCounter(o200kTokenizer);
    const { index, usage, learning } = await openLensStores(options);
    const pool = new UpstreamPool({ log: options.log, connectTimeoutMs: options.settings.connectTimeoutSeconds * 1000, ...options.pool });
    const app = new LensApp(options, pool, index, usage, learning, startedAt);
    // The catalog (from the cache) is indexed before the servers start: on a small machine,
    // twenty starting processes would otherwise take the CPU the first answer needs. They
    // start a few milliseconds later, one per turn of the event loop (pool.ts).
    await app.reconciler.apply();
    await app.sync.first();
    return app;
  }

  settings(): McpLensSettings {
    return this.currentSettings;
  }

  configProblems(): ConfigProblem[] {
    return this.reconciler.config.problems;
  }

  missingInputs(): string[] {
    return this.reconciler.config.missingInputs;
  }

  pendingApprovals(): PendingApproval[] {
    return this.reconciler.pendingApprovals();
  }

  approve(approvals: Record<string, string>): Promise<void> {
    return this.reconciler.approve(approvals);
  }

  setInputs(inputs: Record<string, string>): Promise<void> {
    return this.reconciler.setInputs(inputs);
  }

  async reconfigure(state: EditorState): Promise<void> {
    this.reconciler.replaceEditorState(state);
    await this.updateSettings(state.settings);
  }

  servers(): ServerStatus[] {
    return this.reconciler.statuses(this.tokens.byServer(), (name) => this.composer.toolsOf(name));
  }

  tools(): CatalogTool[] {
    return this.composer.catalog.tools;
  }

  findTool(name: string): CatalogTool | undefined {
    return this.composer.catalog.byName.get(name);
  }

  search(request: SearchRequest): Promise<SearchResponse> {
    return this.finder.search(request);
  }

  /** The one call path: see toolCalls.ts. */
  callTool(name: string, args: Record<string, unknown>, options: CallOptions = {}): Promise<CallToolResult> {
    return this.calls.call(name, args, options);
  }

  prompts(): CatalogPrompt[] {
    return this.composer.catalog.prompts;
  }

  getPrompt(name: string, args: Record<string, string>): Promise<GetPromptResult> {
    return this.forwarding.getPrompt(name, args);
  }

  resources(): CatalogResource[] {
    return this.composer.catalog.resources;
  }

  readResource(uri: string): Promise<ReadResourceResult> {
    return this.forwarding.readResource(uri);
  }

  indexStatus(): IndexStatus {
    return this.index.status();
  }

  usageStats(): UsageStats | undefined {
    return this.usage.stats((key) => this.composer.catalog.byKey.get(key)?.name ?? key);
  }

  predictedTools(sessionId: string): string[] {
    return this.finder.predicted(sessionId);
  }

  /** Deletes every recorded call, and what search learned from them. */
  async clearUsage(): Promise<void> {
    await this.usage.clear();
    this.learning.forget();
  }

  learnedSearch(): LearnedSearchView {
    return this.learning.view((key) => this.composer.catalog.byKey.get(key)?.name);
  }

  async forgetLearnedSearch(): Promise<void> {
    this.learning.forget();
  }

  restartServer(name: string): Promise<void> {
    return this.reconciler.restart(name);
  }

  signIn(name: string, signal?: AbortSignal): Promise<void> {
    return this.pool.signIn(this.reconciler.runningServer(name), signal);
  }

  signOut(name: string): Promise<void> {
    return this.pool.signOut(this.reconciler.runningServer(name));
  }

  async reindex(): Promise<void> {
    await this.reconciler.apply();
    await this.sync.sync();
  }

  /** Settings reach the core here and only here (AGENTS.md: how to add a setting). */
  async updateSettings(settings: McpLensSettings): Promise<void> {
    this.currentSettings = settings;
    await this.usage.setEnabled(settings.usage.enabled);
    this.learning.setEnabled(settings.search.learnFromUsage);
    await this.reconciler.apply();
    this.changes.fire('settings');
  }

  onDidChange(listener: (change: LensChange) => void): Disposable {
    return this.changes.on(listener);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.sync.stop();
    this.tokens.stop();
    this.reconciler.close();
    this.known.flush();
    await this.pool.close();
    await this.sync.current();
    await this.index.close();
    await this.usage.close();
    this.learning.close();
  }

  catalogSource(): CatalogSource {
    return this.composer.source(this.reconciler.admitted.running, this.reconciler.deferred);
  }

  pauseReloads(): void {
    this.reconciler.pauseReloads();
  }

  resumeReloads(): boolean {
    return this.reconciler.resumeReloads();
  }

  reload(): Promise<void> {
    return this.reconciler.reload();
  }
}
