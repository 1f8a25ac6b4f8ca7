/**
 * The gateway's sessions as upstream requests reach them, by principal (core/principal.ts): who
 * is connected, what each declared, the log level each asked for, and a principal's roots — what
 * its sessions that list roots answer, merged. Nothing here crosses from one principal to another.
 */
import { ErrorCode, McpError, type ClientCapabilities, type LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import type { JsonObject, UpstreamCaller } from '../adapters/upstream/types';
import type { DownstreamClient } from './lens';

const LEVELS: readonly LoggingLevel[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];

/** A log level's rank (unknown levels count as info). */
export function levelRank(level: unknown): number {
  const i = LEVELS.indexOf(level as LoggingLevel);
  return i < 0 ? LEVELS.indexOf('info') : i;
}

export class DownstreamSessions {
  private readonly sessions = new Map<string, DownstreamClient>();
  private readonly levels = new Map<string, LoggingLevel>();

  /** Adds a session; true when it is the first of its principal. */
  add(client: DownstreamClient): boolean {
    const first = this.of(client.principal.id).length === 0;
    this.sessions.set(client.sessionId, client);
    return first;
  }

  /** Removes a session; true when its principal has no session left. */
  remove(client: DownstreamClient): boolean {
    this.sessions.delete(client.sessionId);
    this.levels.delete(client.sessionId);
    return this.of(client.principal.id).length === 0;
  }

  get(sessionId: string): DownstreamClient | undefined {
    return this.sessions.get(sessionId);
  }

  /** The sessions of one principal, in the order they came. */
  of(principal: string): DownstreamClient[] {
    return [...this.sessions.values()].filter((s) => s.principal.id === principal);
  }

  /** What a principal's sessions declared, merged; undefined when it has none. */
  capabilities(principal: string): ClientCapabilities | undefined {
    const own = this.of(principal);
    if (own.length === 0) return undefined;
    const merged: Record<string, unknown> = {};
    for (const s of own)
      for (const [key, value] of Object.entries(s.capabilities() ?? {}))
        merged[key] =
          typeof value === 'object' && value !== null ? { ...(merged[key] as object | undefined), ...value } : value;
    return merged as ClientCapabilities;
  }

  /**
   * A session's logging/setLevel; returns the most verbose level its principal's sessions asked
   * for, which that principal's upstreams get.
   */
  setLevel(client: DownstreamClient, level: LoggingLevel): LoggingLevel {
    this.levels.set(client.sessionId, level);
    const asked = this.of(client.principal.id).flatMap((s) => this.levels.get(s.sessionId) ?? []);
    return asked.reduce((a, b) => (levelRank(b) < levelRank(a) ? b : a));
  }

  /** Whether a session set a level at all. */
  setALevel(sessionId: string): boolean {
    return this.levels.has(sessionId);
  }

  /** Whether a message at `level` reaches the session (everything does until it sets a level). */
  admits(sessionId: string, level: unknown): boolean {
    const asked = this.levels.get(sessionId);
    return asked === undefined || levelRank(level) >= levelRank(asked);
  }

  /**
   * roots/list for an upstream that runs for `principal`: the roots of its sessions that list
   * them, merged by URI; `via` (a session's call that asked) is asked as itself, so its answer
   * travels with that call. -32601 when none of them lists roots.
   */
  async roots(principal: string, server: string, signal: AbortSignal, via?: UpstreamCaller): Promise<JsonObject> {
    const listing = this.of(principal)
      .filter((s) => s.capabilities()?.roots)
      .map((s) => (s.sessionId === via?.sessionId ? via : s));
    if (listing.length === 0)
      throw new McpError(ErrorCode.MethodNotFound, `No client that "${server}" runs for lists roots`);
    const answers = await Promise.allSettled(listing.map((s) => s.request('roots/list', undefined, signal)));
    const roots = new Map<string, unknown>();
    for (const a of answers) {
      if (a.status !== 'fulfilled' || !Array.isArray(a.value.roots)) continue;
      for (const root of a.value.roots as { uri?: unknown }[])
        if (typeof root?.uri === 'string' && !roots.has(root.uri)) roots.set(root.uri, root);
    }
    if (roots.size === 0 && answers.every((a) => a.status === 'rejected'))
      throw (answers[0] as PromiseRejectedResult).reason;
    return { roots: [...roots.values()] };
  }
}
