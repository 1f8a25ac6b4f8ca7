/**
 * The hybrid index's background worker: keeps a vector for every catalog tool. It embeds only
 * tools whose content hash or model changed, persists vectors in the ToolStore, and — when
 * Ollama is down, slow or lacks the model — leaves search keyword-only and retries with backoff
 * until it can fill the vectors in. The store is opened only once the embedder answers
 * (lazyStore.ts); where it cannot work at all (LanceDB does not load on this platform) vectors
 * stay off for good and `storeProblem` says why. The query path (hybridIndex.ts) asks it for
 * the nearest vectors (`search`) and reads its view of the embedder's health.
 *
 * Where the vectors live: below the store's size for LanceDB's vector index (annIndex.ts) in
 * memory, scanned there (vectorMatrix.ts); from that size on in the store alone — the copies
 * here are dropped, 300 MB at 100,000 tools × 768 dimensions — and LanceDB searches them: its
 * index, or its exact flat search while the index is built or rebuilt, or when it fails.
 */
import type { IndexStatus } from '../../../protocol/model';
import type { CatalogTool } from '../core/catalog';
import type { Logger } from '../core/logger';
import type { Embedder } from '../adapters/embed/embedder';
import type { StoredTool, ToolStore } from '../adapters/store/toolStore';
import { Backoff, type RestartPolicy } from '../core/backoff';
import { errorMessage } from '../core/errorMessage';
import { healthFromError, searchMode, skipsQueries, type HealthState } from './embedderHealth';
import { LazyStore } from './lazyStore';
import { embeddingInput, toolEntry, type ToolEntry } from './toolEntries';
import { HeldVectors } from './heldVectors';
import { StoreVectorSearch } from './storeVectorSearch';
import type { VectorHit } from './vectorMatrix';
import { WakeableSleep } from './wakeableSleep';

/** Delays between embedder retries: Ollama down for long is retried about once a minute. */
export type RetryDelays = Pick<RestartPolicy, 'initialDelayMs' | 'maxDelayMs'>;
const EMBED_RETRY: RetryDelays = { initialDelayMs: 1_000, maxDelayMs: 60_000 };

export interface BackfillOptions {
  /** Opens where vectors persist; called once the embedder first answers, never before. The worker closes what it opened. */
  openStore: () => Promise<ToolStore>;
  embedder: Embedder;
  log: Logger;
  backoff?: Partial<RetryDelays>;
  /** Tools per embedding round between progress reports and store writes. */
  chunkSize?: number;
  /** Called on every change a status reader may want to see (progress, health, store). */
  changed: () => void;
}

export class EmbeddingBackfill {
  private entries = new Map<string, ToolEntry>();
  private readonly rows: HeldVectors;
  private readonly storeSearch: StoreVectorSearch;
  /** A reload of the vectors from the store, after the catalog shrank back below the index's size. */
  private reloading: Promise<void> | undefined;
  /** Once per catalog change: a store that still holds more rows than its index size hands out no vectors, and is not asked again. */
  private mayReload = false;
  private healthState: HealthState = { kind: 'unknown' };
  /** Failure kinds already logged since the embedder last answered. */
  private readonly reportedHealth = new Set<HealthState['kind']>();
  private healthKnown!: () => void;
  /** Resolves once the embedder's health is first known (a probe or an embedding answered). */
  readonly firstHealth = new Promise<void>((resolve) => {
    this.healthKnown = resolve;
  });
  private loop: Promise<void> | undefined;
  private closed = false;
  private readonly stopping = new AbortController();
  private readonly sleeper = new WakeableSleep();
  private readonly backoff: RetryDelays;
  private readonly store: LazyStore;
  private readonly embedder: Embedder;
  private readonly log: Logger;

  constructor(private readonly options: BackfillOptions) {
    this.embedder = options.embedder;
    this.log = options.log;
    this.rows = new HeldVectors(options.embedder.id, (id) => this.entries.has(id));
    this.storeSearch = new StoreVectorSearch(options.embedder.id, this.rows, options.log, (err) =>
      this.storeFailed(err),
    );
    this.store = new LazyStore(options.openStore, options.log);
    this.backoff = { ...EMBED_RETRY, ...options.backoff };
  }

  /** Aborted when the worker closes: a query's embedding waits no longer than that. */
  get stop(): AbortSignal {
    return this.stopping.signal;
  }

  get health(): HealthState {
    return this.healthState;
  }

  /** Why vectors cannot be kept here at all, once known. */
  get storeProblem(): string | undefined {
    return this.store.problem;
  }

