/**
 * `subscriptions/listen`: the modern revision's one long-lived request. Its response stream first
 * acknowledges what it will carry (the filter as MCP Lens honours it), then carries only the change
 * notifications the client opted in to, each tagged with the subscription's id: list changes when
 * the list the principal would get really changed (the same comparison a legacy session's
 * list_changed rests on, gateway.ts), and updates of the resources it named. It ends when the
 * client goes away or the gateway closes (then with its result).
 */
import { randomUUID } from 'node:crypto';
import type { JSONRPCNotification, JSONRPCRequest, JSONRPCResponse } from '@modelcontextprotocol/sdk/types.js';
import type { Disposable, Lens } from '../../app/lens';
import { META } from '../../core/revision/revisions';
import type { ModernContext } from './modernContext';

/** Where a stream's messages go. */
export interface ListenWriter {
  send(message: JSONRPCNotification | JSONRPCResponse): void;
  end(): void;
}

/** What the gateway knows of the lists a principal gets (the signatures it compares). */
export interface ListSignatures {
  tools(sessionId: string): string;
  prompts(): string;
  resources(sessionId: string): string;
}

/** Resource URIs one stream may follow. */
const MAX_RESOURCE_SUBSCRIPTIONS = 100;

type Kind = 'tools' | 'prompts' | 'resources';
const FLAG: Record<Kind, 'toolsListChanged' | 'promptsListChanged' | 'resourcesListChanged'> = {
  tools: 'toolsListChanged',
  prompts: 'promptsListChanged',
  resources: 'resourcesListChanged',
};

interface Stream {
  request: JSONRPCRequest;
  subscriptionId: string;
  context: ModernContext;
  writer: ListenWriter;
  wants: Set<Kind>;
  seen: Partial<Record<Kind, string>>;
  attached?: Disposable;
}

export class ListenStreams {
  private readonly streams = new Set<Stream>();

  constructor(
    private readonly lens: Lens,
    private readonly signatures: ListSignatures,
    private readonly resultMeta: () => Record<string, unknown>,
  ) {}

  /** Opens a stream; returns the error to answer instead when the request cannot be one. */
  async open(
    context: ModernContext,
    request: JSONRPCRequest,
    writer: ListenWriter,
    signal: AbortSignal,
  ): Promise<string | undefined> {
    const filter = (request.params as Record<string, unknown> | undefined)?.notifications;
    if (typeof filter !== 'object' || filter === null || Array.isArray(filter))
      return 'subscriptions/listen needs params.notifications, the notifications to receive';
    const f = filter as Record<string, unknown>;
    const subscriptionId = String(request.id);
    const stream: Stream = { request, subscriptionId, context, writer, wants: new Set(), seen: {} };
    for (const kind of Object.keys(FLAG) as Kind[]) if (f[FLAG[kind]] === true) stream.wants.add(kind);
    const honoured: Record<string, unknown> = {};
    for (const kind of stream.wants) honoured[FLAG[kind]] = true;
    const uris = await this.followResources(stream, f.resourceSubscriptions);
    if (uris.length) honoured.resourceSubscriptions = uris;
    if (signal.aborted) return void this.drop(stream);
    this.remember(stream);
    this.streams.add(stream);
    signal.addEventListener('abort', () => this.drop(stream), { once: true });
    writer.send(this.tagged('notifications/subscriptions/acknowledged', stream, { notifications: honoured }));
    return undefined;
  }

  /** Tells the streams (all, or one session's) of the lists that really changed. */
  refresh(sessionId?: string): void {
    for (const stream of this.streams) {
      if (sessionId !== undefined && stream.context.sessionId !== sessionId) continue;
      const before = { ...stream.seen };
      this.remember(stream);
      for (const kind of stream.wants)
        if (before[kind] !== stream.seen[kind])
          stream.writer.send(this.tagged(`notifications/${kind}/list_changed`, stream, {}));
    }
  }

  /** Ends every stream with its result (the gateway closes). */
  closeAll(): void {
    for (const stream of [...this.streams]) {
      const result = {
        resultType: 'complete',
        _meta: { ...this.resultMeta(), [META.subscriptionId]: stream.subscriptionId },
      };
      stream.writer.send({ jsonrpc: '2.0', id: stream.request.id, result } as JSONRPCResponse);
      stream.writer.end();
      this.drop(stream);
    }
  }

  private async followResources(stream: Stream, requested: unknown): Promise<string[]> {
    const clients = this.lens.clients;
    if (!Array.isArray(requested) || !clients) return [];
    const uris = [...new Set(requested.filter((u): u is string => typeof u === 'string'))].slice(
      0,
      MAX_RESOURCE_SUBSCRIPTIONS,
    );
    if (uris.length === 0) return [];
    const listenSession = `listen:${randomUUID()}`;
    const followed = new Set<string>();
    stream.attached = clients.attach({
      sessionId: listenSession,
      principal: stream.context.principal,
      capabilities: () => ({}),
      request: async (method) => {
        throw new Error(`a subscriptions/listen stream cannot answer ${method}`);
      },
      notify: (method, params) => {
        if (method === 'notifications/resources/updated' && followed.has(String(params?.uri)))
          stream.writer.send(this.tagged(method, stream, params ?? {}));
      },
    });
    for (const uri of uris) {
      // A URI MCP Lens does not serve is left out of the acknowledgement, not an error.
      await clients.subscribe(listenSession, uri).then(
        () => followed.add(uri),
        () => undefined,
      );
    }
    return [...followed];
  }

  private remember(stream: Stream): void {
    const id = stream.context.sessionId;
    if (stream.wants.has('tools')) stream.seen.tools = this.signatures.tools(id);
    if (stream.wants.has('prompts')) stream.seen.prompts = this.signatures.prompts();
    if (stream.wants.has('resources')) stream.seen.resources = this.signatures.resources(id);
  }

  private tagged(method: string, stream: Stream, params: Record<string, unknown>): JSONRPCNotification {
    const meta = {
      ...((params._meta as Record<string, unknown> | undefined) ?? {}),
      [META.subscriptionId]: stream.subscriptionId,
    };
    return { jsonrpc: '2.0', method, params: { ...params, _meta: meta } };
  }

  private drop(stream: Stream): void {
    this.streams.delete(stream);
    stream.attached?.dispose();
  }
}
