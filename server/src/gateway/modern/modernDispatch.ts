/**
 * Serves modern (2026-07-28) requests whose envelope and headers were already checked (the
 * transport's front: modernHttp.ts, the stdio front): `server/discover` from what the session
 * server serves, the methods the revision removed as unknown ones, a retry carrying a
 * `requestState` to the request MCP Lens holds for it, and everything else through a context
 * Server (contextServer.ts) as an exchange (exchange.ts). `subscriptions/listen` is listen.ts's.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type {
  Implementation,
  JSONRPCMessage,
  JSONRPCRequest,
  JSONRPCResponse,
  RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import type { Disposable, Lens } from '../../app/lens';
import type { RequestEnvelope } from '../../core/revision/envelope';
import { MODERN_REVISIONS, REMOVED_IN_MODERN } from '../../core/revision/revisions';
import { cacheHint, type UpstreamTtl } from './cacheHints';
import { ContextServer } from './contextServer';
import { Exchange, type ModernReply } from './exchange';
import type { ModernContext } from './modernContext';
import { stampResult, type ResultStamp } from './modernResults';
import { RequestStateSigner } from './requestState';

export interface ModernDispatchDeps {
  lens: Lens;
  version: string;
  /** A session server acting for the context's principal, its per-session state kept under its session id. */
  createServer(context: ModernContext): Server;
  /** Keeps the context's principal open while its Servers are (its upstream connections run meanwhile). */
  attach(context: ModernContext): Disposable;
  upstreamTtl?: UpstreamTtl;
  /** Whether the gateway is gathering catalog changes its sessions have not heard of yet. */
  changing?: () => boolean;
}

/** Context Servers kept at once (per principal and client identity); the least used go first. */
const MAX_CONTEXT_SERVERS = 32;
/** Requests held for an input-required round at once; past it the oldest is let go. */
const MAX_HELD = 256;

interface Slot {
  server: ContextServer;
  exchanges: Map<string, Exchange>;
  context: ModernContext;
}

const errorReply = (id: RequestId, code: number, message: string, data?: unknown): JSONRPCResponse =>
  ({ jsonrpc: '2.0', id, error: { code, message, ...(data !== undefined && { data }) } }) as unknown as JSONRPCResponse;

export class ModernDispatch {
  private readonly signer = new RequestStateSigner();
  private readonly slots = new Map<string, Promise<Slot>>();
  private readonly held = new Map<string, Exchange>();
  /** Per context session id: its principal held open, and how many Servers it has. */
  private readonly attached = new Map<string, { handle: Disposable; servers: number }>();
  readonly stamp: ResultStamp;

  constructor(private readonly deps: ModernDispatchDeps) {
    this.stamp = {
      serverInfo: { name: 'mcp-lens', version: deps.version },
      cacheHint: (method) => cacheHint(method, deps.lens, deps.upstreamTtl, deps.changing?.()),
    };
  }

  async handle(
    context: ModernContext,
    request: JSONRPCRequest,
    envelope: RequestEnvelope,
    reply: ModernReply,
    signal?: AbortSignal,
  ): Promise<void> {
    const { method } = request;
    if (REMOVED_IN_MODERN.has(method))
      return reply.respond(
        errorReply(
          request.id,
          -32601,
          `Method not found: ${method} is not part of protocol revision ${envelope.revision}`,
        ),
      );
    const slot = await this.slot(context, envelope.clientInfo);
    if (method === 'server/discover') return reply.respond(await this.discover(request.id, slot));
    const state = (request.params as Record<string, unknown> | undefined)?.requestState;
    if (state !== undefined) return this.resume(context, request, state, reply, signal);
    const exchange = new Exchange(this.host(slot), slot.server, slot.server.newId(), context, request, envelope, reply);
    slot.exchanges.set(exchange.internalId, exchange);
    signal?.addEventListener('abort', () => exchange.abandon(reply), { once: true });
    exchange.start();
  }

  /** Ends every context Server (the gateway closes). */
  async close(): Promise<void> {
    const slots = await Promise.all(this.slots.values());
    this.slots.clear();
    this.held.clear();
    await Promise.all(slots.map((s) => this.closeSlot(s)));
  }

