/**
 * The optimizing MCP server, independent of transport: it makes one MCP `Server` per client
 * session, keeps every session's tools/list in step with the Lens (sending
 * `notifications/tools/list_changed` when a session's exposed set changes) and does the
 * token accounting behind `stats()`. Stdio and streamable HTTP both connect through it.
 */
import { randomUUID } from 'node:crypto';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { LensStats } from '../../../protocol/model';
import type { Disposable, Lens } from '../app/lens';
import type { Logger } from '../core/logger';
import { WORKSPACE_PRINCIPAL, type Principal } from '../core/principal';
import { directTools, exposedDefinitions } from './exposure';
import { FoundTools } from './foundTools';
import type { CatalogTool } from '../core/catalog';
import { rendersApps } from '../core/mcpApps';
import { TokenAccounting, type SessionSavings } from './savings';
import { createSessionServer, type SessionDeps } from './sessionServer';
import { sessionClient } from './downstreamClient';
import { ResultStore } from './resultStore';
import { CodeRuns } from './runCode';
import { SessionBudgets } from './sessionBudgets';
import { ChildSelectRunner } from '../adapters/select/selectRunner';
import type { ToolView } from './toolView';
import { callAudit, type AuditSettings } from './callAudit';
import { LENS_VERSION } from '../core/version';
import { errorMessage } from '../core/errorMessage';
import { ModernDispatch } from './modern/modernDispatch';
import { principalClient } from './modern/modernContext';
import { ListenStreams } from './modern/listen';
import { META } from '../core/revision/revisions';

/**
 * Lens changes come in bursts (twenty servers starting, each a few state changes): sessions
 * are brought up to date once per burst, this long after its first change.
 */
const REFRESH_DELAY_MS = 20;

export interface GatewayOptions {
  lens: Lens;
  log: Logger;
  /** Audit every tool call of every session here (a team's gateway). */
  audit?: AuditSettings;
}

interface Session {
  server: Server;
  /** Signature of the tools/list this session last saw (names + definitions). */
  toolsSignature: string;
  /** What its agent ran through call_tool (exposure found). */
  found: FoundTools;
  promptsSignature: string;
  resourcesSignature: string;
  view?: ToolView;
}

export class Gateway {
  readonly lens: Lens;
  private readonly log: Logger;
  private readonly audit: AuditSettings | undefined;
  /** A session that calls before it lists is counted with the list it would get. */
  private readonly accounting: TokenAccounting = new TokenAccounting({
    exposedFor: (id): number => this.accounting.exposedTokens(this.toolsFor(id, this.sessions.get(id)?.view)),
  });
  /** Cut results kept whole per session; a new one changes that session's resources/list. */
  private readonly results = new ResultStore((id) => this.refreshSession(id));
  /** run_code scripts, on worker threads, turns round robin between sessions. */
  private readonly codeRuns = new CodeRuns();
  /** select projections, evaluated in child processes with a deadline and a heap limit. */
  private readonly select = new ChildSelectRunner();
  private readonly budgets = new SessionBudgets();
  private closed = false;
  private readonly sessions = new Map<string, Session>();
  private readonly subscription: Disposable;
  private refreshTimer: NodeJS.Timeout | undefined;
  /** A refresh waiting for the servers' start to end: changes meanwhile join it. */
  private refreshWaits = false;
  private url: string | undefined;
  private markAsked: (() => void) | undefined;
  private readonly asked = new Promise<void>((resolve) => (this.markAsked = resolve));
  /** Modern (2026-07-28) requests: no session; served per principal (gateway/modern/). */
  readonly modern: ModernDispatch;
  /** Their subscriptions/listen streams, told of list changes as sessions are. */
  readonly listens: ListenStreams;

  constructor(options: GatewayOptions) {
    this.lens = options.lens;
    this.log = options.log;
    this.audit = options.audit;
    this.modern = new ModernDispatch({
      lens: this.lens,
      version: LENS_VERSION,
      createServer: (context) =>
        createSessionServer(this.sessionDeps(context.principal, context.view), () => context.sessionId),
      upstreamTtl: (method) => this.lens.upstreamListTtl(method),
      attach: (context) => this.lens.clients.attach(principalClient(context)),
      changing: () => this.refreshTimer !== undefined || this.refreshWaits,
    });
    this.listens = new ListenStreams(
      this.lens,
      {
        tools: (id) => JSON.stringify(this.toolsFor(id)),
        prompts: () => this.promptsSignature(),
        resources: (id) => this.resourcesSignature(id),
      },
      () => ({ [META.serverInfo]: this.modern.stamp.serverInfo }),
    );
    this.subscription = this.lens.onDidChange((change) => {
      // Usage moves only a predictive list; after every call anything else would re-render
      // each session's tools/list for nothing.
      if (change === 'usage' && this.lens.settings().exposure !== 'predictive') return;
      if (change === 'tools' || change === 'settings' || change === 'servers' || change === 'usage')
        this.scheduleRefresh();
    });
    // A script worker started once the servers are up (it would only slow their start), so a
    // first run_code does not wait for one.
    void this.lens.whenServersStarted().then(() => {
      if (!this.closed && this.lens.settings().codeMode.enabled) this.codeRuns.warm();
    });
  }

