/**
 * The sidecar's core: config → upstream pool (ServerReconciler) → catalog (CatalogComposer) →
 * tool index (CatalogSync), searched by ToolSearch, called through ToolCalls, with usage
 * learning and search learning. The parts are built and wired in lensParts.ts; this class opens
 * the stores, starts the parts, holds the settings and the change events, and delegates every
 * `Lens` and `LensControl` method to one part. Both front doors (the LSP connection and the CLI)
 * start one and drive it through those interfaces; it knows neither of them. Each part is handed
 * what it reads (functions, or this object as a slice of `Lens`), never this class, so each can
 * be read and tested alone.
 */
import type {
  CallToolResult,
  CompleteRequest,
  CompleteResult,
  GetPromptResult,
  ReadResourceResult,
} from '@modelcontextprotocol/sdk/types.js';
import type {
  ConsentView,
  IndexStatus,
  LearnedSearchView,
  SearchResponse,
  ServerStatus,
  UsageStats,
} from '../../../protocol/model';
import type { McpLensSettings } from '../../../protocol/settings';
import type { CatalogPrompt, CatalogResource, CatalogResourceTemplate, CatalogTool } from '../core/catalog';
import type { ConfigProblem } from '../core/config/types';
import type { ToolIndex } from '../core/search/types';
import type { Principal } from '../core/principal';
import { UpstreamRequests } from './upstreamRequests';
import { ChangeEmitter } from '../core/changeEmitter';
import { useTokenCounter } from '../core/tokens';
import { o200kTokenizer } from '../adapters/tokens/o200kCounter';
import { UpstreamPool } from '../adapters/upstream/pool';
import type { SearchLearning } from '../usage/searchLearning';
import type { UsageTracker } from '../usage/usageTracker';
import type { CallOptions, Disposable, Lens, LensChange, ListKind, SearchRequest } from './lens';
import type { UpstreamCaller } from '../adapters/upstream/types';
import type { LensAppOptions } from './lensAppOptions';
import { buildLensParts, type LensHost, type LensParts } from './lensParts';
import { openLensStores } from './lensStores';
import type { CatalogSource, EditorState, LensControl, PendingApproval } from './lensControl';

export class LensApp implements Lens, LensControl {
  readonly workspaceFolder: string;
  private currentSettings: McpLensSettings;
  private closed = false;
  private readonly changes = new ChangeEmitter<LensChange>();
  /** What answers each method (lensParts.ts): this class only delegates. */
  private readonly parts: LensParts;

  private constructor(
    options: LensAppOptions,
    private readonly pool: UpstreamPool,
    private readonly index: ToolIndex,
    private readonly usage: UsageTracker,
    private readonly learning: SearchLearning,
    startedAt: number,
    /** Where upstreams' sampling, elicitation, roots, logging and updates meet the gateway's sessions. */
    readonly clients: UpstreamRequests,
  ) {
    this.workspaceFolder = options.workspaceFolder;
    this.currentSettings = options.settings;
    const host: LensHost = {
      lens: this,
      settings: () => this.currentSettings,
      updateSettings: (settings) => this.updateSettings(settings),
      fire: (change) => this.changes.fire(change),
      closed: () => this.closed,
    };
    this.parts = buildLensParts(options, { pool, index, usage, learning, startedAt }, host);
  }

  /**
   * Opens the index and usage, loads config and starts every approved server in parallel.
   * Search answers at once from the last known catalog; unless `waitForServers` is false,
   * resolves once each server settled once.
   */
  static async start(options: LensAppOptions): Promise<LensApp> {
    const startedAt = Date.now();
    // What start() would wait for launches only once startAfter settles, which is after it returns.
    if (options.startAfter) options = { ...options, waitForServers: false };
    // Token counts come from the compact o200k table, not gpt-tokenizer's, which holds every token as a string.
    useTokenCounter(o200kTokenizer);
    const { index, usage, learning } = await openLensStores(options);
    // The inbound side resolves our resource URIs through the app, built just below (called only once it is).
    const inbound = new UpstreamRequests({
      log: options.log,
      resolveUri: (uri: string) => app.parts.forwarding.resolveUri(uri),
    });
    // The catalog (from the cache) is indexed before the servers start: on a small machine,
    // twenty starting processes would otherwise take the CPU the first answer needs. They
    // start a few milliseconds later, one per turn of the event loop (pool.ts). With
    // `startAfter`, both wait for it (`serve`: until its client's first tools/list is answered).
    const launchAfter = options.startAfter?.then(() => app.parts.sync.first());
    const pool = new UpstreamPool({
      log: options.log,
      connectTimeoutMs: options.settings.connectTimeoutSeconds * 1000,
      inbound,
      ...options.pool,
      ...(launchAfter && { launchAfter }),
    });
    const app: LensApp = new LensApp(options, pool, index, usage, learning, startedAt, inbound);
    inbound.usePool(pool);
    await app.parts.reconciler.apply();
    if (!options.startAfter) await app.parts.sync.first();
    return app;
  }

  settings(): McpLensSettings {
    return this.currentSettings;
  }

  configProblems(): ConfigProblem[] {
    return this.parts.reconciler.config.problems;
  }

  missingInputs(): string[] {
    return this.parts.reconciler.config.missingInputs;
  }

  pendingApprovals(): PendingApproval[] {
    return this.parts.reconciler.pendingApprovals();
  }

  acceptedToolFilter(): string {
    return this.parts.reconciler.acceptedToolFilter();
  }

  approve(approvals: Record<string, string>): Promise<void> {
    return this.parts.reconciler.approve(approvals);
  }

