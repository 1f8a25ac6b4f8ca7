/**
 * A keyword-only index with nothing on disk, for commands that only list tools and for
 * second processes that must not write the store. Same ranking as the hybrid index's
 * keyword side.
 */
import type { IndexStatus } from '../../../protocol/model';
import type { CatalogTool } from '../core/catalog';
import { KeywordIndex } from '../core/search/keywordIndex';
import type { RankedList, SearchOptions, ToolIndex } from '../core/search/types';
import { ChangeEmitter } from '../core/changeEmitter';

export class MemoryToolIndex implements ToolIndex {
  private readonly keyword = new KeywordIndex();
  private readonly changes = new ChangeEmitter<void>();
  private total = 0;
  private lastRefresh: number | undefined;

  constructor(private readonly label: string) {}

  async sync(tools: readonly CatalogTool[]): Promise<void> {
    this.keyword.setTools(tools);
    this.total = tools.length;
    this.lastRefresh = Date.now();
    this.changes.fire();
  }

  async search(query: string, options: SearchOptions): Promise<RankedList> {
    return { hits: this.keyword.searchSync(query, options), mode: { kind: 'keyword', label: this.label } };
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

  async close(): Promise<void> {}
}
