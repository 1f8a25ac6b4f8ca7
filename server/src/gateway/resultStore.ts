/**
 * Results too large for the model's context, kept whole for the session that asked for them
 * as MCP resources `mcp-lens://results/<id>` (resources/list, resources/read, and run_code's
 * read_result), so a cut never loses data.
 *
 * Memory is bounded with one rule, oldest first: a session keeps at most MAX_RESULTS_PER_SESSION
 * results and MAX_SESSION_BYTES; all sessions together at most MAX_TOTAL_BYTES. Storing past a
 * bound drops the least recently used results (a read counts as a use) until it fits; a result
 * larger than a session's whole allowance is not kept. A result counts by everything it holds
 * (its JSON: images, embedded resources, structuredContent) plus the text kept beside it: counted
 * by its text alone, megabytes of structuredContent under a short text would count as a few
 * words, and a session's results would grow without bound. A session's results go when the
 * session closes. Ids are random, and a session can read only its own.
 */
import { randomBytes } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { resultText } from '../core/resultShaping';

export const RESULT_URI_PREFIX = 'mcp-lens://results/';
export const MAX_RESULTS_PER_SESSION = 50;
export const MAX_SESSION_BYTES = 32 * 1024 * 1024;
export const MAX_TOTAL_BYTES = 128 * 1024 * 1024;
/** The eviction rule in words, for error texts and the README. */
export const EVICTION_RULE = `each session keeps its last ${MAX_RESULTS_PER_SESSION} cut results and at most ${MAX_SESSION_BYTES / (1024 * 1024)} MB (all sessions ${MAX_TOTAL_BYTES / (1024 * 1024)} MB), least recently used dropped first, all of them when the session ends`;

export interface KeptResult {
  uri: string;
  sessionId: string;
  /** Client-safe name of the tool (or "run_code"). */
  tool: string;
  /** The whole text the model would have read. */
  text: string;
  /** The whole result, for run_code's read_result. */
  result: CallToolResult;
  tokens: number;
  bytes: number;
  createdAt: number;
  usedAt: number;
}

/** What the dashboard shows of a kept result (never its content). */
export type KeptResultInfo = Omit<KeptResult, 'text' | 'result' | 'usedAt'>;

export class ResultStore {
  private readonly results = new Map<string, KeptResult>();
  private totalBytes = 0;
  private clock = 0;

  constructor(private readonly onChange: (sessionId: string) => void = () => undefined) {}

  /** Keeps a result for the session; returns its URI, or undefined when it is larger than a session may keep. */
  keep(sessionId: string, tool: string, result: CallToolResult, tokens: number, now = Date.now()): string | undefined {
    const text = resultText(result);
    const bytes = keptSize(text, result);
    if (bytes > MAX_SESSION_BYTES) return undefined;
    const uri = RESULT_URI_PREFIX + randomBytes(6).toString('hex');
    this.makeRoom(sessionId, bytes);
    this.results.set(uri, { uri, sessionId, tool, text, result, tokens, bytes, createdAt: now, usedAt: ++this.clock });
    this.totalBytes += bytes;
    this.onChange(sessionId);
    return uri;
  }

  /** The session's own kept result, marked as used; undefined when unknown, evicted or another session's. */
  get(sessionId: string, uri: string): KeptResult | undefined {
    // Quotes or punctuation a reader copied along with the URI from the note are not part of it.
    const r = this.results.get(uri.trim().replace(/^["'`]+|[^0-9a-f]+$/g, ''));
    if (!r || r.sessionId !== sessionId) return undefined;
    r.usedAt = ++this.clock;
    return r;
  }

  list(sessionId: string): KeptResultInfo[] {
    return [...this.results.values()].filter((r) => r.sessionId === sessionId).map(info);
  }

  /** Every session's kept results, newest first (dashboard). */
  all(): KeptResultInfo[] {
    return [...this.results.values()].sort((a, b) => b.createdAt - a.createdAt).map(info);
  }

  bytes(): number {
    return this.totalBytes;
  }

  dropSession(sessionId: string): void {
    for (const r of [...this.results.values()]) if (r.sessionId === sessionId) this.remove(r);
  }

  private makeRoom(sessionId: string, incoming: number): void {
    const own = () => [...this.results.values()].filter((r) => r.sessionId === sessionId);
    const lru = (rs: KeptResult[]) => rs.reduce((a, b) => (b.usedAt < a.usedAt ? b : a));
    for (
      let mine = own();
      mine.length && (mine.length >= MAX_RESULTS_PER_SESSION || sum(mine) + incoming > MAX_SESSION_BYTES);
      mine = own()
    ) {
      this.remove(lru(mine));
    }
    while (this.results.size && this.totalBytes + incoming > MAX_TOTAL_BYTES)
      this.remove(lru([...this.results.values()]));
  }

  private remove(r: KeptResult): void {
    this.results.delete(r.uri);
    this.totalBytes -= r.bytes;
  }
}

/** What keeping a result holds: its text and the result itself, by their UTF-8 size (the result's as JSON). */
export function keptSize(text: string, result: CallToolResult): number {
  return Buffer.byteLength(text, 'utf8') + Buffer.byteLength(JSON.stringify(result), 'utf8');
}

function sum(rs: KeptResult[]): number {
  return rs.reduce((n, r) => n + r.bytes, 0);
}

function info(r: KeptResult): KeptResultInfo {
  return { uri: r.uri, sessionId: r.sessionId, tool: r.tool, tokens: r.tokens, bytes: r.bytes, createdAt: r.createdAt };
}
