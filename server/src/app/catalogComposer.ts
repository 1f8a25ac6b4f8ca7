/**
 * Which tools the catalog holds, server by server: what a server lists live once it is ready,
 * else its last known catalog (KnownCatalog) while it starts or waits for its first call, and
 * nothing once it failed. Composing is cheap and says whether anything changed: a server whose
 * live list equals its cached one contributes the very same array, so a warm start rebuilds
 * (and reindexes) the catalog once, not once per server.
 */
import type { ServerConfig } from '../core/config/types';
import { createToolFilter } from '../core/config/toolFilter';
import type { UpstreamPool, UpstreamTool } from '../adapters/upstream/pool';
import { buildCatalog, type Catalog } from './catalogBuilder';
import type { KnownCatalog } from './knownCatalog';

export type CatalogSource = { kind: 'live' } | { kind: 'cached'; writtenAt: number; servers: string[]; failed: string[] };

export class CatalogComposer {
  catalog: Catalog = buildCatalog([], [], [], () => true);
  /** Per server, the tools array the catalog was built from. */
  private composed = new Map<string, readonly UpstreamTool[]>();
  private key = '';

  constructor(
    private readonly pool: UpstreamPool,
    private readonly known: KnownCatalog,
  ) {}

  /** The tools a server contributes now, if any. */
  toolsOf(server: string): readonly UpstreamTool[] | undefined {
    return this.composed.get(server);
  }

  /** Recomposes from the pool's current state; true when the catalog changed. */
  compose(running: readonly ServerConfig[], include: readonly string[], exclude: readonly string[]): boolean {
    const statuses = new Map(this.pool.statuses().map((s) => [s.name, s]));
    const composed = new Map<string, readonly UpstreamTool[]>();
    for (const server of running) {
      const status = statuses.get(server.name);
      if (status?.state === 'ready') composed.set(server.name, this.known.listed(server, this.pool.toolsOf(server.name)));
      else if (status?.state === 'error') this.known.failed(server, status.error ?? 'failed');
      else {
        // Starting (or restarting) or stopped until its first call: its last known tools.
        const tools = this.known.tools(server) ?? (this.pool.toolsOf(server.name).length ? this.pool.toolsOf(server.name) : undefined);
        if (tools) composed.set(server.name, tools);
      }
    }
    const prompts = this.pool.prompts();
    const resources = this.pool.resources();
    const key = JSON.stringify([include, exclude, prompts, resources]);
    const same = key === this.key && composed.size === this.composed.size && [...composed].every(([name, tools]) => this.composed.get(name) === tools);
    this.composed = composed;
    this.key = key;
    if (same) return false;
    this.catalog = buildCatalog([...composed.values()].flat(), prompts, resources, createToolFilter([...include], [...exclude]));
    return true;
  }

  /** True while a running server that has never listed its tools (no cache) is still coming up. */
  awaitsFirstListing(running: readonly ServerConfig[]): boolean {
    const states = new Map(this.pool.statuses().map((s) => [s.name, s.state]));
    // A server counts as listed once its tools are in the catalog, not when it turns ready.
    return running.some((s) => !this.composed.has(s.name) && !this.known.entry(s) && states.get(s.name) !== 'error');
  }

  /** Servers left stopped whose tools come from the cache (`mcp-lens search` says so). */
  source(running: readonly ServerConfig[], deferred: ReadonlySet<string>): CatalogSource {
    const states = new Map(this.pool.statuses().map((s) => [s.name, s.state]));
    const entries = running
      .filter((s) => deferred.has(s.name) && states.get(s.name) === 'stopped')
      .flatMap((s) => {
        const entry = this.known.entry(s);
        return entry ? [{ name: s.name, entry }] : [];
      });
    if (entries.length === 0) return { kind: 'live' };
    return {
      kind: 'cached',
      writtenAt: Math.min(...entries.map((e) => e.entry.listedAt)),
      servers: entries.map((e) => e.name),
      failed: entries.filter((e) => e.entry.failed !== undefined).map((e) => e.name),
    };
  }
}