  /** True when another process writes the store (known once it is open). */
  get readOnly(): boolean {
    return this.store.current?.readOnly ?? false;
  }

  get total(): number {
    return this.entries.size;
  }

  /** Brings the worker to exactly these tools: removed ones' vectors go, missing ones get embedded. */
  async sync(tools: readonly CatalogTool[]): Promise<void> {
    if (this.closed) return;
    this.entries = new Map(tools.map((t) => [t.key, toolEntry(t)]));
    this.rows.changed();
    this.mayReload = true;
    // A reader picks up what the writer committed since; unchanged, it reads nothing.
    if (this.readOnly) await this.loadRows(true);
    await this.deleteRemoved();
    this.kick();
  }

  /**
   * The `limit` current vectors nearest `vector` (cosine), best first; `server` restricts to
   * one server's tools. Below the store's index size the in-memory scan; past it LanceDB's
   * index, or — no index yet, a failed search, or a hit the scan would not return (a tool
   * gone from the catalog, another model's vector) — LanceDB's exact flat search. Undefined
   * when no path could answer (the store failed): that query is keyword-only.
   */
  async search(vector: Float32Array, limit: number, server?: string): Promise<VectorHit[] | undefined> {
    const store = this.store.current;
    this.releaseIfPastAnn();
    const counts = this.rows.currentCounts();
    if (counts.inMemory === counts.current) return this.rows.matrix().search(vector, limit, server);
    if (!store) return undefined;
    // Back below the index's size (the catalog shrank): the store hands out vectors again.
    if (!this.pastAnn() && this.mayReload) {
      this.mayReload = false;
      this.reloading ??= this.loadRows().finally(() => (this.reloading = undefined));
    }
    return this.storeSearch.search(store, vector, limit, server, this.pastAnn());
  }

  /** Whether the catalog's vectors have reached the store's size for its own index: then they stay in the store only. */
  private pastAnn(): boolean {
    const min = this.store.current?.annMinRows;
    return min !== undefined && this.rows.currentCounts().current >= min;
  }

  /** Past the index's size, drops every vector held here (the store's copy is what gets searched). */
  private releaseIfPastAnn(): void {
    if (this.rows.holdsVectors && this.pastAnn()) this.rows.releaseVectors();
  }

  hasCurrentVectors(): boolean {
    return this.rows.hasCurrent();
  }

  /** Current vectors held in this process (none past the store's index size). */
  vectorsInMemory(): number {
    return this.rows.currentCounts().inMemory;
  }

  embeddedCount(): number {
    let n = 0;
    for (const e of this.entries.values()) if (this.isCurrent(e)) n++;
    return n;
  }

  /** Embedding now, as opposed to done or waiting to retry a failed embedder (then search is keyword-only and says why). */
  indexing(embedded = this.embeddedCount()): boolean {
    return this.loop !== undefined && embedded < this.entries.size && !skipsQueries(this.healthState);
  }

  /** A query's embedding failed: search goes keyword-only until the loop finds the embedder back. */
  queryFailed(err: unknown): void {
    if (this.closed) return;
    this.setHealth(healthFromError(err));
    this.kick();
  }

  embedderStatus(): NonNullable<IndexStatus['embedder']> {
    const health = this.healthState;
    const s: NonNullable<IndexStatus['embedder']> = {
      kind: 'ollama',
      model: this.embedder.model,
      reachable: health.kind === 'ok' || health.kind === 'model-missing' || health.kind === 'error',
    };
    if (this.embedder.host) s.host = this.embedder.host;
    if (health.kind === 'model-missing') s.modelMissing = true;
    if ('message' in health) s.error = health.message;
    return s;
  }

  /** Resolves when the loop has nothing left to do (it keeps running while it waits to retry). */
  async whenIdle(): Promise<void> {
    while (this.loop) await this.loop;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stopping.abort();
    this.sleeper.wakeUp();
    await this.loop;
    await this.store.close();
  }

  /** `onlyChanged`: skip the read when the store has no commit since the last one (readers poll). */
  private async loadRows(onlyChanged = false): Promise<void> {
    const store = this.store.current;
    if (!store) return;
    try {
      // Merged, not replaced: a read-only instance keeps the vectors it embedded in memory.
      const rows = onlyChanged ? await store.readChanged() : await store.readAll();
      if (!rows) return;
      this.rows.put(rows);
      this.releaseIfPastAnn();
      // Vectors read back count as embedded: a warm start's status goes to ready here, with no embedding round to say so.
      this.options.changed();
    } catch (err) {
      if (this.storeFailed(err)) return;
      this.log.warn(`tool index: could not read stored vectors (${errorMessage(err)}); they will be embedded again`);
    }
  }

