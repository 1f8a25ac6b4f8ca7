/**
 * Tokens of each server's own tools/list, for the server rows. Known counts (this run, or the
 * catalog cache of an earlier one: a warm start tokenizes nothing) are used at once; a catalog
 * with tools not counted yet is counted in the background, tool by tool in slices of a few
 * milliseconds (core/toolListTokens.ts), so counting never holds up an answer, and `counted`
 * says when the rows have them. While servers start, counting waits until they are up
 * (StartupQuiet): each server coming up makes a new catalog, and counting every one of them
 * took the CPU the starting servers needed; the rows show the last counts until then.
 */
import { rememberTokenCounts } from '../core/tokens';
import { countCatalogTokensPaced, knownCatalogTokens, pieceCounts, type CatalogTokens } from '../core/toolListTokens';
import type { Catalog } from './catalogBuilder';
import type { KnownCatalog } from './knownCatalog';
import type { StartupQuiet } from './startupQuiet';

export interface ServerTokenCountsOptions {
  /** Where counts of earlier runs come from and are kept. */
  known: KnownCatalog;
  catalog(): Catalog;
  /** A background count finished: the rows changed. */
  counted(): void;
  /** Counting waits for this (servers still starting: startupQuiet.ts). */
  quiet?: Pick<StartupQuiet, 'whenQuiet'>;
}

export class ServerTokenCounts {
  /** The counts of the catalog they were made for. */
  private tokensOf: { catalog: Catalog; tokens: Map<string, number> } | undefined;
  /** A count waiting for the servers' start to end, or under way. */
  private pending: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly o: ServerTokenCountsOptions) {
    rememberTokenCounts(o.known.tokenCounts);
    o.known.keepTokenCounts(() => pieceCounts(o.catalog().tools));
  }

  /** Tokens per server name of the current catalog: the last complete counts while new ones are made. */
  byServer(): Map<string, number> {
    const catalog = this.o.catalog();
    if (this.tokensOf?.catalog === catalog) return this.tokensOf.tokens;
    // Asked on every status poll: while a count is pending, its answer is awaited, not looked up again.
    const known = this.pending ? undefined : knownCatalogTokens(catalog.tools);
    if (known) return this.keep(catalog, known);
    this.pending ??= this.countInBackground().finally(() => (this.pending = undefined));
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

  /** Counts the catalog as it is once no server is starting; again if it changes meanwhile. */
  private async countInBackground(): Promise<void> {
    for (;;) {
      await this.o.quiet?.whenQuiet();
      const catalog = this.o.catalog();
      if (this.stopped || this.tokensOf?.catalog === catalog) return;
      const counted =
        knownCatalogTokens(catalog.tools) ??
        (await countCatalogTokensPaced(catalog.tools, {
          pause: () => new Promise((resolve) => setImmediate(resolve)),
          stopped: () => this.stopped || this.o.catalog() !== catalog,
        }));
      if (this.stopped) return;
      if (counted && this.o.catalog() === catalog) {
        this.keep(catalog, counted);
        this.o.known.touch();
        this.o.counted();
        return;
      }
      // The catalog changed while it was counted (its tools counted so far are remembered).
    }
  }
}
