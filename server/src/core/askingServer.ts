/**
 * Which server asks, said in what a forwarded sampling or elicitation request carries. To its
 * client MCP Lens is one server, so the client names MCP Lens: VS Code 1.139 shows a form or URL
 * elicitation as the request's message under its own label for the server ("MCP Server (MCP
 * Lens)") and reads no title or `_meta` of the request, and asks before a sampling request
 * "Allow MCP server "MCP Lens" to make LLM requests?". So:
 *
 * - an elicitation's message (form and URL mode) starts with the upstream's name in brackets,
 *   "[github] Which repository?": the one field every client shows;
 * - a sampling request keeps its messages and system prompt as they are, since they are what the
 *   model is asked;
 * - both carry the name in `_meta` under ASKING_SERVER_META, for clients and logs that read it.
 *
 * Pure: the request's text was cleaned as untrusted before (app/upstreamRequests.ts).
 */
import { capLength, oneLine } from '../../../protocol/untrustedText';

/** The `_meta` key naming the upstream server behind a forwarded request. */
export const ASKING_SERVER_META = 'mcp-lens/server';

/** Longest server name put in front of a message; config names are far shorter. */
const MAX_NAME_CHARS = 100;

/** `params` of `method` as MCP Lens's client gets it: naming `server`, the upstream that asks. */
export function namingAskingServer(
  server: string,
  method: string,
  params: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  if (method !== 'elicitation/create' && method !== 'sampling/createMessage') return params;
  const name = capLength(oneLine(server), MAX_NAME_CHARS);
  const meta = isObject(params?._meta) ? params._meta : {};
  const out: Record<string, unknown> = { ...params, _meta: { ...meta, [ASKING_SERVER_META]: name } };
  if (method === 'elicitation/create' && typeof out.message === 'string') out.message = `[${name}] ${out.message}`;
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