  private async deleteRemoved(): Promise<void> {
    const removed = this.rows.ids().filter((k) => !this.entries.has(k));
    if (removed.length === 0) return;
    this.rows.delete(removed);
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
    return row !== undefined && row.contentHash === entry.hash && row.model === this.embedder.id;
  }

  private setHealth(health: HealthState): void {
    const before = JSON.stringify(this.healthState);
    this.healthState = health;
    this.healthKnown();
    if (JSON.stringify(health) === before) return;
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
      this.log.info(`tool index: embedder ${this.embedder.id} is answering`);
      this.reportedHealth.clear();
    }
    this.options.changed();
  }

  /** Starts the loop, or wakes it from a backoff wait. */
  private kick(): void {
    if (this.closed) return;
    if (this.loop) {
      this.sleeper.wakeUp();
      return;
    }
    this.loop = this.runLoop().finally(() => {
      this.loop = undefined;
      // `indexing` reads whether the loop runs: its end is a change of state too.
      if (!this.closed) this.options.changed();
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
    if (this.healthState.kind !== 'ok' && !(await this.probe())) return 'failed';
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
      this.options.changed();
      return false;
    }
    await this.loadRows();
    return this.store.current !== undefined;
  }

  /** A store that cannot work here: its vectors go, search is keyword-only and says why. */
  private storeFailed(err: unknown): boolean {
    if (!this.store.failed(err)) return false;
    this.rows.clear();
    this.options.changed();
    return true;
  }

  private async probe(): Promise<boolean> {
    const health = await this.embedder.probe();
    if (health.reachable && !health.modelMissing) this.setHealth({ kind: 'ok' });
    else if (health.modelMissing)
      this.setHealth({ kind: 'model-missing', message: health.error ?? `model "${this.embedder.model}" missing` });
    else this.setHealth({ kind: 'unreachable', message: health.error ?? 'unreachable' });
    return this.healthState.kind === 'ok';
  }

  /** Embeds one chunk of the tools that need it; false when the embedder failed. */
  private async embedRound(todo: ToolEntry[]): Promise<boolean> {
    const chunk = todo.slice(0, this.options.chunkSize ?? 64);
    const embedder = this.embedder;
    try {
      const inputs = chunk.map((e) => embeddingInput(e.tool));
      const vectors = await embedder.embedDocuments(
        inputs.map((i) => i.text),
        this.stopping.signal,
      );
      const rows = chunk
        .map((e, i): [ToolEntry, number] => [e, i])
        .filter(([e]) => this.entries.get(e.tool.key) === e)
        .map(([e, i]) => storedTool(e, embedder.id, Float32Array.from(vectors[i]), inputs[i]));
      // In memory only what search needs; text and schema go to the store and are dropped.
      // Past the index's size already, the new vectors are not kept here either.
      const keep = !this.pastAnn();
      this.rows.put(
        rows.map((r) => ({
          id: r.id,
          server: r.server,
          contentHash: r.contentHash,
          model: r.model,
          ...(keep && { vector: r.vector }),
        })),
      );
      this.releaseIfPastAnn();
      this.setHealth({ kind: 'ok' });
      await this.persist(rows);
      return true;
    } catch (err) {
      if (!this.closed) this.setHealth(healthFromError(err));
      return false;
    } finally {
      this.options.changed();
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
      // A vector only the lost store held is embedded again.
      this.rows.delete([...this.rows.values()].filter((r) => !r.vector).map((r) => r.id));
      const all = [...this.rows.values()].flatMap((r) => {
        const entry = this.entries.get(r.id);
        return entry && r.vector && r.model === this.embedder.id && r.contentHash === entry.hash
          ? [storedTool(entry, r.model, r.vector)]
          : [];
      });
      await store
        .upsert(all)
        .catch(
          (e: unknown) =>
            this.storeFailed(e) ||
            this.log.error(`tool store ${store.dir}: vectors kept in memory only: ${errorMessage(e)}`),
        );
    }
  }
}

/** The row written for a tool; text and schema are rebuilt from the catalog tool when not given. */
function storedTool(
  entry: ToolEntry,
  model: string,
  vector: Float32Array,
  input = embeddingInput(entry.tool),
): StoredTool {
  const t = entry.tool;
  return {
    id: t.key,
    server: t.server,
    tool: t.originalName,
    text: input.text,
    inputSchemaJson: input.schemaJson,
    contentHash: entry.hash,
    model,
    vector,
  };
}
