/**
 * Which protocol era an upstream server is spoken to in. MCP Lens opens every server with the 2025
 * handshake (`initialize`): most servers speak only that, and asking it first costs them nothing.
 * A server that answers the handshake with a refusal may speak only 2026-07-28: it is tried in that
 * revision next (session.ts, modernEra.ts). A remote server that accepts the handshake is asked
 * once, with `server/discover`, whether it speaks 2026-07-28 too; if so it is "dual-era", and
 * MCP Lens keeps a second Client speaking 2026-07-28 beside the session (`Session.modern`): the
 * server's 2026-only tools and prompts are listed from it and called through it, and so are the
 * calls of clients that themselves speak 2026-07-28, so that each client gets its own era's
 * behaviour from the server (session.ts `clientFor`).
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError, type ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { META, isModernRevision } from '../../core/revision/revisions';
import type { ServerLists } from './listing';
import { ModernEraTransport } from './modernEra';
import type { UpstreamCaller } from './types';

/** The second Client of a dual-era server, and what only it lists. */
export interface DualEraChannel {
  client: Client;
  /** Names of tools and prompts the 2026-07-28 listing has and the 2025 one has not. */
  modernOnly: { tools: Set<string>; prompts: Set<string> };
  close(): Promise<void>;
}

/** Whether opening failed because the server answered the handshake with a refusal (not: is not there, hung, died). */
export function refusedHandshake(error: unknown): boolean {
  if (error instanceof McpError)
    return error.code !== ErrorCode.ConnectionClosed && error.code !== ErrorCode.RequestTimeout;
  return error instanceof StreamableHTTPError && typeof error.code === 'number' && error.code >= 400;
}

/** The Client a request goes through: the 2026 channel for what only it has, or for a 2026 caller. */
export function clientFor(
  session: { client: Client; modern?: DualEraChannel | undefined },
  kind: 'tools' | 'prompts',
  name: string,
  caller?: UpstreamCaller,
): Client {
  const channel = session.modern;
  if (!channel) return session.client;
  if (channel.modernOnly[kind].has(name) || isModernRevision(caller?.revision)) return channel.client;
  return session.client;
}

/** The shortest caching hint a session's 2026-07-28 Clients got for a list, if any gave one. */
export function listTtlOf(
  session: { client: Client; modern?: DualEraChannel | undefined },
  method: string,
): number | undefined {
  const hints = [session.client, session.modern?.client]
    .map((c) => c?.transport)
    .filter((t): t is ModernEraTransport => t instanceof ModernEraTransport)
    .map((t) => t.listTtl.get(method))
    .filter((n): n is number => n !== undefined);
  return hints.length ? Math.min(...hints) : undefined;
}

/**
 * The envelope part a request to a server spoken to in 2026-07-28 carries for its caller: the
 * capabilities of the downstream client the request is for, as far as MCP Lens passes them on
 * (what an upstream may ask back), so the server can refuse what that client cannot answer
 * (-32021) instead of asking MCP Lens for it. No caller: MCP Lens's own declaration applies.
 */
export function callerMeta(caller: UpstreamCaller | undefined): Record<string, unknown> | undefined {
  const caps = caller?.capabilities();
  if (!caller || !caps) return undefined;
  const relayed: ClientCapabilities = {};
  if (caps.sampling) relayed.sampling = caps.sampling;
  if (caps.elicitation) relayed.elicitation = caps.elicitation;
  if (caps.roots) relayed.roots = caps.roots;
  return { [META.clientCapabilities]: relayed };
}

/**
 * A dual-era server's lists: the 2025 session's, and after them the tools and prompts only the
 * 2026-07-28 listing has (remembered, so their calls go that way). Its listing failing leaves the
 * 2025 lists as they are.
 */
export async function withModernOnly(
  channel: DualEraChannel | undefined,
  lists: Partial<ServerLists>,
  list: (client: Client) => Promise<Partial<ServerLists>>,
): Promise<Partial<ServerLists>> {
  if (!channel) return lists;
  const modern = await list(channel.client).catch(() => undefined);
  if (!modern) return lists;
  const merged = { ...lists };
  if (merged.tools && modern.tools) {
    channel.modernOnly.tools = onlyIn(modern.tools, merged.tools);
    merged.tools = [...merged.tools, ...modern.tools.filter((t) => channel.modernOnly.tools.has(t.name))];
  }
  if (merged.prompts && modern.prompts) {
    channel.modernOnly.prompts = onlyIn(modern.prompts, merged.prompts);
    merged.prompts = [...merged.prompts, ...modern.prompts.filter((p) => channel.modernOnly.prompts.has(p.name))];
  }
  return merged;
}

function onlyIn<T extends { name: string }>(modern: readonly T[], legacy: readonly T[]): Set<string> {
  const known = new Set(legacy.map((x) => x.name));
  return new Set(modern.filter((x) => !known.has(x.name)).map((x) => x.name));
}