  setInputs(inputs: Record<string, string>): Promise<void> {
    return this.parts.reconciler.setInputs(inputs);
  }

  async reconfigure(state: EditorState): Promise<void> {
    this.parts.reconciler.replaceEditorState(state);
    await this.updateSettings(state.settings);
  }

  servers(): ServerStatus[] {
    return this.parts.reconciler.statuses(this.parts.tokens.byServer(), (name) => this.parts.composer.toolsOf(name));
  }

  tools(): CatalogTool[] {
    return this.parts.composer.catalog.tools;
  }

  findTool(name: string): CatalogTool | undefined {
    const found = this.parts.composer.catalog.byName.get(name);
    if (found) return found;
    // A server that came up in the burst still gathering: its tools are callable now.
    this.parts.sync.composeNow();
    return this.parts.composer.catalog.byName.get(name);
  }

  appTools(): CatalogTool[] {
    return this.parts.composer.catalog.appTools;
  }

  search(request: SearchRequest): Promise<SearchResponse> {
    return this.parts.finder.search(request);
  }

  /** The one call path: see toolCalls.ts. */
  callTool(name: string, args: Record<string, unknown>, options: CallOptions = {}): Promise<CallToolResult> {
    return this.parts.calls.call(name, args, options);
  }

  prompts(): CatalogPrompt[] {
    return this.parts.composer.catalog.prompts;
  }

  getPrompt(
    name: string,
    args: Record<string, string>,
    principal?: Principal,
    caller?: UpstreamCaller,
  ): Promise<GetPromptResult> {
    return this.parts.forwarding.getPrompt(name, args, principal, caller);
  }

  resources(): CatalogResource[] {
    return this.parts.composer.catalog.resources;
  }

  resourceTemplates(): CatalogResourceTemplate[] {
    return this.parts.forwarding.resourceTemplates();
  }

  catalogBehind(): boolean {
    return this.parts.sync.gathering;
  }

  upstreamListTtl(method: string): number | undefined {
    return this.pool.listTtl(method);
  }

  readResource(uri: string, principal?: Principal, caller?: UpstreamCaller): Promise<ReadResourceResult> {
    return this.parts.forwarding.readResource(uri, principal, caller);
  }

  complete(params: CompleteRequest['params'], principal?: Principal): Promise<CompleteResult> {
    return this.parts.forwarding.complete(params, principal);
  }

  indexStatus(): IndexStatus {
    return this.index.status();
  }

  usageStats(): UsageStats | undefined {
    return this.usage.stats((key) => this.parts.composer.catalog.byKey.get(key)?.name ?? key);
  }

  predictedTools(sessionId: string): string[] {
    return this.parts.finder.predicted(sessionId);
  }

  /** Deletes every recorded call, and what search learned from them. */
  async clearUsage(): Promise<void> {
    await this.usage.clear();
    this.learning.forget();
  }

  learnedSearch(): LearnedSearchView {
    return this.learning.view((key) => this.parts.composer.catalog.byKey.get(key)?.name);
  }

  async forgetLearnedSearch(): Promise<void> {
    this.learning.forget();
  }

  consent(): ConsentView {
    return this.parts.consent.view();
  }

  async revokeConsent(principal: string, key: string): Promise<void> {
    this.parts.consent.revoke(principal, key);
  }

  async shareLearnedSearch(tool: string): Promise<void> {
    const key = this.parts.composer.catalog.byName.get(tool)?.key ?? tool;
    if (this.learning.share(key) === 0) throw new Error(`nothing is learned for ${tool}`);
  }

  restartServer(name: string): Promise<void> {
    return this.parts.reconciler.restart(name);
  }

  signIn(name: string, signal?: AbortSignal): Promise<void> {
    return this.pool.signIn(this.parts.reconciler.runningServer(name), signal);
  }

  signOut(name: string): Promise<void> {
    return this.pool.signOut(this.parts.reconciler.runningServer(name));
  }

  async reindex(): Promise<void> {
    await this.parts.reconciler.apply();
    await this.parts.sync.sync();
  }

  /** Settings reach the core here and only here (AGENTS.md: how to add a setting). */
  async updateSettings(settings: McpLensSettings): Promise<void> {
    this.currentSettings = settings;
    await this.usage.setEnabled(settings.usage.enabled);
    this.learning.setEnabled(settings.search.learnFromUsage);
    await this.parts.reconciler.apply();
    this.changes.fire('settings');
  }

  onDidChange(listener: (change: LensChange) => void): Disposable {
    return this.changes.on(listener);
  }

  whenServersStarted(): Promise<void> {
    return this.parts.quiet.whenQuiet();
  }

  async whenListed(kind: ListKind): Promise<void> {
    await this.parts.firstListings.whenListed(kind);
    // What the servers that came up listed is in the catalog the caller reads next.
    this.parts.sync.composeNow();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.parts.sync.stop();
    this.parts.tokens.stop();
    this.parts.quiet.dispose();
    this.parts.reconciler.close();
    this.parts.known.flush();
    await this.pool.close();
    await this.parts.sync.current();
    await this.index.close();
    await this.usage.close();
    this.learning.close();
  }

  catalogSource(): CatalogSource {
    return this.parts.composer.source(this.parts.reconciler.admitted.running, this.parts.reconciler.deferred);
  }

  pauseReloads(): void {
    this.parts.reconciler.pauseReloads();
  }

  resumeReloads(): boolean {
    return this.parts.reconciler.resumeReloads();
  }

  reload(): Promise<void> {
    return this.parts.reconciler.reload();
  }
}