  /** The URL shown in stats when served over HTTP. */
  setUrl(url: string | undefined): void {
    this.url = url;
  }

  /**
   * Connects a transport as a new session acting for `principal` (the front door decides whom:
   * its upstream connections, roots and requests are that principal's; default the workspace,
   * as for `serve`'s one stdio client). `sessionId` may be a function because streamable HTTP
   * only knows the id once initialize has been handled. `view`: what a signed-in person may see
   * (toolView.ts); absent, everything.
   */
  async connect(
    transport: Transport,
    sessionId: string | (() => string | undefined) = randomUUID(),
    principal: Principal = WORKSPACE_PRINCIPAL,
    view?: ToolView,
  ): Promise<Server> {
    const fallback = randomUUID();
    const idOf = typeof sessionId === 'function' ? () => sessionId() ?? fallback : () => sessionId;
    const server = createSessionServer(this.sessionDeps(principal, view), idOf);
    server.oninitialized = () => {
      const id = idOf();
      this.sessions.set(id, {
        server,
        toolsSignature: '',
        found: new FoundTools(),
        promptsSignature: this.promptsSignature(view),
        resourcesSignature: this.resourcesSignature(id, view),
        ...(view && { view }),
      });
      // Upstreams' requests outside a call, roots, log levels and updates reach it from now on.
      const attached = this.lens.clients.attach(sessionClient(server, id, principal));
      server.onclose = () => {
        attached.dispose();
        this.sessions.delete(id);
        this.accounting.dropSession(id);
        this.results.dropSession(id);
      };
    };
    await server.connect(transport);
    return server;
  }

  /** What every session server is built with, legacy session or modern context alike. */
  private sessionDeps(principal: Principal, view: ToolView | undefined): SessionDeps {
    return {
      lens: this.lens,
      principal,
      ...(view && { view }),
      ...(this.audit && { audit: callAudit(this.audit, principal, this.lens, this.log) }),
      accounting: this.accounting,
      results: this.results,
      select: this.select,
      codeRuns: this.codeRuns,
      budgets: this.budgets,
      log: this.log,
      version: LENS_VERSION,
      toolsFor: (id, apps) => this.rememberTools(id, view, apps),
      afterCall: (id) => {
        if (this.lens.settings().exposure === 'predictive') this.refreshSession(id);
      },
      lists: (id, name) => this.lists(id, name, view),
      chosen: (id, tool) => this.chosen(id, tool),
      askedForTools: () => this.noteAsked(),
    };
  }

  /**
   * Resolves once a client first asked for tools: its first tools/list answered (and written),
   * or its first tool call received. `serve` starts the servers after it (LensAppOptions.startAfter).
   */
  firstAskedForTools(): Promise<void> {
    return this.asked;
  }

  /** Once, on the next turn of the event loop: a tools/list's answer is written by then. Every call passes here. */
  private noteAsked(): void {
    if (!this.markAsked) return;
    setImmediate(this.markAsked);
    this.markAsked = undefined;
  }

  /** Sessions that completed initialize and are still open. */
  sessionCount(): number {
    return this.sessions.size;
  }

  /**
   * The tools/list a session gets now: a person's without the tools they may not see; what its
   * views may call too, when its client renders MCP Apps (`apps`: by default, as its session's does).
   */
  toolsFor(
    sessionId: string,
    view?: ToolView,
    apps = rendersApps(this.sessions.get(sessionId)?.server.getClientCapabilities()),
  ): Tool[] {
    const found = this.sessions.get(sessionId)?.found;
    return exposedDefinitions(this.lens, this.lens.settings(), sessionId, { found, rendersApps: apps, view });
  }

  /** Whether the session's tools/list holds this upstream tool by this name (a person's: one they may see). */
  private lists(sessionId: string, name: string, view: ToolView | undefined): boolean {
    const found = this.sessions.get(sessionId)?.found;
    return directTools(this.lens, this.lens.settings(), sessionId, found).some(
      (t) => t.name === name && (!view || view.seesTool(t)),
    );
  }

