/**
 * What one upstream server offers — its tools, prompts and resources — as listed when it
 * connects, and again after its list_changed notifications (coalesced per kind, listRefresh.ts).
 * A list that comes back equal is no change; a re-listing that fails keeps the last list.
 */
import type { Logger } from '../../core/logger';
import { errorMessage } from '../../core/errorMessage';
import { ListRefresh } from './listRefresh';
import { listPrompts, listResources, listTools } from './listing';
import type { ListKind, Session } from './session';
import type { UpstreamPrompt, UpstreamResource, UpstreamTool } from './types';

export interface UpstreamListsOptions {
  /** The server's name, in log lines. */
  name: string;
  log: Logger;
  requestTimeoutMs: number;
  connectTimeoutMs: number;
  /** Delay that coalesces list_changed bursts. */
  listChangedDelayMs?: number;
  /** The server's session now, and whether it is ready: a re-listing asks only a ready one. */
  session(): Session | undefined;
  isReady(): boolean;
  onChange(kind: ListKind): void;
}

export class UpstreamLists {
  private lists: { tools: UpstreamTool[]; prompts: UpstreamPrompt[]; resources: UpstreamResource[] } = { tools: [], prompts: [], resources: [] };
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

  /** The first listing, part of connecting: the three lists at once. */
  async listAll(session: Session): Promise<void> {
    const caps = session.client.getServerCapabilities() ?? {};
    // A server that never answers tools/list must not hold up startup (and every caller
    // waiting for it) longer than the connect timeout.
    const t = Math.min(this.o.requestTimeoutMs, this.o.connectTimeoutMs);
    // One round trip to a server busy starting, not three in a row.
    const [tools, prompts, resources] = await Promise.all([
      caps.tools ? listTools(session.client, this.o.name, t, this.o.log) : [],
      caps.prompts ? this.optional('prompts', () => listPrompts(session.client, this.o.name, t)) : [],
      caps.resources ? this.optional('resources', () => listResources(session.client, this.o.name, t)) : [],
    ]);
    this.replace('tools', tools);
    this.replace('prompts', prompts);
    this.replace('resources', resources);
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
    this.replace('tools', []);
    this.replace('prompts', []);
    this.replace('resources', []);
  }

  /** Prompts and resources are extras: a failure to list them is a warning, not a dead server. */
  private async optional<T>(kind: string, list: () => Promise<T[]>): Promise<T[]> {
    try {
      return await list();
    } catch (error) {
      this.o.log.warn(`[${this.o.name}] could not list ${kind}: ${errorMessage(error)}`);
      return [];
    }
  }

  private async relist(kind: ListKind): Promise<void> {
    const session = this.o.session();
    if (!session || !this.o.isReady()) return;
    const t = this.o.requestTimeoutMs;
    try {
      const items =
        kind === 'tools'
          ? await listTools(session.client, this.o.name, t, this.o.log)
          : kind === 'prompts'
            ? await listPrompts(session.client, this.o.name, t)
            : await listResources(session.client, this.o.name, t);
      if (session === this.o.session()) this.replace(kind, items);
    } catch (error) {
      this.o.log.warn(`[${this.o.name}] re-listing ${kind} failed: ${errorMessage(error)}`);
    }
  }

  private replace<K extends ListKind>(kind: K, items: (typeof this.lists)[K]): void {
    if (JSON.stringify(items) === JSON.stringify(this.lists[kind])) return;
    this.lists[kind] = items;
    this.o.onChange(kind);
  }
}
