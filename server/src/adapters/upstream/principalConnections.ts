/**
 * The stdio servers a principal other than the workspace runs for itself (core/principal.ts):
 * what an upstream keeps per client — the roots it was given, what it asks back, its log level,
 * subscriptions, the capabilities declared to it — cannot be shared between principals, and a
 * stdio pipe cannot tell two callers apart. So each such principal gets its own connection to a
 * server, started on its first use, never listed (the catalog is the workspace's), declaring what
 * that principal's sessions declared, and stopped when the principal goes. A principal may run at
 * most `maxProcesses` of them at once; past that its call is refused, naming the limit.
 */
import type { ClientCapabilities, LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import type { ServerConfig } from '../../core/config/types';
import type { Logger } from '../../core/logger';
import type { Principal } from '../../core/principal';
import type { UpstreamConnection } from './connection';
import { UpstreamCallError, type UpstreamState } from './types';

/**
 * Enough for the handful of servers one agent uses in a session; a bound on what one client of
 * `serve --http` can make MCP Lens spawn (64 sessions at most, http.ts).
 */
export const DEFAULT_PROCESSES_PER_PRINCIPAL = 16;

/** States in which a connection holds (or is getting) a process. */
const RUNNING: ReadonlySet<UpstreamState> = new Set(['starting', 'ready']);

export interface PrincipalConnectionsOptions {
  log: Logger;
  maxProcesses: number;
  /** What the principal's sessions declared (UpstreamInbound.capabilities); undefined: it has none. */
  capabilities(principal: string): ClientCapabilities | undefined;
  /** A new connection of `config` for `principal`, declaring `capabilities` (pool.ts). */
  create(config: ServerConfig, principal: Principal, capabilities: ClientCapabilities): UpstreamConnection;
}

export class PrincipalConnections {
  /** Principal id → server name → its connection. */
  private readonly byPrincipal = new Map<string, Map<string, UpstreamConnection>>();
  /** The log level each principal's sessions asked for, for connections made later. */
  private readonly levels = new Map<string, LoggingLevel>();
  private idleTimeoutMs: number | undefined;

  constructor(private readonly o: PrincipalConnectionsOptions) {}

  /**
   * `principal`'s own connection to `config`'s server, started here when it is not running (made
   * on first use; stopped when idle, or in error, it starts again), so the cap counts it at once.
   */
  connectionFor(config: ServerConfig, principal: Principal, tool?: string): UpstreamConnection {
    let own = this.byPrincipal.get(principal.id);
    const known = own?.get(config.name);
    if (known?.config.fingerprint === config.fingerprint) {
      if (!RUNNING.has(known.currentState())) {
        this.checkRoom(principal, config.name, tool);
        void known.start();
      }
      return known;
    }
    const capabilities = this.o.capabilities(principal.id);
    if (!capabilities)
      throw new UpstreamCallError('not-ready', config.name, `${principal.label} has no open session`, tool);
    this.checkRoom(principal, config.name, tool);
    if (known) void known.stop();
    const connection = this.o.create(config, principal, capabilities);
    connection.setIdleTimeout(this.idleTimeoutMs);
    const level = this.levels.get(principal.id);
    if (level) connection.requests.setLogLevel(level);
    if (!own) this.byPrincipal.set(principal.id, (own = new Map()));
    own.set(config.name, connection);
    this.o.log.info(`[${config.name}] starting a process of its own for ${principal.label}`);
    void connection.start();
    return connection;
  }

  /** The principal's connections now. */
  of(principal: string): UpstreamConnection[] {
    return [...(this.byPrincipal.get(principal)?.values() ?? [])];
  }

  /** The principal went: its processes are stopped and what was kept for it forgotten. */
  async drop(principal: string): Promise<void> {
    const own = this.byPrincipal.get(principal);
    this.byPrincipal.delete(principal);
    this.levels.delete(principal);
    await Promise.all([...(own?.values() ?? [])].map((c) => c.stop()));
  }

  /** Connections of servers no longer configured as they were (removed, or changed) are stopped. */
  async reconcile(wanted: ReadonlyMap<string, ServerConfig>): Promise<void> {
    const stale: UpstreamConnection[] = [];
    for (const own of this.byPrincipal.values())
      for (const [name, c] of own)
        if (wanted.get(name)?.fingerprint !== c.config.fingerprint) {
          own.delete(name);
          stale.push(c);
        }
    await Promise.all(stale.map((c) => c.stop()));
  }

  /** A manual restart of a server: every principal's process of it stops; the next call starts it afresh. */
  async stopServer(server: string): Promise<void> {
    await Promise.all(this.all().flatMap((c) => (c.name === server ? [c.stop()] : [])));
  }

  setIdleTimeout(ms: number | undefined): void {
    this.idleTimeoutMs = ms;
    for (const c of this.all()) c.setIdleTimeout(ms);
  }

  setLogLevel(principal: string, level: LoggingLevel): void {
    this.levels.set(principal, level);
    for (const c of this.of(principal)) c.requests.setLogLevel(level);
  }

  async close(): Promise<void> {
    const all = this.all();
    this.byPrincipal.clear();
    await Promise.all(all.map((c) => c.stop()));
  }

  private all(): UpstreamConnection[] {
    return [...this.byPrincipal.values()].flatMap((own) => [...own.values()]);
  }

  private checkRoom(principal: Principal, server: string, tool: string | undefined): void {
    const running = this.of(principal.id).filter((c) => RUNNING.has(c.currentState()));
    if (running.length < this.o.maxProcesses) return;
    const names = running.map((c) => c.name).join(', ');
    throw new UpstreamCallError(
      'over-limit',
      server,
      `MCP Lens runs at most ${this.o.maxProcesses} server process${this.o.maxProcesses === 1 ? '' : 'es'} for one client, and ${principal.label} has ${running.length} (${names}); they stop when its session closes`,
      tool,
    );
  }
}
