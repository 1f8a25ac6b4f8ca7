/**
 * Vector search by the store, for a catalog past its size for LanceDB's vector index (the
 * backfill holds no vectors then, heldVectors.ts): LanceDB's index first; its exact flat search
 * when the index is missing (being built or rebuilt), fails, or returns a row the in-memory
 * scan would not (a tool gone from the catalog, another model's vector). Undefined when neither
 * answers: that search is keyword-only.
 */
import type { Logger } from '../core/logger';
import { errorMessage } from '../core/errorMessage';
import type { ToolStore } from '../adapters/store/toolStore';
import type { HeldVectors } from './heldVectors';
import type { VectorHit } from './vectorMatrix';

export class StoreVectorSearch {
  /** The flat search failed last time: the next failure is logged at debug, not again as a warning. */
  private failing = false;

  constructor(
    private readonly model: string,
    private readonly rows: HeldVectors,
    private readonly log: Logger,
    /** True when `err` means the store cannot work here at all (it is then dropped). */
    private readonly storeFailed: (err: unknown) => boolean,
  ) {}

  /** `useIndex`: the catalog is past the store's index size (below it, only the flat search is asked). */
  async search(
    store: ToolStore,
    vector: Float32Array,
    limit: number,
    server: string | undefined,
    useIndex: boolean,
  ): Promise<VectorHit[] | undefined> {
    return (
      (useIndex ? await this.byIndex(store, vector, limit, server) : undefined) ??
      (await this.flat(store, vector, limit, server))
    );
  }

  private async byIndex(
    store: ToolStore,
    vector: Float32Array,
    limit: number,
    server?: string,
  ): Promise<VectorHit[] | undefined> {
    if (!store.nearest) return undefined;
    try {
      const hits = await store.nearest(vector, limit, server);
      if (!hits || hits.some((h) => !this.rows.isCurrent(h.id))) return undefined;
      return hits.map((h) => ({ key: h.id, similarity: h.similarity }));
    } catch (err) {
      this.log.debug(`tool store ${store.dir}: vector index search failed (${errorMessage(err)}); searching it flat`);
      return undefined;
    }
  }

  private async flat(
    store: ToolStore,
    vector: Float32Array,
    limit: number,
    server?: string,
  ): Promise<VectorHit[] | undefined> {
    if (!store.scan) return undefined;
    try {
      const hits = await store.scan(vector, limit, { model: this.model, ...(server !== undefined && { server }) });
      this.failing = false;
      // A tool removed from the catalog whose row is still being deleted is not an answer.
      return hits.filter((h) => this.rows.isCurrent(h.id)).map((h) => ({ key: h.id, similarity: h.similarity }));
    } catch (err) {
      if (this.storeFailed(err)) return undefined;
      const line = `tool store ${store.dir}: vector search failed (${errorMessage(err)}); searching keyword-only until it answers`;
      if (this.failing) this.log.debug(line);
      else this.log.warn(line);
      this.failing = true;
      return undefined;
    }
  }
}
