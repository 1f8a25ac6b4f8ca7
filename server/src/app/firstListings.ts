/**
 * A client that asks once and leaves (a one-shot CLI such as the MCP Inspector's `--cli`, a
 * script) sees only what its first answer holds, and many clients never list again on
 * list_changed. So a list — or a call, a prompt, a resource — that would miss what a server has
 * not listed yet waits for the servers still starting for the first time: for tools, when the
 * workspace had no catalog cache at start (with one, the answer comes from it at once, as it
 * always did: a warm start is not slowed, even by a server that hangs), those the catalog has
 * nothing of; for prompts and resources, which no cache holds, those never ready since MCP Lens
 * started. The wait ends when each of them is up (or failed), and at the latest after the connect
 * timeout (mcpLens.connectTimeoutSeconds), so a hanging server delays it by no more than its own
 * start may take.
 */
import type { UpstreamStatus } from '../adapters/upstream/types';
import type { Disposable, ListKind } from './lens';

/** Past the connect timeout: a start that fails at its own deadline reports before the wait ends. */
const MARGIN_MS = 1000;

export interface FirstListingsOptions {
  /** Every running server's state now. */
  statuses(): UpstreamStatus[];
  /** Running servers still starting that have no tools in the catalog, cached or listed. */
  startingWithoutTools(): string[];
  /** Whether the catalog cache held any running server's listing when MCP Lens started. */
  hadCatalogCache(): boolean;
  /** Called on every change of a server's state or lists. */
  onChange(listener: () => void): Disposable;
  /** mcpLens.connectTimeoutSeconds in force, in milliseconds. */
  connectTimeoutMs(): number;
}

export class FirstListings {
  constructor(private readonly o: FirstListingsOptions) {}

  /** Whether an answer about `kind` now would miss a server still starting for the first time. */
  waiting(kind: ListKind): boolean {
    if (kind === 'tools') return !this.o.hadCatalogCache() && this.o.startingWithoutTools().length > 0;
    return this.o.statuses().some((s) => s.state === 'starting' && s.readyAt === undefined);
  }

  /** Resolves once `waiting(kind)` is false, or after the connect timeout. */
  whenListed(kind: ListKind): Promise<void> {
    if (!this.waiting(kind)) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        sub.dispose();
        resolve();
      };
      const timer = setTimeout(done, this.o.connectTimeoutMs() + MARGIN_MS);
      const sub = this.o.onChange(() => {
        if (!this.waiting(kind)) done();
      });
    });
  }
}
