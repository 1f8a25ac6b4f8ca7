/**
 * What the 2026-07-28 revision adds to every answer MCP Lens gives a modern client: `resultType`
 * ("complete" unless the result says otherwise), the server's identity in `_meta`, and on the
 * results a client may cache (lists, resource reads, server/discover) `ttlMs` and `cacheScope`.
 */
import type { JSONRPCResponse } from '@modelcontextprotocol/sdk/types.js';
import { CACHEABLE_METHODS, META } from '../../core/revision/revisions';

/** How long a client may reuse a result, and with whom (`cacheHints.ts` chooses them). */
export interface CacheHint {
  ttlMs: number;
  cacheScope: 'public' | 'private';
}

export interface ResultStamp {
  serverInfo: { name: string; version: string };
  /** The hint for a cacheable method's result (only asked for those). */
  cacheHint(method: string): CacheHint;
}

/** The message with the revision's result fields; errors pass as they are. */
export function stampResult(method: string, message: JSONRPCResponse, stamp: ResultStamp): JSONRPCResponse {
  if (!('result' in message)) return message;
  const result: Record<string, unknown> = { ...message.result };
  result.resultType ??= 'complete';
  const meta = (typeof result._meta === 'object' && result._meta !== null ? result._meta : {}) as Record<
    string,
    unknown
  >;
  result._meta = { ...meta, [META.serverInfo]: stamp.serverInfo };
  if (CACHEABLE_METHODS.has(method) && result.resultType === 'complete') {
    const hint = stamp.cacheHint(method);
    result.ttlMs ??= hint.ttlMs;
    result.cacheScope ??= hint.cacheScope;
  }
  return { ...message, result } as JSONRPCResponse;
}
