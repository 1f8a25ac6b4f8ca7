/**
 * Tokens of each server's own tools/list, for the server rows. Known counts (this run, or the
 * catalog cache of an earlier one: a warm start counts nothing) are used at once; a catalog with
 * new lists is counted in the background, one server per turn of the event loop, so counting
 * never holds up an answer, and `counted` says when the rows have them.
 */
import { ServerListTokens, rememberTokenCounts, rememberedTokenCounts, serverListTexts } from '../core/tokens';
import type { CatalogTool } from '../core/catalog';
import type { Catalog } from './catalogBuilder';
import type { KnownCatalog } from './knownCatalog';

export interface ServerTokenCountsOptions {
  /** Where counts of earlier runs come from and are kept. */
  known: KnownCatalog;
  catalog(): Catalog;
  /** A background count finished: the rows changed. */
  counted(): void;
}

export class ServerTokenCounts {
  private readonly listTokens = new ServerListTokens();
  /** The counts of the catalog they were made for. */
  private tokensOf: { catalog: Catalog; tokens: Map<string, number> } | undefined;
  /** The catalog being counted in the background. */
  private counting: Catalog | undefined;
  private stopped = false;

  constructor(private readonly o: ServerTokenCountsOptions) {
    rememberTokenCounts(o.known.tokenCounts);
    o.known.keepTokenCounts(() => rememberedTokenCounts(serverListTexts(o.catalog().tools)));
  }

  /** Tokens per server name of the current catalog: the last complete counts while new ones are made. */
  byServer(): Map<string, number> {
    const catalog = this.o.catalog();
    if (this.tokensOf?.catalog === catalog) return this.tokensOf.tokens;
    const known = this.listTokens.countKnown(catalog.tools);
    if (known) {
      this.tokensOf = { catalog, tokens: known };
      return known;
    }
    void this.countInBackground(catalog);
    return this.tokensOf?.tokens ?? new Map();
  }

  /** A count under way stops at its next turn (the app is closing). */
  stop(): void {
    this.stopped = true;
  }

  private async countInBackground(catalog: Catalog): Promise<void> {
    if (this.counting === catalog) return;
    this.counting = catalog;
    // Grouped once: filtering the whole catalog per server was quadratic (minutes of CPU at
    // 100,000 tools on 5,000 servers).
    const byServer = new Map<string, CatalogTool[]>();
    for (const t of catalog.tools) {
      const list = byServer.get(t.server);
      if (list) list.push(t);
      else byServer.set(t.server, [t]);
    }
    for (const tools of byServer.values()) {
      await new Promise((r) => setImmediate(r));
      if (this.stopped || this.counting !== catalog) return;
      this.listTokens.count(tools);
    }
    this.counting = undefined;
    if (this.o.catalog() !== catalog) return;
    this.tokensOf = { catalog, tokens: this.listTokens.count(catalog.tools) };
    this.o.known.touch();
    this.o.counted();
  }
}