  /** Found mode: a tool an agent chose joins its session's list (an append: one list_changed). */
  private chosen(sessionId: string, tool: CatalogTool): void {
    const settings = this.lens.settings();
    const session = this.sessions.get(sessionId);
    if (settings.exposure !== 'found' || !session) return;
    if (session.found.use(tool.key, settings.found.maxTools)) this.refreshSession(sessionId);
  }

  sessionSavings(sessionId: string): SessionSavings | undefined {
    return this.accounting.session(sessionId);
  }

  /** Everything the dashboard, the LSP and `mcp-lens stats` show about tokens and usage. */
  stats(): LensStats {
    const tools = this.lens.tools();
    const cost = this.accounting.catalogCost(tools);
    // Predictive lists differ per session; the figure shown is a new session's list.
    const exposed = this.accounting.exposedTokens(this.toolsFor('stats'));
    const stats: LensStats = {
      tools: tools.length,
      servers: this.lens.servers().length,
      exposure: this.lens.settings().exposure,
      tokens: {
        ...this.accounting.tokenStats(cost, exposed),
        keptResults: this.results.all().map(({ sessionId: _s, ...r }) => r),
      },
    };
    const usage = this.lens.usageStats();
    if (usage) stats.usage = usage;
    if (this.url) stats.gateway = { url: this.url, catalogVersion: cost?.version ?? '' };
    return stats;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.subscription.dispose();
    clearTimeout(this.refreshTimer);
    this.accounting.stop();
    this.select.close();
    this.codeRuns.close();
    this.listens.closeAll();
    await this.modern.close();
    const servers = [...this.sessions.values()].map((s) => s.server);
    this.sessions.clear();
    await Promise.all(servers.map((s) => s.close().catch(() => undefined)));
  }

  private rememberTools(sessionId: string, view: ToolView | undefined, apps: boolean): Tool[] {
    const tools = this.toolsFor(sessionId, view, apps);
    const session = this.sessions.get(sessionId);
    if (session) session.toolsSignature = JSON.stringify(tools);
    this.accounting.noteListed(sessionId, this.accounting.exposedTokens(tools));
    return tools;
  }

  private scheduleRefresh(): void {
    if (this.refreshTimer || this.refreshWaits) return;
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = undefined;
      // While servers start, each one coming up changes the tools/list (find_tools names the
      // workspace's domains): a client re-reading it twenty times during a cold start would take
      // CPU the servers need, and miss its prompt cache each time. Sessions hear once they are up
      // (bounded: a hanging server holds this no longer than the Lens says). A session's own
      // changes (a kept result, a predictive list after a call) do not wait.
      this.refreshWaits = true;
      void this.lens.whenServersStarted().then(() => {
        this.refreshWaits = false;
        for (const id of this.sessions.keys()) this.refreshSession(id);
        this.listens.refresh();
      });
    }, REFRESH_DELAY_MS);
  }

  /** Tells one session's client what changed, only when it really did. */
  private refreshSession(id: string): void {
    // A modern principal's listen streams hear of its own changes (a kept result, a predictive list).
    if (!this.sessions.has(id)) this.listens.refresh(id);
    const session = this.sessions.get(id);
    if (!session) return;
    const tools = JSON.stringify(this.toolsFor(id, session.view));
    // A session that never listed tools has nothing stale; it gets the new list when it asks.
    if (session.toolsSignature !== '' && tools !== session.toolsSignature) {
      session.toolsSignature = tools;
      this.notify(id, () => session.server.sendToolListChanged());
    }
    const prompts = this.promptsSignature(session.view);
    if (prompts !== session.promptsSignature) {
      session.promptsSignature = prompts;
      this.notify(id, () => session.server.sendPromptListChanged());
    }
    const resources = this.resourcesSignature(id, session.view);
    if (resources !== session.resourcesSignature) {
      session.resourcesSignature = resources;
      this.notify(id, () => session.server.sendResourceListChanged());
    }
  }

  private notify(id: string, send: () => Promise<void>): void {
    send().catch((err: unknown) =>
      this.log.debug(`gateway: session ${id.slice(0, 8)}: notification not sent: ${errorMessage(err)}`),
    );
  }

  private promptsSignature(view?: ToolView): string {
    return this.lens
      .prompts()
      .filter((p) => !view || view.seesServer(p.server))
      .map((p) => p.name)
      .join('\n');
  }

  private resourcesSignature(sessionId: string, view?: ToolView): string {
    const upstream = this.lens.resources().filter((r) => !view || view.seesServer(r.server));
    return [...upstream, ...this.results.list(sessionId)].map((r) => r.uri).join('\n');
  }
}
