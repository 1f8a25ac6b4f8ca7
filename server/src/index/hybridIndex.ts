/**
 * The tool index: keyword search (the core's KeywordIndex) always, fused with vector search
 * when an embedder answers. `sync` makes keyword search current at once; embedding happens in
 * a background loop that only embeds tools whose content hash or model changed, persists
 * vectors in the ToolStore, and — when Ollama is down, slow or lacks the model — keeps the
 * index keyword-only and retries with backoff until it can fill the vectors in. The store is
 * opened only once the embedder answers (lazyStore.ts); where it cannot work at all (LanceDB
 * does not load on this platform) the index stays keyword-only for good and says why.
 */
import type { IndexStatus } from '../../../protocol/model';
import type { CatalogTool } from '../core/catalog';
import type { Logger } from '../core/logger';
import { ChangeEmitter } from '../core/changeEmitter';
import { DEFAULT_RRF_K } from '../core/search/fusion';
import { fuseKeywordFirst } from '../core/hybridFusion';
import { KeywordIndex } from '../core/search/keywordIndex';
import type { RankedList, RankedTool, SearchOptions, ToolIndex } from '../core/search/types';
import type { Embedder } from '../adapters/embed/embedder';
import type { StoredTool, StoredVector, ToolStore } from '../adapters/store/toolStore';
import { LazyStore } from './lazyStore';
import { Backoff, type RestartPolicy } from '../core/backoff';
import { WakeableSleep } from './wakeableSleep';
import { healthFromError, searchMode, skipsQueries, type HealthState } from './embedderHealth';
import { embeddingInput, toolEntry, type ToolEntry } from './toolEntries';
import { VectorMatrix } from './vectorMatrix';
import { errorMessage } from '../core/errorMessage';

/**
 * Weighted reciprocal-rank fusion of the keyword and meaning lists below first place (first
 * place: core/hybridFusion.ts). Equal weights are a default, not a finding: no real embedding
 * model could be measured where this was built, so the weights stay configurable until
 * `mcp-lens bench` runs against a real Ollama.
 */
export interface FusionWeights {
  keyword: number;
  meaning: number;
  k: number;
  /** How many candidates each list contributes before fusion (at least the requested limit). */
  depth: number;
}

/** Delays between embedder retries: Ollama down for long is retried about once a minute. */
type RetryDelays = Pick<RestartPolicy, 'initialDelayMs' | 'maxDelayMs'>;
const EMBED_RETRY: RetryDelays = { initialDelayMs: 1_000, maxDelayMs: 60_000 };

export interface HybridIndexOptions {
  /**
   * Opens where vectors persist (app/indexFactory.ts: the LanceDB one). Called once the
   * embedder first answers, never before; the index closes what it opened.
   */
  openStore: () => Promise<ToolStore>;
  embedder?: Embedder;
  log: Logger;
  fusion?: Partial<FusionWeights>;
  backoff?: Partial<RetryDelays>;
  /** A query's embedding must arrive within this, or the search answers keyword-only. */
  queryTimeoutMs?: number;
  /** Tools per embedding round between progress reports and store writes. */
  chunkSize?: number;
}

/** How long a search right after start waits for the embedder's first answer. */
const FIRST_PROBE_WAIT_MS = 300;

export class HybridToolIndex implements ToolIndex {
  private readonly keyword = new KeywordIndex();
  private readonly changes: ChangeEmitter<void>;
  private readonly rows = new Map<string, StoredVector>();
  private entries = new Map<string, ToolEntry>();
  private readonly matrix = new VectorMatrix();
  private matrixDirty = true;
  private health: HealthState = { kind: 'unknown' };
  /** Failure kinds already logged since the embedder last answered. */
  private readonly reportedHealth = new Set<HealthState['kind']>();
  /** Resolves once the embedder's health is first known (a probe or an embedding answered). */
  private healthKnown!: () => void;
  private readonly firstHealth = new Promise<void>((resolve) => {
    this.healthKnown = resolve;
  });
  private synced = false;
  private lastRefresh: number | undefined;
  private loop: Promise<void> | undefined;
  private closed = false;
  private readonly stop = new AbortController();
  private readonly sleeper = new WakeableSleep();
  private readonly fusion: FusionWeights;
  private readonly backoff: RetryDelays;

  private readonly store: LazyStore;

  private constructor(
    openStore: () => Promise<ToolStore>,
    private readonly embedder: Embedder | undefined,
    private readonly log: Logger,
    private readonly options: HybridIndexOptions,
  ) {
    this.changes = new ChangeEmitter((err) => log.debug(`index change listener failed: ${errorMessage(err)}`));
    this.store = new LazyStore(openStore, log);
    this.fusion = { keyword: 1, meaning: 1, k: DEFAULT_RRF_K, depth: 50, ...options.fusion };
    this.backoff = { ...EMBED_RETRY, ...options.backoff };
  }

