/**
 * The OAuth scopes a signed-in person's token must carry, per request: searching the catalog,
 * calling tools (call_tool, a tool exposed directly, prompts and resources, which reach the
 * upstreams), and running code. Listing (initialize, tools/list, ping) needs none beyond a
 * valid token. A request without its scope is refused with 403 `insufficient_scope` naming the
 * scope (RFC 6750 §3.1), so a client can ask the person for it (the MCP authorization
 * specification's step-up).
 */
import { FIND_TOOLS, GET_TOOL_SCHEMA, LIST_SERVERS, RUN_CODE } from '../../../../protocol/metaToolNames';

export const SCOPE_SEARCH = 'mcp-lens:search';
export const SCOPE_CALL = 'mcp-lens:call';
export const SCOPE_CODE = 'mcp-lens:code';
export const TEAM_SCOPES = [SCOPE_SEARCH, SCOPE_CALL, SCOPE_CODE] as const;

/** The scope a tools/call of `tool` needs: a meta-tool's own, or calling for any tool exposed directly. */
export function scopeForTool(tool: string): string {
  if (tool === FIND_TOOLS || tool === GET_TOOL_SCHEMA || tool === LIST_SERVERS) return SCOPE_SEARCH;
  if (tool === RUN_CODE) return SCOPE_CODE;
  return SCOPE_CALL;
}

const UPSTREAM_METHODS = new Set(['prompts/get', 'resources/read', 'resources/subscribe', 'completion/complete']);

/** The scope one JSON-RPC message needs, or undefined when a valid token is enough. */
export function scopeForMessage(message: unknown): string | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const { method, params } = message as { method?: unknown; params?: { name?: unknown } };
  if (method === 'tools/call') return scopeForTool(typeof params?.name === 'string' ? params.name : '');
  if (typeof method === 'string' && UPSTREAM_METHODS.has(method)) return SCOPE_CALL;
  return undefined;
}

/** The scope claim as a set: a space-separated `scope` (RFC 9068, RFC 7662) or an `scp` list (some providers). */
export function scopesOf(claims: Record<string, unknown>): Set<string> {
  const out = new Set<string>();
  if (typeof claims.scope === 'string') for (const s of claims.scope.split(' ')) if (s) out.add(s);
  const scp = claims.scp;
  const listed = Array.isArray(scp) ? scp : typeof scp === 'string' ? scp.split(' ') : [];
  for (const s of listed) if (typeof s === 'string' && s) out.add(s);
  return out;
}

/** The groups claim as a list: a JSON list of strings, or one space- or comma-separated string. */
export function groupsOf(claims: Record<string, unknown>, claim: string): string[] {
  const v = claims[claim];
  if (Array.isArray(v)) return v.filter((g): g is string => typeof g === 'string' && g !== '');
  if (typeof v === 'string') return v.split(/[\s,]+/).filter((g) => g !== '');
  return [];
}
