/**
 * The stdio front door's hot path: a `tools/call` of call_tool is answered without the SDK's
 * Protocol (its message schema, the tools/call request and result schemas, an extra object and
 * a promise chain per request), through the same handler the Protocol calls
 * (sessionServer.ts toolCallHandler), so argument checks, the call path, cleaning, shaping and
 * accounting are the same code. What the Protocol does around a request is kept here:
 *   the response goes out on the same transport, in one write;
 *   notifications/cancelled from the client aborts the call's signal (passed on upstream by the
 *     call path) and no response follows, as the spec and the SDK have it;
 *   what the upstream asks back during the call (sampling, elicitation, roots, logs) is sent to
 *     this client related to the call, and stops once the call was cancelled;
 *   a handler that throws answers with the SDK's error response;
 *   the transport closing aborts every call still running.
 * One rule says which requests take this path (`direct`): call_tool with plain arguments, no
 * progress token, no task, no related task, every member as the SDK's schemas require. Anything
 * else, and every other message, goes to the SDK unchanged.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode,
  McpError,
  RELATED_TASK_META_KEY,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import type { CallExtra } from './downstreamClient';
import { CALL_TOOL } from './metaToolDefs';
import type { ToolCallHandler, ToolCallParams } from './sessionServer';
import type { GatewayStdioTransport } from './stdioTransport';

const REQUEST_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'string' || Number.isInteger(value);
}

/** The params of a request this path answers, or undefined when the SDK's path must (see the file comment). */
export function direct(message: Record<string, unknown>): ToolCallParams | undefined {
  if (message.method !== 'tools/call' || message.jsonrpc !== '2.0' || !isRequestId(message.id)) return undefined;
  for (const key of Object.keys(message)) if (!REQUEST_KEYS.has(key)) return undefined;
  const params = message.params;
  if (!isPlainObject(params) || params.name !== CALL_TOOL || 'task' in params) return undefined;
  if (params.arguments !== undefined && !isPlainObject(params.arguments)) return undefined;
  const meta = params._meta;
  if (meta !== undefined && (!isPlainObject(meta) || 'progressToken' in meta || RELATED_TASK_META_KEY in meta))
    return undefined;
  return params as unknown as ToolCallParams;
}

/**
 * Installs the direct path on a connected session's transport. `server` is that session's SDK
 * Server: what the upstream asks back still goes through it (its own requests and their answers
 * are the SDK's).
 */
export function answerToolCallsDirectly(
  transport: GatewayStdioTransport,
  server: Server,
  handle: ToolCallHandler,
): void {
  const running = new Map<RequestId, AbortController>();
  const spares = new SpareControllers();
  const send = (message: JSONRPCMessage) =>
    transport.send(message).catch((error: unknown) => transport.onerror?.(asError(error)));
  // As the SDK's Protocol does when its transport closes: every call still running is aborted
  // (and so cancelled upstream). Installed before the Server connects, which chains onto it.
  const closed = transport.onclose;
  let open = true;
  transport.onclose = () => {
    open = false;
    spares.clear();
    for (const controller of running.values()) controller.abort();
    running.clear();
    closed?.();
  };

  transport.take = (value) => {
    if (!isPlainObject(value)) return false;
    if (value.method === 'notifications/cancelled') {
      // Ours are aborted here; the SDK still gets the notification for its own requests.
      const params = value.params;
      if (isPlainObject(params)) running.get(params.requestId as RequestId)?.abort(params.reason);
      return false;
    }
    const params = direct(value);
    if (!params) return false;
    const id = value.id as RequestId;
    const controller = spares.take();
    running.set(id, controller);
    const { signal } = controller;
    const extra: CallExtra = {
      signal,
      sendRequest: async (request, schema, options) => {
        if (signal.aborted) throw new McpError(ErrorCode.ConnectionClosed, 'Request was cancelled');
        return server.request(request, schema, { ...options, relatedRequestId: id });
      },
      sendNotification: async (notification) => {
        if (signal.aborted) return;
        await server.notification(notification, { relatedRequestId: id });
      },
    };
    handle(params, extra).then(
      (result) => {
        running.delete(id);
        if (!signal.aborted) void send({ jsonrpc: '2.0', id, result });
        if (open) spares.refill();
      },
      (error: unknown) => {
        running.delete(id);
        if (signal.aborted) return;
        const e = error as { code?: unknown; message?: unknown; data?: unknown };
        const code = Number.isSafeInteger(e.code) ? (e.code as number) : ErrorCode.InternalError;
        const message = typeof e.message === 'string' ? e.message : 'Internal error';
        void send({ jsonrpc: '2.0', id, error: { code, message, ...(e.data !== undefined && { data: e.data }) } });
        if (open) spares.refill();
      },
    );
    return true;
  };
}

/**
 * Each call's AbortController, made before the call comes: on Node 20 making one costs about
 * 10 µs, more than the rest of a request's way to the upstream. A call takes the one made
 * beforehand (or makes its own when there is none, as in a burst); the next is made in the
 * check phase after a reply was written, off the way of both. Never shared: each is handed out
 * once.
 */
export class SpareControllers {
  private spare: AbortController | undefined;
  private queued = false;

  take(): AbortController {
    const controller = this.spare ?? new AbortController();
    this.spare = undefined;
    return controller;
  }

  /** Makes the next one once this turn's writes are done. */
  refill(): void {
    if (this.queued || this.spare) return;
    this.queued = true;
    setImmediate(() => {
      if (!this.queued) return; // cleared meanwhile
      this.queued = false;
      this.spare ??= new AbortController();
    });
  }

  clear(): void {
    this.queued = false;
    this.spare = undefined;
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
