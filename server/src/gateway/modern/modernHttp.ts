/**
 * The modern (2026-07-28) leg of the gateway's HTTP endpoint. A POST without a session that claims
 * a revision — in its envelope, or by an `MCP-Protocol-Version` header that names no legacy one —
 * is one stateless request: its headers and envelope are checked (core/revision/standardHeaders.ts;
 * a refusal is 400, with the revision's error under the request's id), then it is served by the
 * gateway's modern dispatch and answered with one JSON body, or with an SSE stream when something
 * related to it (progress, a log message) comes before the answer. An unknown or removed method is
 * 404. Closing the stream before the answer cancels the request. `subscriptions/listen` streams.
 * Everything else — `initialize`, requests in a session, batches — stays on the legacy leg.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { JSONRPCNotification, JSONRPCRequest, JSONRPCResponse } from '@modelcontextprotocol/sdk/types.js';
import { claimsRevision, type RevisionError } from '../../core/revision/envelope';
import { isLegacyRevision, MODERN_ERROR } from '../../core/revision/revisions';
import { checkModernHttpRequest } from '../../core/revision/standardHeaders';
import type { Gateway } from '../gateway';
import type { ModernReply } from './exchange';
import type { ModernContext } from './modernContext';

/** A comment line on a quiet listen stream, so that idle timeouts in between do not cut it. */
const KEEP_ALIVE_MS = 15_000;

const SSE_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
};

type Message = { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown };

/** Whether a POST without a session is a modern request (else the legacy leg answers it). */
export function claimsModern(headers: IncomingMessage['headers'], body: unknown): boolean {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const message = body as Message;
  if (claimsRevision(message.params)) return true;
  const version = headers['mcp-protocol-version'];
  return typeof version === 'string' && version.trim() !== '' && !isLegacyRevision(version.trim());
}

/** The HTTP status a JSON-RPC answer goes with on this leg. */
function statusOf(message: JSONRPCResponse): number {
  if (!('error' in message)) return 200;
  const code = (message as { error: { code: number } }).error.code;
  if (code === -32601) return 404;
  if (code === MODERN_ERROR.missingClientCapability) return 400;
  return 200;
}

function writeJson(res: ServerResponse, status: number, message: unknown): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(message));
}

const sseEvent = (message: unknown) => `event: message\ndata: ${JSON.stringify(message)}\n\n`;

/** A request's answer on HTTP: JSON, upgraded to SSE by a notification that comes first. */
class HttpReply implements ModernReply {
  private streaming = false;

  constructor(private readonly res: ServerResponse) {}

  notify(message: JSONRPCNotification): void {
    if (this.res.writableEnded) return;
    if (!this.streaming) {
      this.streaming = true;
      this.res.writeHead(200, SSE_HEADERS);
    }
    this.res.write(sseEvent(message));
  }

  respond(message: JSONRPCResponse): void {
    if (this.res.writableEnded) return;
    if (!this.streaming) return writeJson(this.res, statusOf(message), message);
    this.res.end(sseEvent(message));
  }
}

/** Serves one modern POST (the body already parsed). */
export async function serveModernPost(
  gateway: Gateway,
  context: ModernContext,
  req: IncomingMessage,
  res: ServerResponse,
  body: unknown,
): Promise<void> {
  const message = body as Message;
  if (message.jsonrpc !== '2.0' || typeof message.method !== 'string') {
    writeJson(res, 400, {
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Invalid Request: not a JSON-RPC 2.0 message' },
    });
    return;
  }
  const isRequest = typeof message.id === 'string' || typeof message.id === 'number';
  // This revision defines no notification a client posts over HTTP (closing a stream cancels).
  if (!isRequest && message.id === undefined) {
    res.writeHead(202).end();
    return;
  }
  if (!isRequest) {
    writeJson(res, 400, {
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Invalid Request: the id must be a string or a number' },
    });
    return;
  }
  const request = message as JSONRPCRequest;
  const envelope = checkModernHttpRequest(req.headers, request);
  if ('code' in envelope) return refuse(res, request, envelope);
  const closed = new AbortController();
  res.once('close', () => closed.abort());
  if (request.method === 'subscriptions/listen') return listen(gateway, context, request, res, closed.signal);
  await gateway.modern.handle(context, request, envelope, new HttpReply(res), closed.signal);
}

function refuse(res: ServerResponse, request: JSONRPCRequest, error: RevisionError): void {
  const { httpStatus, ...rest } = error;
  writeJson(res, httpStatus, { jsonrpc: '2.0', id: request.id, error: rest });
}

async function listen(
  gateway: Gateway,
  context: ModernContext,
  request: JSONRPCRequest,
  res: ServerResponse,
  signal: AbortSignal,
): Promise<void> {
  const timer: { keepAlive?: NodeJS.Timeout } = {};
  const writer = {
    send: (message: unknown) => {
      if (!res.headersSent) res.writeHead(200, SSE_HEADERS);
      if (!res.writableEnded) res.write(sseEvent(message));
    },
    end: () => {
      clearInterval(timer.keepAlive);
      if (!res.writableEnded) res.end();
    },
  };
  const error = await gateway.listens.open(context, request, writer, signal);
  if (error)
    return writeJson(res, 200, {
      jsonrpc: '2.0',
      id: request.id,
      error: { code: -32602, message: `Invalid params: ${error}` },
    });
  const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
  timer.keepAlive = keepAlive;
  keepAlive.unref();
  signal.addEventListener('abort', () => clearInterval(keepAlive), { once: true });
}
