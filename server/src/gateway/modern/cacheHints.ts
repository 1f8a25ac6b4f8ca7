/**
 * The caching hints MCP Lens gives modern clients (`ttlMs`, `cacheScope`), chosen from what it
 * knows of its own lists:
 *
 * - scope is always "private": everything is served behind MCP Lens's token, and lists can differ
 *   per principal and session (a predictive tools/list, the results a session keeps), so a cache
 *   shared across authorization contexts must not reuse them;
 * - ttl is 0 while a list is about to change — servers are starting (each one up changes the
 *   catalog), the catalog has not yet taken in what its servers said (a burst being gathered),
 *   the gateway has not yet told its sessions of a change, or the exposure is predictive (the
 *   list moves after every call) — and for a resource read of an upstream that gave no hint of
 *   its own (MCP Lens cannot know when it changes); otherwise LIST_TTL_MS, never longer than what
 *   an upstream behind it said of its own list. A client with a `subscriptions/listen` stream
 *   hears of every change anyway.
 */
import type { Lens } from '../../app/lens';
import type { CacheHint } from './modernResults';

/** How long a settled list may be reused without asking again. */
export const LIST_TTL_MS = 60_000;

/** The upstreams' own hints: the shortest ttlMs any server behind a list gave, when any did. */
export type UpstreamTtl = (method: string) => number | undefined;

/** `changing`: the gateway knows of a change its sessions have not been told of yet (gateway.ts). */
export function cacheHint(method: string, lens: Lens, upstreamTtl?: UpstreamTtl, changing = false): CacheHint {
  const hint = (ttlMs: number): CacheHint => ({ ttlMs, cacheScope: 'private' });
  const upstream = upstreamTtl?.(method);
  if (method === 'resources/read') return hint(upstream ?? 0);
  const settling = lens.catalogBehind() || lens.servers().some((s) => s.state === 'starting');
  if (settling || changing) return hint(0);
  if (method === 'tools/list' && lens.settings().exposure === 'predictive') return hint(0);
  return hint(Math.min(LIST_TTL_MS, upstream ?? LIST_TTL_MS));
}
