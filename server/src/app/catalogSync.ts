/**
 * Listings → catalog → index. Pool events come in bursts (twenty servers connecting): they are
 * composed into the catalog once per burst, and the index is synced only when the tools changed
 * (prompts and resources are not searched). Index syncs queue up: while one runs, at most one
 * more waits, and it picks up the catalog as it is when it starts, so a burst costs one sync.
 */
import type { CatalogTool } from '../core/catalog';
import type { Logger } from '../core/logger';
import type { ToolIndex } from '../core/search/types';
import { errorMessage } from '../core/errorMessage';

/** How long pool events are gathered into one burst before the catalog is composed. */
export const REBUILD_DELAY_MS = 15;

export interface CatalogSyncOptions {
  /** Recomposes the catalog: 'tools' when its tools changed, 'others' when only prompts or resources did. */
  compose(): 'tools' | 'others' | undefined;
  /** The catalog's tools as last composed. */
  tools(): readonly CatalogTool[];
  index: ToolIndex;
  log: Logger;
  /** The catalog changed. */
  changed(): void;
  /** No sync runs before this settles (LensAppOptions.startAfter). */
  after?: Promise<void>;
}

export class CatalogSync {
  private syncing: Promise<void>;
  private syncQueued = false;
  private firstSync: Promise<void> | undefined;
  private rebuildTimer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly o: CatalogSyncOptions) {
    this.syncing = o.after ?? Promise.resolve();
  }

  /** A pool event: the catalog is composed once the burst it belongs to is over. */
  schedule(): void {
    if (this.rebuildTimer || this.stopped) return;
    this.rebuildTimer = setTimeout(() => {
      this.rebuildTimer = undefined;
      if (!this.stopped) this.rebuild();
    }, REBUILD_DELAY_MS);
  }

  /** Composes the catalog now; reindexes only when its tools changed (or it was never indexed). */
  rebuild(): void {
    clearTimeout(this.rebuildTimer);
    this.rebuildTimer = undefined;
    const changed = this.o.compose();
    if (!changed && this.firstSync) return;
    if (changed === 'tools' || !this.firstSync) {
      this.firstSync ??= this.sync();
      void this.sync();
    }
    this.o.changed();
  }

  /** Syncs the index with the catalog (after the syncs before it); a sync still waiting is not queued twice. */
  sync(): Promise<void> {
    if (this.syncQueued) return this.syncing;
    this.syncQueued = true;
    this.syncing = this.syncing
      .then(() => {
        this.syncQueued = false;
        return this.o.index.sync(this.o.tools());
      })
      .catch((err: unknown) => this.o.log.error(`tool index: sync failed: ${errorMessage(err)}`));
    return this.syncing;
  }

  /** Resolves once the first catalog composed (at start, from the cache) is in the index. */
  async first(): Promise<void> {
    await this.firstSync;
  }

  /** Composes a burst still gathering now, and resolves once the index holds the catalog. */
  current(): Promise<void> {
    if (this.rebuildTimer) this.rebuild();
    return this.syncing;
  }

  /** No more composing (the app is closing); `current()` then waits for the sync under way only. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.rebuildTimer);
    this.rebuildTimer = undefined;
  }
}
