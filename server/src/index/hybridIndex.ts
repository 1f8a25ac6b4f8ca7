/**
 * The tool index: the ranking pipeline (core/search/rankingPipeline.ts) over the catalog, with
 * vectors when an embedder answers. `sync` makes keyword search current at once; the embedding
 * backfill (embeddingBackfill.ts) fills the vectors in behind it, and until it has them — or
 * while Ollama is down, slow or lacks the model — search is keyword-only and says why. This
 * file is the query path: it embeds the request and hands the pipeline the meaning ranking.
 */
import type { IndexStatus } from '../../../protocol/model';
import type { CatalogTokensCache } from '../core/search/catalogTokensCodec';
import type { CatalogTool } from '../core/catalog';
import type { Logger } from '../core/logger';
import { ChangeEmitter } from '../core/changeEmitter';
import type { FusionWeights } from '../core/search/hybridFusion';
import { RankingPipeline } from '../core/search/rankingPipeline';
import type { RankedList, RankedTool, SearchOptions, ToolIndex } from '../core/search/types';
import type { Embedder } from '../adapters/embed/embedder';
import type { ToolStore } from '../adapters/store/toolStore';
import { errorMessage } from '../core/errorMessage';
import { deadline } from '../core/deadline';
import { EmbeddingBackfill, type RetryDelays } from './embeddingBackfill';
import { searchMode, skipsQueries } from './embedderHealth';

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
  /** Where the catalog's reading for keyword search is kept between runs (adapters/catalogTokensFile.ts). */
  tokens?: CatalogTokensCache;
}

/** How long a search right after start waits for the embedder's first answer. */
const FIRST_PROBE_WAIT_MS = 300;

export class HybridToolIndex implements ToolIndex {
  private readonly pipeline: RankingPipeline;
  private readonly changes: ChangeEmitter<void>;
  private readonly backfill: EmbeddingBackfill | undefined;
  private synced = false;
  private lastRefresh: number | undefined;
  private closed = false;

  private constructor(private readonly options: HybridIndexOptions) {
    const log = options.log;
    this.changes = new ChangeEmitter((err) => log.debug(`index change listener failed: ${errorMessage(err)}`));
    this.pipeline = new RankingPipeline({
      ...(options.fusion && { fusion: options.fusion }),
      ...(options.tokens && { tokens: options.tokens }),
    });
    this.backfill = options.embedder
      ? new EmbeddingBackfill({
          openStore: options.openStore,
          embedder: options.embedder,
          log,
          ...(options.backoff && { backoff: options.backoff }),
          ...(options.chunkSize !== undefined && { chunkSize: options.chunkSize }),
          changed: () => this.changes.fire(),
        })
      : undefined;
  }

  /** An index whose store opens (and whose stored vectors load) when the embedder first answers. */
  static async open(options: HybridIndexOptions): Promise<HybridToolIndex> {
    return new HybridToolIndex(options);
  }

  /** True when another process writes the store (known once it is open). */
  get readOnly(): boolean {
    return this.backfill?.readOnly ?? false;
  }

  async sync(tools: readonly CatalogTool[]): Promise<void> {
    if (this.closed) return;
    this.pipeline.setTools(tools);
    this.synced = true;
    this.lastRefresh = Date.now();
    await this.backfill?.sync(tools);
    this.changes.fire();
  }

  async search(query: string, options: SearchOptions): Promise<RankedList> {
    const backfill = this.backfill;
    // Right after start the first probe is usually a few ms from answering; waiting that
    // long (never more than FIRST_PROBE_WAIT_MS) lets the first answer name the real mode.
    if (backfill && backfill.health.kind === 'unknown') {
      await Promise.race([backfill.firstHealth, new Promise((r) => setTimeout(r, FIRST_PROBE_WAIT_MS).unref())]);
    }
    let skipped = 'index closing';
    const meaning =
      backfill &&
      ((text: string, depth: number, server?: string) =>
        this.meaningRanking(backfill, text, depth, server, (why) => (skipped = why)));
    const answer = await this.pipeline.rank(query, options, meaning);
    const mode = this.mode();
    // Only a closing index or a failed vector search skips vectors while the mode still says hybrid.
    if (!answer.fused && mode.kind !== 'keyword')
      return { hits: answer.hits, mode: { kind: 'keyword', label: `keyword only: ${skipped}` } };
    return { hits: answer.hits, mode };
  }

  status(): IndexStatus {
    const embedded = this.backfill?.embeddedCount() ?? 0;
    const total = this.backfill?.total ?? this.pipeline.size;
    // Waiting to retry a failed embedder is not indexing: search is keyword-only and says why.
    const indexing = this.backfill?.indexing(embedded) ?? false;
    const status: IndexStatus = {
      state: !this.synced ? 'idle' : indexing ? 'indexing' : 'ready',
      mode: this.mode(),
      toolsTotal: total,
      toolsEmbedded: embedded,
      embedder: this.backfill?.embedderStatus() ?? { kind: 'none', reachable: false },
    };
    if (indexing) status.progress = total === 0 ? 1 : embedded / total;
    if (this.lastRefresh !== undefined) status.lastRefresh = this.lastRefresh;
    const health = this.backfill?.health;
    if (health && 'message' in health) status.error = health.message;
    return status;
  }

  /** Vectors this process holds for the in-memory scan: all of them below LanceDB's index size, none past it (the memory bench and tests read it). */
  vectorsInMemory(): number {
    return this.backfill?.vectorsInMemory() ?? 0;
  }

  onDidChange(listener: () => void): { dispose(): void } {
    return this.changes.on(listener);
  }

  /** Resolves when the embedding backfill has nothing left to do (it keeps running while it waits to retry). */
  async whenIdle(): Promise<void> {
    await this.backfill?.whenIdle();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.options.tokens?.flush();
    await this.backfill?.close();
    this.changes.clear();
  }

  private mode(): ReturnType<typeof searchMode> {
    const b = this.backfill;
    return searchMode(
      this.options.embedder,
      b?.health ?? { kind: 'unknown' },
      b?.hasCurrentVectors() ?? false,
      b?.storeProblem,
    );
  }

  /** Undefined when the search must be keyword-only (no vectors, embedder down, too slow for this query, or the vector search failed: `skipped` says). */
  private async meaningRanking(
    backfill: EmbeddingBackfill,
    text: string,
    depth: number,
    server: string | undefined,
    skipped: (why: string) => void,
  ): Promise<RankedTool[] | undefined> {
    if (skipsQueries(backfill.health) || backfill.storeProblem !== undefined || !backfill.hasCurrentVectors())
      return undefined;
    const bound = deadline(this.options.queryTimeoutMs ?? 1_500, backfill.stop);
    try {
      const vector = await this.options.embedder!.embedQuery(text, bound.signal);
      const hits = await backfill.search(Float32Array.from(vector), depth, server);
      if (!hits) {
        skipped('vector search failed');
        return undefined;
      }
      return hits.map((h) => ({
        key: h.key,
        score: h.similarity,
        signals: ['meaning'],
        why: `meaning ${h.similarity.toFixed(2)}`,
      }));
    } catch (err) {
      backfill.queryFailed(err);
      return undefined;
    } finally {
      bound.clear();
    }
  }
}
