/**
 * A session's kept results as MCP resources: listed beside the upstreams' resources and read
 * with resources/read. Only the session that kept a result sees it.
 */
import { ErrorCode, McpError, type ReadResourceResult, type Resource } from '@modelcontextprotocol/sdk/types.js';
import { EVICTION_RULE, type ResultStore } from './resultStore';

export function keptResourceList(results: ResultStore, sessionId: string): Resource[] {
  return results.list(sessionId).map((r) => ({
    uri: r.uri,
    name: `Result of ${r.tool}`,
    description: `The whole result of ${r.tool} (${r.tokens} tokens), kept by MCP Lens because it was cut for the model.`,
    mimeType: 'text/plain',
    size: r.bytes,
  }));
}

export function readKeptResource(results: ResultStore, sessionId: string, uri: string): ReadResourceResult {
  const kept = results.get(sessionId, uri);
  if (!kept) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `Result "${uri.slice(0, 120)}" is not kept for this session (${EVICTION_RULE}). Call the tool again.`,
    );
  }
  return { contents: [{ uri: kept.uri, mimeType: 'text/plain', text: kept.text }] };
}
