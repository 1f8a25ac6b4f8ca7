/**
 * The modern (2026-07-28) leg of the gateway over stdio. One process serves both eras at once (as
 * the revision allows a dual-era server to): a message that claims a revision in its envelope —
 * or is `server/discover` or `subscriptions/listen`, which exist only in the modern revision — is
 * served statelessly by the gateway's modern dispatch, for the one principal the connection is;
 * everything else goes to the 2025-era session that `initialize` opens, as before. A client's
 * `notifications/cancelled` ends the modern request (or listen stream) it names.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type {
  JSONRPCMessage,
  JSONRPCNotification,
  JSONRPCRequest,
  JSONRPCResponse,
} from '@modelcontextprotocol/sdk/types.js';
import { claimsRevision, isRevisionError, readEnvelope } from '../../core/revision/envelope';
import type { Gateway } from '../gateway';
import { stdioContext } from './modernContext';

const MODERN_ONLY = new Set(['server/discover', 'subscriptions/listen']);

/** Takes the modern messages off a connected stdio transport, leaving the rest to the session's Server. */
export function routeModernStdio(gateway: Gateway, transport: Transport): void {
  const context = stdioContext();
  const legacy = transport.onmessage;
  /** Modern requests in flight (and listen streams), by their id: what a cancel names. */
  const running = new Map<string, AbortController>();
  const send = (message: JSONRPCMessage) => void transport.send(message).catch(() => undefined);

  transport.onmessage = (message, extra) => {
    if ('method' in message && 'id' in message) {
      if (claimsRevision(message.params) || MODERN_ONLY.has(message.method))
        return void serve(message as JSONRPCRequest);
    } else if ('method' in message && message.method === 'notifications/cancelled') {
      const id = String((message.params as { requestId?: unknown } | undefined)?.requestId);
      const controller = running.get(id);
      if (controller) return void controller.abort();
    }
    legacy?.(message, extra);
  };

  async function serve(request: JSONRPCRequest): Promise<void> {
    const envelope = readEnvelope(request.params);
    if (isRevisionError(envelope)) {
      const { httpStatus: _status, ...error } = envelope;
      return send({ jsonrpc: '2.0', id: request.id, error } as JSONRPCMessage);
    }
    const key = String(request.id);
    const controller = new AbortController();
    running.set(key, controller);
    controller.signal.addEventListener('abort', () => running.delete(key), { once: true });
    if (request.method === 'subscriptions/listen') {
      const writer = { send: (m: JSONRPCNotification | JSONRPCResponse) => send(m), end: () => running.delete(key) };
      const error = await gateway.listens.open(context, request, writer, controller.signal);
      if (!error) return;
      running.delete(key);
      return send({ jsonrpc: '2.0', id: request.id, error: { code: -32602, message: `Invalid params: ${error}` } });
    }
    const reply = {
      notify: (m: JSONRPCNotification) => send(m),
      respond: (m: JSONRPCResponse) => {
        running.delete(key);
        send(m);
      },
    };
    await gateway.modern.handle(context, request, envelope, reply, controller.signal);
  }
}
