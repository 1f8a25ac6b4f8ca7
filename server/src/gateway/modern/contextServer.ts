/**
 * The MCP `Server` a modern (2026-07-28) request is served by. A modern request carries everything
 * about its client in its envelope and belongs to no session, but MCP Lens's handlers are the
 * session server's (sessionServer.ts), written for the SDK's Server: so each principal context
 * (gateway/modern/modernContext.ts) and client identity gets one Server, opened in-process as a
 * client of the newest legacy revision would open it, and every modern request is handed to it
 * under an id of the context's own. What the Server sends comes back through `route`: the answer
 * to one of those ids, or a notification or request "related to" one (the SDK marks each with the
 * request it belongs to), which the request's exchange turns into the modern revision's shapes.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type {
  ClientCapabilities,
  Implementation,
  InitializeResult,
  JSONRPCMessage,
  RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { NEWEST_LEGACY_REVISION } from '../../core/revision/revisions';

/**
 * What the context Server is told its client can do: everything. Whether a modern request's
 * client can answer what an upstream asks is its own envelope's business, checked per request
 * (exchange.ts), so one Server serves requests with different capabilities.
 */
const EVERY_CAPABILITY: ClientCapabilities = {
  sampling: { tools: {}, context: {} },
  elicitation: { form: {}, url: {} },
  roots: { listChanged: true },
};

const INIT_ID = 'mcp-lens-context-init';

/** Where the Server's messages go: `related` is the id of the request a message belongs to. */
export type ServerOutput = (message: JSONRPCMessage, related: RequestId | undefined) => void;

/** An in-process transport: messages in by `deliver`, out to `output`. */
class InProcessTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  /** The Server's answer to the opening initialize: what it serves (capabilities, instructions). */
  initialized: ((result: InitializeResult) => void) | undefined;

  constructor(private readonly output: ServerOutput) {}

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if ('id' in message && message.id === INIT_ID) {
      if ('result' in message) this.initialized?.(message.result as InitializeResult);
      return;
    }
    this.output(message, options?.relatedRequestId);
  }

  async close(): Promise<void> {
    this.onclose?.();
  }

  deliver(message: JSONRPCMessage): void {
    this.onmessage?.(message);
  }
}

export class ContextServer {
  private readonly transport: InProcessTransport;
  private nextId = 0;
  lastUsed = Date.now();
  /** What the Server serves, as it answered initialize. */
  readonly served: Promise<InitializeResult>;

  private constructor(
    readonly server: Server,
    output: ServerOutput,
  ) {
    this.transport = new InProcessTransport(output);
    this.served = new Promise((resolve) => (this.transport.initialized = resolve));
  }

  /** A Server from `create`, connected and initialized as the newest legacy client would. */
  static async open(create: () => Server, clientInfo: Implementation, output: ServerOutput): Promise<ContextServer> {
    const server = create();
    const context = new ContextServer(server, output);
    await server.connect(context.transport);
    context.transport.deliver({
      jsonrpc: '2.0',
      id: INIT_ID,
      method: 'initialize',
      params: { protocolVersion: NEWEST_LEGACY_REVISION, capabilities: EVERY_CAPABILITY, clientInfo },
    });
    context.transport.deliver({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return context;
  }

  /** A fresh id of this context's for the next request. */
  newId(): string {
    return `m${++this.nextId}`;
  }

  /** Hands the Server a request under an id from `newId` (what answers it may come at once). */
  request(id: string, method: string, params: Record<string, unknown> | undefined): void {
    this.lastUsed = Date.now();
    this.transport.deliver({ jsonrpc: '2.0', id, method, ...(params && { params }) });
  }

  /** The answer to a request the Server sent (one of its ids). */
  answer(message: JSONRPCMessage): void {
    this.transport.deliver(message);
  }

  /** Stops the request the Server runs under `id`. */
  cancel(id: string, reason: string): void {
    this.transport.deliver({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason } });
  }

  close(): Promise<void> {
    return this.server.close();
  }
}