  /** An index whose store opens (and whose stored vectors load) when the embedder first answers. */
  static async open(options: HybridIndexOptions): Promise<HybridToolIndex> {
    return new HybridToolIndex(options.openStore, options.embedder, options.log, options);
  }

  /** True when another process writes the store (known once it is open). */
  get readOnly(): boolean {
    return this.store.current?.readOnly ?? false;
  }

  async sync(tools: readonly CatalogTool[]): Promise<void> {
    if (this.closed) return;
    this.keyword.setTools(tools);
    this.entries = new Map(tools.map((t) => [t.key, toolEntry(t)]));
    this.synced = true;
    this.lastRefresh = Date.now();
    this.matrixDirty = true;
    // A reader picks up what the writer committed since; unchanged, it reads nothing.
    if (this.readOnly) await this.loadRows(true);
    await this.deleteRemoved();
    this.kick();
    this.changes.fire();
  }

  async search(query: string, options: SearchOptions): Promise<RankedList> {
    // Right after start the first probe is usually a few ms from answering; waiting that
    // long (never more than FIRST_PROBE_WAIT_MS) lets the first answer name the real mode.
    if (this.embedder && this.health.kind === 'unknown') {
      await Promise.race([this.firstHealth, new Promise((r) => setTimeout(r, FIRST_PROBE_WAIT_MS).unref())]);
    }
    const depth = Math.max(options.limit, this.fusion.depth);
    const keywordHits = this.keyword.searchSync(query, { ...options, limit: depth });
    const vectorHits = await this.vectorHits([query, ...(options.keywords ?? [])].join(' '), depth, options.server);
    const mode = this.mode();
    if (!vectorHits) {
      // Only a closing index skips vectors while the mode still says hybrid.
      const keywordMode = mode.kind === 'keyword' ? mode : { kind: 'keyword' as const, label: 'keyword only: index closing' };
      return { hits: keywordHits.slice(0, options.limit), mode: keywordMode };
    }
    // Keyword's first hit keeps first place unless both rankings point elsewhere (core/hybridFusion.ts).
    return { hits: fuseKeywordFirst(keywordHits, vectorHits, options.limit, this.fusion), mode };
  }

  status(): IndexStatus {
    const embedded = this.embeddedCount();
    const total = this.entries.size;
    const mode = this.mode();
    // Waiting to retry a failed embedder is not indexing: search is keyword-only and says why.
    const indexing = this.loop !== undefined && embedded < total && !skipsQueries(this.health);
    const status: IndexStatus = {
      state: !this.synced ? 'idle' : indexing ? 'indexing' : 'ready',
      mode,
      toolsTotal: total,
      toolsEmbedded: embedded,
      embedder: this.embedderStatus(),
    };
    if (indexing) status.progress = total === 0 ? 1 : embedded / total;
    if (this.lastRefresh !== undefined) status.lastRefresh = this.lastRefresh;
    if ('message' in this.health) status.error = this.health.message;
    return status;
  }

  onDidChange(listener: () => void): { dispose(): void } {
    return this.changes.on(listener);
  }

  /** Resolves when the background loop has nothing left to do (it keeps running while it waits to retry). */
  async whenIdle(): Promise<void> {
    while (this.loop) await this.loop;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stop.abort();
    this.sleeper.wakeUp();
    await this.loop;
    await this.store.close();
    this.changes.clear();
  }

  private mode(): ReturnType<typeof searchMode> {
    return searchMode(this.embedder, this.health, this.hasCurrentVectors(), this.store.problem);
  }

  /** `onlyChanged`: skip the read when the store has no commit since the last one (readers poll). */
  private async loadRows(onlyChanged = false): Promise<void> {
    const store = this.store.current;
    if (!store) return;
    try {
      // Merged, not replaced: a read-only instance keeps the vectors it embedded in memory.
      const rows = onlyChanged ? await store.readChanged() : await store.readAll();
      if (!rows) return;
      for (const r of rows) this.rows.set(r.id, r);
      this.matrixDirty = true;
    } catch (err) {
      if (this.storeFailed(err)) return;
      this.log.warn(`tool index: could not read stored vectors (${errorMessage(err)}); they will be embedded again`);
    }
  }

