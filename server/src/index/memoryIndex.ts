/**
 * A keyword-only index with nothing on disk, for commands that only list tools and for
 * second processes that must not write the store. The same ranking pipeline as the hybrid
 * index (core/search/rankingPipeline.ts), without its meaning ranking.
 */
import type { IndexStatus } from '../../../protocol/model';
import type { CatalogTool } from '../core/catalog';
import type { CatalogTokensCache } from '../core/search/catalogTokensCodec';
import { RankingPipeline } from '../core/search/rankingPipeline';
import type { RankedList, SearchOptions, ToolIndex } from '../core/search/types';
import { ChangeEmitter } from '../core/changeEmitter';

export class MemoryToolIndex implements ToolIndex {
  private readonly pipeline: RankingPipeline;
  private readonly changes = new ChangeEmitter<void>();
  private total = 0;
  private lastRefresh: number | undefined;

  /** `tokens`: where the catalog's reading is kept between runs (adapters/catalogTokensFile.ts). */
  constructor(
    private readonly label: string,
    private readonly tokens?: CatalogTokensCache,
  ) {
    this.pipeline = new RankingPipeline(tokens ? { tokens } : {});
  }

  async sync(tools: readonly CatalogTool[]): Promise<void> {
    this.pipeline.setTools(tools);
    this.total = tools.length;
    this.lastRefresh = Date.now();
    this.changes.fire();
  }

  async search(query: string, options: SearchOptions): Promise<RankedList> {
    return { hits: (await this.pipeline.rank(query, options)).hits, mode: { kind: 'keyword', label: this.label } };
  }

  status(): IndexStatus {
    const s: IndexStatus = {
      state: 'ready',
      mode: { kind: 'keyword', label: this.label },
      toolsTotal: this.total,
      toolsEmbedded: 0,
      embedder: { kind: 'none', reachable: false },
    };
    if (this.lastRefresh !== undefined) s.lastRefresh = this.lastRefresh;
    return s;
  }

  onDidChange(listener: () => void): { dispose(): void } {
    return this.changes.on(listener);
  }

  async close(): Promise<void> {
    this.tokens?.flush();
  }
}
