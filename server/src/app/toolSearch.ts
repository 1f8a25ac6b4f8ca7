/**
 * A search through the core: when to answer (at once from the last known catalog, never
 * waiting for a server), the index's ranking, usage's re-ranking within it, and the answer as
 * the front doors show it: only tools the catalog still has, which servers are still starting,
 * and a hint when nothing matched. Usage also learns what this answer showed, and search
 * learning (usage/searchLearning.ts) the request that led to it: its re-ranking is the
 * pipeline's last stage, before the session boost.
 */
import type { SearchHit, SearchResponse } from '../../../protocol/model';
import { requestText, type ToolIndex } from '../core/search/types';
import { noMatchHint } from '../core/noMatchHint';
import type { SearchLearning } from '../usage/searchLearning';
import type { UsageTracker } from '../usage/usageTracker';
import type { Catalog } from './catalogBuilder';
import type { CatalogSync } from './catalogSync';
import type { Lens, SearchRequest } from './lens';

/**
 * A search on an empty catalog, while servers that have never listed their tools are starting,
 * waits for the first of them to list, at most this long after MCP Lens started: a first run has
 * nothing else to answer from. Once any server has tools, or past this, no search waits, so one
 * slow or hanging server never delays the others' tools.
 */
const EMPTY_CATALOG_GRACE_MS = 5000;
/**
 * A search waits at most this long for the learned file to be read (off the gateway's thread, at
 * start or after another process rewrote it), then ranks with what learning holds: a file of the
 * largest size MCP Lens writes is read well within it.
 */
const LEARNED_READ_WAIT_MS = 2000;

export interface ToolSearchOptions {
  /** The settings in force, every server's status (for the no-match hint), and its changes. */
  lens: Pick<Lens, 'settings' | 'servers' | 'onDidChange'>;
  index: ToolIndex;
  usage: UsageTracker;
  learning: Pick<SearchLearning, 'forRequest' | 'syncCatalog' | 'ready'>;
  sync: Pick<CatalogSync, 'first' | 'current'>;
  catalog(): Catalog;
  /** Running servers, still starting, with no tools in the catalog (missing from answers). */
  startingWithoutTools(): string[];
  /** When MCP Lens started (Date.now()), for EMPTY_CATALOG_GRACE_MS. */
  startedAt: number;
}

export class ToolSearch {
  /** The catalog search learning last saw (its tools' fingerprints key what it learned). */
  private learnedCatalog: Catalog | undefined;

  constructor(private readonly o: ToolSearchOptions) {}

  async search(request: SearchRequest): Promise<SearchResponse> {
    const started = performance.now();
    // Answers come from the last known catalog at once and never wait for a server: one that
    // has never listed its tools (a new definition, or one that hangs) is named in the answer
    // as still starting (`starting`, find_tools's servers_starting) instead. Only a first run,
    // with no tools known at all, waits briefly for the first server to list.
    await this.o.sync.first();
    await this.firstTools();
    // A server that just came up is in the catalog once its burst is composed: compose now
    // rather than answer without its tools and without naming it as starting. A catalog change
    // is indexed in milliseconds: answer from the index that has it.
    await this.o.sync.current();
    const limit = Math.min(50, Math.max(1, request.limit ?? this.o.lens.settings().search.defaultLimit));
    // The query and keywords as the one text every stage reads, and learning's terms of it, each made once.
    const text = requestText(request.query, request.keywords);
    const lesson = this.o.learning.forRequest(text);
    const options: Parameters<ToolIndex['search']>[1] = { limit };
    if (request.server) options.server = request.server;
    const visible = request.visible;
    if (visible)
      options.visible = (key) => {
        const tool = this.o.catalog().byKey.get(key);
        return tool !== undefined && visible.seesTool(tool);
      };
    // Usage re-ranks within what the query found (the ranking's last stage); a session without calls is left as is.
    if (request.sessionId) options.sessionId = request.sessionId;
    this.syncLearning();
    await this.o.learning.ready(LEARNED_READ_WAIT_MS);
    const ranked = await this.o.index.search(text, { ...options, usage: [lesson.signal, this.o.usage.searchSignal] });
    const catalog = this.o.catalog();
    const hits: SearchHit[] = [];
    for (const r of ranked.hits) {
      // The index may briefly hold tools that just disappeared or were excluded: the
      // catalog is the authority on what exists.
      const tool = catalog.byKey.get(r.key);
      if (!tool) continue;
      hits.push({
        name: tool.name,
        server: tool.server,
        originalName: tool.originalName,
        description: tool.description,
        score: r.score,
        signals: r.signals,
        why: r.why,
      });
    }
    const answer = hits.slice(0, limit);
    // The session's next call is judged against exactly what this answer showed, and search
    // learning pairs that call with this request's words.
    if (request.sessionId) {
      const keys = answer.map((h) => catalog.byName.get(h.name)!.key);
      this.o.usage.noteAnswer(request.sessionId, keys);
      lesson.noteAnswer(request.sessionId, keys);
    }
    const response: SearchResponse = {
      query: request.query,
      hits: answer,
      mode: ranked.mode,
      tookMs: performance.now() - started,
    };
    if (answer.length === 0) {
      const tools = visible ? catalog.tools.filter((t) => visible.seesTool(t)) : catalog.tools;
      const servers = this.o.lens.servers().filter((s) => !visible || visible.seesServer(s.name));
      response.noMatch = noMatchHint(request.query, tools, servers);
    }
    const starting = this.o.startingWithoutTools().filter((s) => !visible || visible.seesServer(s));
    if (starting.length) response.starting = starting;
    return response;
  }

  /**
   * Client-safe names of the tools this session most likely needs next, for `predictive`
   * exposure: between predict.minTools and predict.maxTools when there is any history,
   * topped up from the workspace's overall frequency; none on a cold start.
   */
  predicted(sessionId: string): string[] {
    const { minTools, maxTools } = this.o.lens.settings().predict;
    const keys = this.o.usage.predict(sessionId, maxTools).map((p) => p.key);
    if (keys.length < minTools) {
      for (const p of this.o.usage.predict(`${sessionId}#frequency`, maxTools))
        if (!keys.includes(p.key)) keys.push(p.key);
    }
    const catalog = this.o.catalog();
    return keys
      .map((k) => catalog.byKey.get(k)?.name)
      .filter((n): n is string => n !== undefined)
      .slice(0, maxTools);
  }

  /** Search learning keys what it learned by the catalog's tools: it sees each new catalog before it ranks. */
  private syncLearning(): void {
    const catalog = this.o.catalog();
    if (catalog === this.learnedCatalog) return;
    this.learnedCatalog = catalog;
    this.o.learning.syncCatalog(catalog.tools);
  }

  /** See EMPTY_CATALOG_GRACE_MS. */
  private async firstTools(): Promise<void> {
    const waiting = () => this.o.catalog().tools.length === 0 && this.o.startingWithoutTools().length > 0;
    const left = this.o.startedAt + EMPTY_CATALOG_GRACE_MS - Date.now();
    if (left <= 0 || !waiting()) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        sub.dispose();
        resolve();
      };
      const timer = setTimeout(done, left);
      const sub = this.o.lens.onDidChange(() => {
        if (!waiting()) done();
      });
    });
  }
}
