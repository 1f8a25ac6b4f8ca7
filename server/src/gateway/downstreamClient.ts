/**
 * One gateway session's client as upstream requests reach it: a sampling, elicitation or roots
 * request an upstream sent is passed on to this client unchanged, or refused at once with
 * -32601 (the protocol's "method not found", what the client itself would answer) when the
 * client did not declare the capability — an upstream never waits on a client that cannot
 * answer. Per call, requests and notifications go "related to" the tools/call request, so over
 * streamable HTTP they travel on that request's own SSE stream.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode,
  McpError,
  ResultSchema,
  type ClientCapabilities,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import type { JsonObject, UpstreamCaller } from '../adapters/upstream/types';
import type { Principal } from '../core/principal';
import type { DownstreamClient } from '../app/lens';
import { missingCapability } from '../app/upstreamRequests';
import { META } from '../core/revision/revisions';
import { withoutInputKey } from './modern/exchange';

/**
 * How long a passed-on request may wait for the client: a person may take a while to answer an
 * elicitation. The upstream's own timeout (it cancels, and so do we) or the end of the call
 * that caused it usually comes first.
 */
const CLIENT_ANSWER_MS = 60 * 60 * 1000;

type Send = (request: ServerRequest, signal: AbortSignal) => Promise<JsonObject>;

function caller(
  sessionId: string,
  principal: Principal,
  server: Server,
  send: Send,
  notify: (n: ServerNotification) => Promise<void>,
  envelope?: Record<string, unknown>,
): UpstreamCaller {
  // A 2026-07-28 request says per request what its client is and can do (gateway/modern/): what
  // upstreams hear of it. Whether it can answer what they ask is checked where the request is held
  // (modern/exchange.ts), so the Server in front of it declares everything.
  const revision = envelope?.[META.protocolVersion];
  const declared = envelope?.[META.clientCapabilities] as ClientCapabilities | undefined;
  return {
    sessionId,
    principal,
    ...(typeof revision === 'string' && { revision }),
    capabilities: () => declared ?? server.getClientCapabilities(),
    async request(method, params, signal) {
      const missing = missingCapability(server.getClientCapabilities(), method, params);
      if (missing) {
        const client = server.getClientVersion()?.name ?? 'the client';
        throw new McpError(
          ErrorCode.MethodNotFound,
          `MCP Lens's client (${client}) does not support ${missing}, so it cannot answer ${method}`,
        );
      }
      // A 2025 client is asked as a 2025 server asks: without MCP Lens's bookkeeping key.
      return send({ method, params: revision ? params : withoutInputKey(params) } as ServerRequest, signal);
    },
    notify(method, params) {
      notify({ method, params } as ServerNotification).catch(() => undefined);
    },
  };
}

/** The session's client, for requests and notifications that belong to no one call; `principal`: whom it acts for. */
export function sessionClient(server: Server, sessionId: string, principal: Principal): DownstreamClient {
  return caller(
    sessionId,
    principal,
    server,
    (request, signal) => server.request(request, ResultSchema, { signal, timeout: CLIENT_ANSWER_MS }),
    (n) => server.notification(n),
  );
}

/** The client as one tools/call sees it: what its upstream asks goes related to that call. */
export interface CallExtra {
  signal: AbortSignal;
  /** The request's `_meta` (a 2026-07-28 request's envelope). */
  _meta?: Record<string, unknown>;
  sendRequest: (
    request: ServerRequest,
    schema: typeof ResultSchema,
    options: { signal: AbortSignal; timeout: number },
  ) => Promise<JsonObject>;
  sendNotification: (notification: ServerNotification) => Promise<void>;
}

export function callCaller(server: Server, sessionId: string, principal: Principal, extra: CallExtra): UpstreamCaller {
  return caller(
    sessionId,
    principal,
    server,
    // The call ending (its client cancelled it, or it timed out) ends what it asked for too.
    (request, signal) =>
      extra.sendRequest(request, ResultSchema, {
        signal: AbortSignal.any([signal, extra.signal]),
        timeout: CLIENT_ANSWER_MS,
      }),
    (n) => extra.sendNotification(n),
    extra._meta,
  );
}
