/**
 * What one upstream server offers — its tools, prompts, resources and resource templates — as
 * listed when it connects, and again after its list_changed notifications (coalesced per kind,
 * listRefresh.ts). A list that comes back equal is no change; a re-listing that fails keeps the
 * last list.
 */
import type { Logger } from '../../core/logger';
import { errorMessage } from '../../core/errorMessage';
import { ListRefresh } from './listRefresh';
import { withModernOnly } from './dualEra';
import { listAgain, listEverything, type ServerLists } from './listing';
import type { ListKind, Session } from './session';
import type { UpstreamPrompt, UpstreamResource, UpstreamResourceTemplate, UpstreamTool } from './types';

/** How long the first listing waits, past its own end, for the answer whether the server speaks 2026-07-28 too. */
const MODERN_PROBE_WAIT_MS = 2000;

function settledWithin(promise: Promise<void> | undefined, ms: number): Promise<void> {
  if (!promise) return Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  return Promise.race([promise, waited]).finally(() => clearTimeout(timer));
}

export interface UpstreamListsOptions {
  /** The server's name, in log lines. */
  name: string;
  log: Logger;
  requestTimeoutMs: number;
  connectTimeoutMs: number;
  /** Delay that coalesces list_changed bursts. */
  listChangedDelayMs?: number;
  /** The server's session while it is ready: a re-listing asks only a ready one. */
  sessions: { session(): Session | undefined };
  onChange(kind: ListKind): void;
}

export class UpstreamLists {
  private lists: ServerLists = { tools: [], prompts: [], resources: [], templates: [] };
  private readonly refresh: Record<ListKind, ListRefresh>;

  constructor(private readonly o: UpstreamListsOptions) {
    const delay = o.listChangedDelayMs ?? 100;
    this.refresh = {
      tools: new ListRefresh(delay, () => this.relist('tools')),
      prompts: new ListRefresh(delay, () => this.relist('prompts')),
      resources: new ListRefresh(delay, () => this.relist('resources')),
    };
  }

  get tools(): UpstreamTool[] {
    return this.lists.tools;
  }

  get prompts(): UpstreamPrompt[] {
    return this.lists.prompts;
  }

  get resources(): UpstreamResource[] {
    return this.lists.resources;
  }

  get templates(): UpstreamResourceTemplate[] {
    return this.lists.templates;
  }

  /** The first listing, part of connecting: every list at once (listing.ts listEverything). */
  async listAll(session: Session): Promise<void> {
    // A server that never answers tools/list must not hold up startup (and every caller
    // waiting for it) longer than the connect timeout.
    const t = Math.min(this.o.requestTimeoutMs, this.o.connectTimeoutMs);
    const list = (client: Session['client']) => listEverything(client, this.o.name, t, this.o.log);
    const lists = await list(session.client);
    // A dual-era server's second era answers while the first listing runs; a late answer relists (session.ts).
    await settledWithin(session.modernProbe, MODERN_PROBE_WAIT_MS);
    this.apply(await withModernOnly(session.modern, lists, list));
  }

  /** The server said a list changed: it is listed again shortly. */
  changed(kind: ListKind): void {
    this.refresh[kind].request();
  }

  /** Drops re-listings still scheduled (the session they were for is going). */
  cancel(): void {
    for (const r of Object.values(this.refresh)) r.cancel();
  }

  clear(): void {
    this.apply({ tools: [], prompts: [], resources: [], templates: [] });
  }

  private async relist(kind: ListKind): Promise<void> {
    const session = this.o.sessions.session();
    if (!session) return;
    try {
      const list = (client: Session['client']) =>
        listAgain(client, this.o.name, kind, this.o.requestTimeoutMs, this.o.log);
      const lists = await withModernOnly(session.modern, await list(session.client), list);
      if (session === this.o.sessions.session()) this.apply(lists);
    } catch (error) {
      this.o.log.warn(`[${this.o.name}] re-listing ${kind} failed: ${errorMessage(error)}`);
    }
  }

  /** Takes new lists and announces each kind that changed (templates change with resources). */
  private apply(lists: Partial<ServerLists>): void {
    const changed = new Set<ListKind>();
    for (const key of Object.keys(lists) as (keyof ServerLists)[]) {
      if (JSON.stringify(lists[key]) === JSON.stringify(this.lists[key])) continue;
      (this.lists as Record<keyof ServerLists, unknown>)[key] = lists[key];
      changed.add(key === 'templates' ? 'resources' : key);
    }
    for (const kind of changed) this.o.onChange(kind);
  }
}