  private async deleteRemoved(): Promise<void> {
    const removed = [...this.rows.keys()].filter((k) => !this.entries.has(k));
    if (removed.length === 0) return;
    for (const k of removed) this.rows.delete(k);
    this.matrixDirty = true;
    const store = this.store.current;
    if (!store || store.readOnly) return;
    try {
      await store.delete(removed);
    } catch (err) {
      if (this.storeFailed(err)) return;
      this.log.warn(`tool store ${store.dir}: deleting ${removed.length} removed tool(s) failed: ${errorMessage(err)}`);
    }
  }

  private isCurrent(entry: ToolEntry): boolean {
    const row = this.rows.get(entry.tool.key);
    return row !== undefined && row.contentHash === entry.hash && row.model === this.embedder?.id;
  }

  private embeddedCount(): number {
    if (!this.embedder) return 0;
    let n = 0;
    for (const e of this.entries.values()) if (this.isCurrent(e)) n++;
    return n;
  }

  /** Cheaper than building the matrix: status() runs on every progress event. */
  private hasCurrentVectors(): boolean {
    const id = this.embedder?.id;
    for (const r of this.rows.values()) if (r.model === id && this.entries.has(r.id)) return true;
    return false;
  }

  private currentMatrix(): VectorMatrix {
    if (this.matrixDirty) {
      const id = this.embedder?.id;
      const rows = [...this.rows.values()].filter((r) => r.model === id && this.entries.has(r.id));
      this.matrix.load(rows.map((r) => ({ key: r.id, server: r.server, vector: r.vector })));
      this.matrixDirty = false;
    }
    return this.matrix;
  }

  /** Undefined when the search must be keyword-only (no vectors, embedder down, or too slow for this query). */
  private async vectorHits(text: string, depth: number, server?: string): Promise<RankedTool[] | undefined> {
    if (!this.embedder || skipsQueries(this.health) || this.store.problem !== undefined || this.currentMatrix().size === 0) return undefined;
    try {
      const deadline = AbortSignal.any([AbortSignal.timeout(this.options.queryTimeoutMs ?? 1_500), this.stop.signal]);
      const vector = await this.embedder.embedQuery(text, deadline);
      return this.currentMatrix()
        .search(vector, depth, server)
        .map((h) => ({ key: h.key, score: h.similarity, signals: ['meaning'], why: `meaning ${h.similarity.toFixed(2)}` }));
    } catch (err) {
      if (this.closed) return undefined;
      this.setHealth(healthFromError(err));
      this.kick();
      return undefined;
    }
  }

  private setHealth(health: HealthState): void {
    const before = JSON.stringify(this.health);
    this.health = health;
    this.healthKnown();
    if (JSON.stringify(health) !== before) {
      // Ollama being absent is an expected state (the mode label says it everywhere), not a
      // warning; and it is said once: retries that fail again, with whatever wording, are debug.
      if ('message' in health) {
        const label = searchMode(this.embedder, health, false, this.store.problem).label;
        const line = `tool index: ${label}${label.includes(health.message) ? '' : ` (${health.message})`}`;
        if (this.reportedHealth.has(health.kind)) this.log.debug(line);
        else if (health.kind === 'unreachable') this.log.info(line);
        else this.log.warn(line);
        this.reportedHealth.add(health.kind);
      } else if (health.kind === 'ok') {
        this.log.info(`tool index: embedder ${this.embedder?.id} is answering`);
        this.reportedHealth.clear();
      }
      this.changes.fire();
    }
  }

  private embedderStatus(): NonNullable<IndexStatus['embedder']> {
    if (!this.embedder) return { kind: 'none', reachable: false };
    const s: NonNullable<IndexStatus['embedder']> = {
      kind: 'ollama',
      model: this.embedder.model,
      reachable: this.health.kind === 'ok' || this.health.kind === 'model-missing' || this.health.kind === 'error',
    };
    if (this.embedder.host) s.host = this.embedder.host;
    if (this.health.kind === 'model-missing') s.modelMissing = true;
    if ('message' in this.health) s.error = this.health.message;
    return s;
  }

  /** Starts the background loop, or wakes it from a backoff wait. */
  private kick(): void {
    if (!this.embedder || this.closed) return;
    if (this.loop) {
      this.sleeper.wakeUp();
      return;
    }
    this.loop = this.runLoop().finally(() => {
      this.loop = undefined;
    });
  }

  private async runLoop(): Promise<void> {
    // The embedder is retried for as long as the index is open: no attempt limit.
    const retries = new Backoff({ ...this.backoff, maxAttempts: Infinity });
    while (!this.closed) {
      const step = await this.embedStep();
      if (step === 'done') return;
      if (step === 'progress') {
        retries.reset();
        continue;
      }
      if (this.closed) return;
      const delay = retries.next() ?? this.backoff.maxDelayMs;
      this.log.debug(`tool index: retrying the embedder in ${delay} ms`);
      await this.sleeper.sleep(delay);
    }
  }

