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
  /** When each definition was first seen running here (name + fingerprint). */
  private readonly seenAt = new Map<string, number>();

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
      this.firstSeen(server);
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
    // A multi-root folder's server also answers to its name in that folder (toolFilter.ts).
    const filter = createToolFilter([...include], [...exclude]);
    const localNames = new Map(running.map((s) => [s.name, s.source.folder?.localName]));
    this.catalog = buildCatalog([...composed.values()].flat(), prompts, resources, (server, tool) => filter(server, tool, localNames.get(server)));
    return true;
  }

  /**
   * When the last grace period for a first listing ends: a running server that has never listed
   * its tools (no catalog known for its definition) may take `graceMs` from when it was first
   * seen here to list them; undefined when no server is in its grace period.
   */
  firstListingDeadline(running: readonly ServerConfig[], graceMs: number, now = Date.now()): number | undefined {
    const deadlines = this.unlisted(running).map((s) => this.firstSeen(s) + graceMs).filter((d) => d > now);
    return deadlines.length ? Math.max(...deadlines) : undefined;
  }

  /**
   * Servers past their grace period without listing are remembered as such (in this run and the
   * next), so no later search waits for a server that hangs.
   */
  giveUpFirstListings(running: readonly ServerConfig[], graceMs: number, now = Date.now()): void {
    for (const s of this.unlisted(running)) {
      if (this.firstSeen(s) + graceMs <= now) this.known.failed(s, `had not listed its tools ${Math.round(graceMs / 1000)} s after starting`);
    }
  }

  /** Running servers still starting that have no tools in the catalog (they are missing from answers). */
  startingWithoutTools(running: readonly ServerConfig[]): string[] {
    const states = new Map(this.pool.statuses().map((s) => [s.name, s.state]));
    return running.filter((s) => !this.composed.has(s.name) && (states.get(s.name) ?? 'starting') === 'starting').map((s) => s.name);
  }

  /** Never listed, no catalog known for the definition, not failed: worth a short wait. */
  private unlisted(running: readonly ServerConfig[]): ServerConfig[] {
    const states = new Map(this.pool.statuses().map((s) => [s.name, s.state]));
    // A server counts as listed once its tools are in the catalog, not when it turns ready.
    return running.filter((s) => !this.composed.has(s.name) && !this.known.entry(s) && states.get(s.name) !== 'error');
  }

  private firstSeen(s: ServerConfig): number {
    const key = `${s.name}\0${s.fingerprint}`;
    let at = this.seenAt.get(key);
    if (at === undefined) this.seenAt.set(key, (at = Date.now()));
    return at;
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
