/**
 * Tokens of each server's own tools/list, for the server rows. Known counts (this run, or the
 * catalog cache of an earlier one: a warm start tokenizes nothing) are used at once; a catalog
 * with tools not counted yet is counted in the background, tool by tool in slices of a few
 * milliseconds (core/toolListTokens.ts), so counting never holds up an answer, and `counted`
 * says when the rows have them.
 */
import { rememberTokenCounts } from '../core/tokens';
import { countCatalogTokensPaced, knownCatalogTokens, pieceCounts, type CatalogTokens } from '../core/toolListTokens';
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
  /** The counts of the catalog they were made for. */
  private tokensOf: { catalog: Catalog; tokens: Map<string, number> } | undefined;
  /** The catalog being counted in the background. */
  private counting: Catalog | undefined;
  private stopped = false;

  constructor(private readonly o: ServerTokenCountsOptions) {
    rememberTokenCounts(o.known.tokenCounts);
    o.known.keepTokenCounts(() => pieceCounts(o.catalog().tools));
  }

  /** Tokens per server name of the current catalog: the last complete counts while new ones are made. */
  byServer(): Map<string, number> {
    const catalog = this.o.catalog();
    if (this.tokensOf?.catalog === catalog) return this.tokensOf.tokens;
    // Asked on every status poll: while a count runs, its answer is awaited, not looked up again.
    const known = this.counting === catalog ? undefined : knownCatalogTokens(catalog.tools);
    if (known) return this.keep(catalog, known);
    void this.countInBackground(catalog);
    return this.tokensOf?.tokens ?? new Map();
  }

  /** A count under way stops at its next turn (the app is closing). */
  stop(): void {
    this.stopped = true;
  }

  private keep(catalog: Catalog, counted: CatalogTokens): Map<string, number> {
    const tokens = new Map([...counted.perServer].map(([server, row]) => [server, row.tokens]));
    this.tokensOf = { catalog, tokens };
    return tokens;
  }

  private async countInBackground(catalog: Catalog): Promise<void> {
    if (this.counting === catalog) return;
    this.counting = catalog;
    const counted = await countCatalogTokensPaced(catalog.tools, {
      pause: () => new Promise((resolve) => setImmediate(resolve)),
      stopped: () => this.stopped || this.counting !== catalog,
    });
    if (this.counting === catalog) this.counting = undefined;
    if (!counted || this.o.catalog() !== catalog) return;
    this.keep(catalog, counted);
    this.o.known.touch();
    this.o.counted();
  }
}