  /** One turn of the loop: make sure the embedder answers and the store is open, then embed one chunk. */
  private async embedStep(): Promise<'done' | 'progress' | 'failed'> {
    // A quick probe first tells the user at once that Ollama is absent, instead of after the
    // embedder's own retries; only a healthy embedder gets the real work.
    if (this.health.kind !== 'ok' && !(await this.probe())) return 'failed';
    if (!(await this.openStore())) return 'done';
    // A reader first takes what the writer has embedded meanwhile, so it embeds only what is still missing.
    if (this.readOnly) await this.loadRows(true);
    const todo = [...this.entries.values()].filter((e) => !this.isCurrent(e));
    if (todo.length === 0 || this.store.problem !== undefined) return 'done';
    return (await this.embedRound(todo)) ? 'progress' : 'failed';
  }

  /** Opens the store on the embedder's first answer and takes the vectors it holds; false when it cannot be used. */
  private async openStore(): Promise<boolean> {
    if (this.store.current) return true;
    if (this.store.problem !== undefined || this.closed) return false;
    const store = await this.store.open();
    if (!store) {
      this.changes.fire();
      return false;
    }
    await this.loadRows();
    return this.store.current !== undefined;
  }

  /** A store that cannot work here: its vectors go, search is keyword-only and says why. */
  private storeFailed(err: unknown): boolean {
    if (!this.store.failed(err)) return false;
    this.rows.clear();
    this.matrixDirty = true;
    this.changes.fire();
    return true;
  }

  private async probe(): Promise<boolean> {
    const health = await this.embedder!.probe();
    if (health.reachable && !health.modelMissing) this.setHealth({ kind: 'ok' });
    else if (health.modelMissing) this.setHealth({ kind: 'model-missing', message: health.error ?? `model "${this.embedder!.model}" missing` });
    else this.setHealth({ kind: 'unreachable', message: health.error ?? 'unreachable' });
    return this.health.kind === 'ok';
  }

  /** Embeds one chunk of the tools that need it; false when the embedder failed. */
  private async embedRound(todo: ToolEntry[]): Promise<boolean> {
    const chunk = todo.slice(0, this.options.chunkSize ?? 64);
    const embedder = this.embedder!;
    try {
      const inputs = chunk.map((e) => embeddingInput(e.tool));
      const vectors = await embedder.embedDocuments(
        inputs.map((i) => i.text),
        this.stop.signal,
      );
      const rows = chunk
        .map((e, i): [ToolEntry, number] => [e, i])
        .filter(([e]) => this.entries.get(e.tool.key) === e)
        .map(([e, i]) => storedTool(e, embedder.id, Float32Array.from(vectors[i]), inputs[i]));
      // In memory only what search needs; text and schema go to the store and are dropped.
      for (const r of rows) this.rows.set(r.id, { id: r.id, server: r.server, contentHash: r.contentHash, model: r.model, vector: r.vector });
      this.matrixDirty = true;
      this.setHealth({ kind: 'ok' });
      await this.persist(rows);
      return true;
    } catch (err) {
      if (!this.closed) this.setHealth(healthFromError(err));
      return false;
    } finally {
      this.changes.fire();
    }
  }

  private async persist(rows: StoredTool[]): Promise<void> {
    const store = this.store.current;
    if (!store || store.readOnly || rows.length === 0) return;
    try {
      await store.upsert(rows);
    } catch (err) {
      if (this.storeFailed(err)) return;
      this.log.warn(`tool store ${store.dir}: writing ${rows.length} vector(s) failed (${errorMessage(err)})`);
      await store.rebuild('a write failed').catch(() => undefined);
      const all = [...this.rows.values()].flatMap((r) => {
        const entry = this.entries.get(r.id);
        return entry && r.model === this.embedder?.id && r.contentHash === entry.hash ? [storedTool(entry, r.model, r.vector)] : [];
      });
      await store
        .upsert(all)
        .catch((e: unknown) => this.storeFailed(e) || this.log.error(`tool store ${store.dir}: vectors kept in memory only: ${errorMessage(e)}`));
    }
  }
}

/** The row written for a tool; text and schema are rebuilt from the catalog tool when not given. */
function storedTool(entry: ToolEntry, model: string, vector: Float32Array, input = embeddingInput(entry.tool)): StoredTool {
  const t = entry.tool;
  return { id: t.key, server: t.server, tool: t.originalName, text: input.text, inputSchemaJson: input.schemaJson, contentHash: entry.hash, model, vector };
}
