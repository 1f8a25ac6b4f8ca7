/**
 * What each server listed the last time it was up, kept across runs (adapters/catalogCacheFile)
 * and keyed by the fingerprint of its definition. It lets the catalog hold a server's tools
 * before it is connected (right after start, while it starts, while lazily stopped), and the
 * live listing replaces it as soon as the server is up. Writes are coalesced, and wait while
 * servers are starting (StartupQuiet: each one coming up changes the catalog; the file is
 * written once they are up, or at the latest on close).
 */
import { createHash } from 'node:crypto';
import type { ServerConfig } from '../core/config/types';
import type { Logger } from '../core/logger';
import type { UpstreamTool } from '../adapters/upstream/types';
import { readCatalogCache, writeCatalogCache, type CachedServer } from '../adapters/catalogCacheFile';
import { errorMessage } from '../core/errorMessage';
import type { StartupQuiet } from './startupQuiet';

/** How long after the last change the cache is written (the catalog settles in bursts at start). */
const WRITE_DELAY_MS = 1000;

export class KnownCatalog {
  private readonly servers: Record<string, CachedServer>;
  /** A hash of each list's JSON, so an unchanged relisting is recognised at the cost of one stringify. */
  private readonly hashOf = new WeakMap<readonly UpstreamTool[], string>();
  /** Listings found the same as the cached one, whose time was taken. */
  private readonly confirmed = new WeakSet<readonly UpstreamTool[]>();
  private timer: NodeJS.Timeout | undefined;
  private configured: ReadonlySet<string> = new Set();
  /** Token counts read from the file; `countsToKeep` says which to write back. */
  readonly tokenCounts: Record<string, number>;
  private countsToKeep: () => Record<string, number> = () => ({});
  /** Changes not written yet. */
  private dirty = false;
  /** Each server's fingerprint as the file held it when MCP Lens started. */
  private readonly atStart: ReadonlyMap<string, string>;

  constructor(
    private readonly file: string,
    private readonly log: Logger,
    /** Writes wait for this (servers still starting: startupQuiet.ts). */
    private readonly quiet?: Pick<StartupQuiet, 'whenQuiet'>,
  ) {
    ({ servers: this.servers, tokenCounts: this.tokenCounts } = readCatalogCache(file));
    this.atStart = new Map(Object.entries(this.servers).map(([name, s]) => [name, s.fingerprint]));
  }

  /** Whether the cache held this definition (listed or failed) when MCP Lens started. */
  cachedAtStart(config: ServerConfig): boolean {
    return this.atStart.get(config.name) === config.fingerprint;
  }

  /** Where the token counts written with the catalog come from. */
  keepTokenCounts(counts: () => Record<string, number>): void {
    this.countsToKeep = counts;
  }

  /** Writes soon, e.g. when token counts were added. */
  touch(): void {
    this.scheduleWrite();
  }

  /** The last listing of exactly this definition, if there is one (failed ones included). */
  entry(config: ServerConfig): CachedServer | undefined {
    const s = this.servers[config.name];
    return s && s.fingerprint === config.fingerprint ? s : undefined;
  }

  /** Cached tools of this definition; undefined when none are known (or it had failed). */
  tools(config: ServerConfig): readonly UpstreamTool[] | undefined {
    const s = this.entry(config);
    return s && s.failed === undefined ? s.tools : undefined;
  }

  /**
   * Records what a server listed now and returns the list to use: the cached array itself
   * when the content is the same, so the catalog sees nothing new and nothing is rebuilt.
   */
  listed(config: ServerConfig, tools: readonly UpstreamTool[]): readonly UpstreamTool[] {
    const known = this.tools(config);
    if (known && (known === tools || this.hash(known) === this.hash(tools))) {
      // A new listing, the same as before: the list is as of now (`mcp-lens search` says when
      // its cached tools were listed). The catalog is composed again on every change of any
      // server, with the same arrays: those are not listings.
      if (known !== tools && !this.confirmed.has(tools)) {
        this.confirmed.add(tools);
        this.servers[config.name]!.listedAt = Date.now();
        this.scheduleWrite();
      }
      return known;
    }
    this.servers[config.name] = { fingerprint: config.fingerprint, listedAt: Date.now(), tools: [...tools] };
    this.hashOf.set(this.servers[config.name]!.tools, this.hash(tools));
    this.scheduleWrite();
    return this.servers[config.name]!.tools;
  }

  /** A server that failed before ever listing this definition is remembered as failed. */
  failed(config: ServerConfig, reason: string): void {
    if (this.entry(config)) return;
    this.servers[config.name] = { fingerprint: config.fingerprint, listedAt: Date.now(), tools: [], failed: reason };
    this.scheduleWrite();
  }

  /** Servers still configured (approved or not): the cache keeps only theirs. */
  setConfigured(names: ReadonlySet<string>): void {
    this.configured = names;
  }

  /** Writes pending changes now (on close). */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.dirty) this.write();
  }

  private hash(tools: readonly UpstreamTool[]): string {
    let h = this.hashOf.get(tools);
    if (h === undefined)
      this.hashOf.set(tools, (h = createHash('sha256').update(JSON.stringify(tools)).digest('base64url')));
    return h;
  }

  private scheduleWrite(): void {
    this.dirty = true;
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!this.quiet) return this.write();
      // Written once, after the wait, with every change made meanwhile (flush may have written it already).
      void this.quiet.whenQuiet().then(() => {
        if (this.dirty && !this.timer) this.write();
      });
    }, WRITE_DELAY_MS);
    this.timer.unref();
  }

  private write(): void {
    this.dirty = false;
    const servers = Object.fromEntries(Object.entries(this.servers).filter(([name]) => this.configured.has(name)));
    try {
      writeCatalogCache(this.file, { version: 2, servers, tokenCounts: this.countsToKeep() });
    } catch (err) {
      this.log.debug(`catalog cache ${this.file} not written (${errorMessage(err)})`);
    }
  }
}