  /** Closes a context Server; the last one of a context lets its principal go. */
  private async closeSlot(slot: Slot): Promise<void> {
    await slot.server.close().catch(() => undefined);
    const hold = this.attached.get(slot.context.sessionId);
    if (!hold || --hold.servers > 0) return;
    this.attached.delete(slot.context.sessionId);
    hold.handle.dispose();
  }

  private async discover(id: RequestId, slot: Slot): Promise<JSONRPCResponse> {
    const served = await slot.server.served;
    const result = {
      supportedVersions: [...MODERN_REVISIONS],
      capabilities: served.capabilities,
      ...(served.instructions !== undefined && { instructions: served.instructions }),
    };
    return stampResult('server/discover', { jsonrpc: '2.0', id, result } as JSONRPCResponse, this.stamp);
  }

  private resume(
    context: ModernContext,
    request: JSONRPCRequest,
    state: unknown,
    reply: ModernReply,
    signal: AbortSignal | undefined,
  ): void {
    const refuse = (why: string) => reply.respond(errorReply(request.id, -32602, `Invalid params: ${why}`));
    if (typeof state !== 'string') return refuse('requestState must be the string MCP Lens gave');
    const claim = this.signer.verify(state, Date.now());
    if (typeof claim === 'string') return refuse(claim);
    const p = (request.params ?? {}) as Record<string, unknown>;
    if (claim.principal !== context.principal.id || claim.session !== context.sessionId)
      return refuse('requestState was issued to another client');
    if (claim.method !== request.method || claim.name !== String(p.name ?? p.uri ?? ''))
      return refuse('requestState belongs to another request (send it with the request it came with)');
    const exchange = this.held.get(claim.held);
    if (!exchange)
      return refuse(
        'the request it belongs to is over (answered, expired or cancelled): send the request again without requestState',
      );
    const error = exchange.resume(request, reply);
    if (error) return refuse(error);
    signal?.addEventListener('abort', () => exchange.abandon(reply), { once: true });
  }

  private host(slot: Slot) {
    return {
      signer: this.signer,
      complete: (method: string, message: JSONRPCResponse) => stampResult(method, message, this.stamp),
      done: (exchange: Exchange) => slot.exchanges.delete(exchange.internalId),
      hold: (exchange: Exchange, held: boolean) => {
        if (!held) return void this.held.delete(exchange.heldId);
        this.held.set(exchange.heldId, exchange);
        if (this.held.size > MAX_HELD) this.held.delete(this.held.keys().next().value!);
      },
    };
  }

  /** The context Server for a principal and client identity, opened on first use. */
  private slot(context: ModernContext, clientInfo: Implementation | undefined): Promise<Slot> {
    const info = clientInfo ?? { name: 'a 2026-07-28 client', version: '0' };
    const key = `${context.sessionId}\0${info.name}\0${info.version}`;
    const known = this.slots.get(key);
    if (known) {
      // Most recently used last: eviction takes from the front.
      this.slots.delete(key);
      this.slots.set(key, known);
      return known;
    }
    const exchanges = new Map<string, Exchange>();
    const output = (message: JSONRPCMessage, related: RequestId | undefined) => {
      const id = 'method' in message ? related : (message as { id?: RequestId }).id;
      if (id !== undefined) exchanges.get(String(id))?.fromServer(message);
    };
    const hold = this.attached.get(context.sessionId) ?? { handle: this.deps.attach(context), servers: 0 };
    hold.servers++;
    this.attached.set(context.sessionId, hold);
    const opened = ContextServer.open(() => this.deps.createServer(context), info, output).then((server) => ({
      server,
      exchanges,
      context,
    }));
    this.slots.set(key, opened);
    void this.evict();
    return opened;
  }

  private async evict(): Promise<void> {
    if (this.slots.size <= MAX_CONTEXT_SERVERS) return;
    for (const [key, pending] of this.slots) {
      const slot = await pending;
      if (slot.exchanges.size > 0) continue;
      this.slots.delete(key);
      await this.closeSlot(slot);
      if (this.slots.size <= MAX_CONTEXT_SERVERS) return;
    }
  }
}
