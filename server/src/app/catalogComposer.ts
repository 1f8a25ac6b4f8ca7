/**
 * Which tools the catalog holds, server by server: what a server lists live once it is ready,
 * else its last known catalog (KnownCatalog) while it starts or waits for its first call, and
 * nothing once it failed. Composing is cheap and says what changed: a server whose live list
 * equals its cached one contributes the very same array, so a warm start rebuilds (and
 * reindexes) the catalog once, not once per server; prompts and resources coming up change the
 * catalog but keep its tools (the same arrays), so they cost no reindex.
 */
import type { ServerConfig } from '../core/config/types';
import { createToolFilters } from '../core/config/toolFilter';
import type { UpstreamPool, UpstreamTool } from '../adapters/upstream/pool';
import { buildCatalog, catalogPrompts, catalogResources, catalogUiUris, type Catalog } from './catalogBuilder';
import type { KnownCatalog } from './knownCatalog';
import type { Admission } from './admission';
import type { CatalogSource } from './lensControl';

export class CatalogComposer {
  catalog: Catalog = buildCatalog([], [], [], () => true);
  /** Per server, the tools array the catalog was built from. */
  private composed = new Map<string, readonly UpstreamTool[]>();
  /** What else decides the tools (the filter), and the prompts and resources, as last composed. */
  private toolsKey = '';
  private othersKey = '';

  constructor(
    private readonly pool: UpstreamPool,
    private readonly known: KnownCatalog,
  ) {}

  /** The tools a server contributes now, if any. */
  toolsOf(server: string): readonly UpstreamTool[] | undefined {
    return this.composed.get(server);
  }

  /**
   * Recomposes from the pool's current state: 'tools' when the tools changed (the index needs
   * them), 'others' when only prompts or resources did (the tools are the same arrays as
   * before), undefined when nothing changed.
   */
  compose({ running, filters }: Pick<Admission, 'running' | 'filters'>): 'tools' | 'others' | undefined {
    const statuses = new Map(this.pool.statuses().map((s) => [s.name, s]));
    const composed = new Map<string, readonly UpstreamTool[]>();
    for (const server of running) {
      const status = statuses.get(server.name);
      if (status?.state === 'ready')
        composed.set(server.name, this.known.listed(server, this.pool.toolsOf(server.name)));
      else if (status?.state === 'error') this.known.failed(server, status.error ?? 'failed');
      else {
        // Starting (or restarting) or stopped until its first call: its last known tools.
        const tools =
          this.known.tools(server) ??
          (this.pool.toolsOf(server.name).length ? this.pool.toolsOf(server.name) : undefined);
        if (tools) composed.set(server.name, tools);
      }
    }
    const prompts = this.pool.prompts();
    const resources = this.pool.resources();
    // A multi-root folder's server also answers to its name in that folder (toolFilter.ts).
    const localNames = new Map(running.map((s) => [s.name, s.source.folder?.localName]));
    // Two servers coming to share a view's URI rewrite it in tools' _meta: the tools change then.
    const upstreamTools = [...composed.values()].flat();
    const ui = catalogUiUris(upstreamTools, resources);
    const toolsKey = JSON.stringify([filters, [...localNames], ui.key]);
    const othersKey = JSON.stringify([prompts, resources]);
    const sameTools =
      toolsKey === this.toolsKey &&
      composed.size === this.composed.size &&
      [...composed].every(([name, tools]) => this.composed.get(name) === tools);
    const sameOthers = othersKey === this.othersKey;
    this.composed = composed;
    this.toolsKey = toolsKey;
    this.othersKey = othersKey;
    if (sameTools && sameOthers) return undefined;
    if (sameTools) {
      // The tools, their names and maps stay the very same objects: nothing to reindex.
      this.catalog = {
        ...this.catalog,
        prompts: catalogPrompts(prompts),
        resources: catalogResources(resources, ui),
        ui,
      };
      return 'others';
    }
    const filter = createToolFilters(filters);
    this.catalog = buildCatalog(
      upstreamTools,
      prompts,
      resources,
      (server, tool) => filter(server, tool, localNames.get(server)),
      ui,
    );
    return 'tools';
  }

  /** Running servers still starting that have no tools in the catalog (they are missing from answers). */
  startingWithoutTools(running: readonly ServerConfig[]): string[] {
    // Every search asks: the pool's statuses (one object per server, thousands in an
    // organisation's catalog) only when some running server has no tools here.
    const without = running.filter((s) => !this.composed.has(s.name));
    if (without.length === 0) return [];
    const states = new Map(this.pool.statuses().map((s) => [s.name, s.state]));
    return without.filter((s) => (states.get(s.name) ?? 'starting') === 'starting').map((s) => s.name);
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
