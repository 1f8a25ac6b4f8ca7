/**
 * Listings → catalog → index. Pool events come in bursts (twenty servers connecting): they are
 * composed into the catalog once per burst, and the index is synced only when the tools changed
 * (prompts and resources are not searched). Index syncs queue up: while one runs, at most one
 * more waits, and it picks up the catalog as it is when it starts, so a burst costs one sync.
 * While twenty servers come up one after another, bursts follow each other for seconds and
 * each sync reads the whole catalog again: a sync after a catalog change waits until
 * SYNC_SPACING × the last sync's time has passed since it ended, and not while servers are
 * still starting (StartupQuiet, bounded): during a spawn storm the catalog is composed at once
 * (what the servers rows, list_servers and the dashboard show) but indexed once the storm is
 * over. A search does not wait for either: it syncs at once through `current()`.
 */
import type { CatalogTool } from '../core/catalog';
import type { Logger } from '../core/logger';
import type { ToolIndex } from '../core/search/types';
import { errorMessage } from '../core/errorMessage';
import type { StartupQuiet } from './startupQuiet';

/** How long pool events are gathered into one burst before the catalog is composed. */
export const REBUILD_DELAY_MS = 15;

/**
 * A sync after a catalog change starts at least this many times the last sync's duration after
 * it ended, at most MAX_SYNC_WAIT_MS: the index takes at most about a third of the gateway's time
 * during a spawn storm, when the catalog changes with every server that comes up and the servers
 * still starting need the same CPU (bench-results.md, "Start-up work").
 */
export const SYNC_SPACING = 2;
const MAX_SYNC_WAIT_MS = 1000;

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
  /** Syncs no one asked for wait for this (servers still starting: startupQuiet.ts). */
  quiet?: Pick<StartupQuiet, 'whenQuiet'>;
}

export class CatalogSync {
  private syncing: Promise<void>;
  private syncQueued = false;
  private firstSync: Promise<void> | undefined;
  private rebuildTimer: NodeJS.Timeout | undefined;
  /** A sync spaced after the last one (SYNC_SPACING). */
  private syncTimer: NodeJS.Timeout | undefined;
  /** A sync waiting for the servers' start to end (its identity: a later sync replaces it). */
  private awaitingQuiet: object | undefined;
  private lastSync = { endedAt: 0, tookMs: 0 };
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
    if (!this.firstSync) this.firstSync = this.sync();
    else if (changed === 'tools') this.syncSpaced();
    this.o.changed();
  }

  /**
   * A sync once no server is starting, and SYNC_SPACING × the last sync's time has passed since
   * it ended. While one waits, later changes join it; a search (`current()`) runs it at once.
   */
  private syncSpaced(): void {
    if (this.syncTimer || this.awaitingQuiet) return;
    if (this.o.quiet) {
      const waiting = (this.awaitingQuiet = {});
      void this.o.quiet.whenQuiet().then(() => {
        // A sync since (a search's) took this one's place.
        if (this.awaitingQuiet !== waiting) return;
        this.awaitingQuiet = undefined;
        if (!this.stopped) this.syncAfterSpacing();
      });
      return;
    }
    this.syncAfterSpacing();
  }

  private syncAfterSpacing(): void {
    const wait = Math.min(
      MAX_SYNC_WAIT_MS,
      this.lastSync.endedAt + SYNC_SPACING * this.lastSync.tookMs - performance.now(),
    );
    if (wait <= 0) {
      void this.sync();
      return;
    }
    this.syncTimer = setTimeout(() => {
      this.syncTimer = undefined;
      if (!this.stopped) void this.sync();
    }, wait);
  }

  /** Syncs the index with the catalog (after the syncs before it); a sync still waiting is not queued twice. */
  sync(): Promise<void> {
    // The sync queued here reads the catalog as it is when it starts: a spaced one is not needed.
    clearTimeout(this.syncTimer);
    this.syncTimer = undefined;
    this.awaitingQuiet = undefined;
    if (this.syncQueued) return this.syncing;
    this.syncQueued = true;
    this.syncing = this.syncing
      .then(async () => {
        this.syncQueued = false;
        const started = performance.now();
        await this.o.index.sync(this.o.tools());
        this.lastSync = { endedAt: performance.now(), tookMs: performance.now() - started };
      })
      .catch((err: unknown) => this.o.log.error(`tool index: sync failed: ${errorMessage(err)}`));
    return this.syncing;
  }

  /** Resolves once the first catalog composed (at start, from the cache) is in the index. */
  async first(): Promise<void> {
    await this.firstSync;
  }

  /**
   * Composes a burst still gathering now: what is read of the catalog next holds every pool
   * event so far (a call to a tool of a server list_servers just showed ready finds it, not
   * "unknown tool" for the burst's REBUILD_DELAY_MS: LensApp.findTool asks on a miss).
   */
  composeNow(): void {
    if (this.rebuildTimer) this.rebuild();
  }

  /** Pool changes are being gathered into a burst: the catalog does not hold them yet. */
  get gathering(): boolean {
    return this.rebuildTimer !== undefined;
  }

  /** Composes a burst still gathering now, and resolves once the index holds the catalog. */
  current(): Promise<void> {
    this.composeNow();
    if (this.syncTimer || this.awaitingQuiet) void this.sync();
    return this.syncing;
  }

  /** No more composing (the app is closing); `current()` then waits for the sync under way only. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.rebuildTimer);
    this.rebuildTimer = undefined;
    clearTimeout(this.syncTimer);
    this.syncTimer = undefined;
    this.awaitingQuiet = undefined;
  }
}
