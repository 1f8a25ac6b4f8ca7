/**
 * Speaks protocol revision 2026-07-28 to an upstream server while MCP Lens's Client (the SDK's,
 * which speaks up to 2025-11-25) sees a server of its own era: a transport between the two.
 *
 * - The Client's `initialize` becomes `server/discover`, whose answer is given back as the
 *   initialize result (the server's capabilities, identity and instructions); `initialized` is
 *   swallowed. There is no session.
 * - Every request goes out with the envelope (`_meta`: revision, MCP Lens's identity, the client
 *   capabilities — those of the downstream client the request is for when the caller put them in
 *   the request's `_meta`, else what MCP Lens declares — and the log level last set).
 *   `logging/setLevel` only sets that level; `ping` is a `server/discover`.
 * - An input-required result (tools/call, prompts/get, resources/read) becomes the requests it
 *   names, sent to the Client as a 2025 server would send them (MCP Lens hands them to the
 *   downstream client whose call it is); once all are answered the request is sent again with the
 *   answers and the server's `requestState`, round after round, until it completes. The Client
 *   sees one request and one result.
 * - List changes and resource updates come on a `subscriptions/listen` request opened after
 *   "initialize" and opened again when MCP Lens subscribes to another resource;
 *   `resources/subscribe` and `unsubscribe` are answered here.
 * - Over HTTP, a refusal the server sends with an error status (400, 404) still carries its
 *   JSON-RPC error, which the Client gets as that error (-32021 with its data, say).
 */
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike, Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type {
  ClientCapabilities,
  JSONRPCMessage,
  JSONRPCRequest,
  JSONRPCResponse,
  LoggingLevel,
  RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { INPUT_KEY_META, META, MODERN_REVISIONS } from '../../core/revision/revisions';
import { encodeHeaderValue, mcpNameSource } from '../../core/revision/standardHeaders';

export const UPSTREAM_REVISION = MODERN_REVISIONS[0]!;
const MRTR_METHODS = new Set(['tools/call', 'prompts/get', 'resources/read']);
/** Rounds one request may take: a server asking forever must not keep MCP Lens answering forever. */
const MAX_ROUNDS = 16;

export interface ModernEraOptions {
  clientInfo: { name: string; version: string };
  /** What MCP Lens declares: the envelope's capabilities unless the request names its caller's. */
  capabilities: ClientCapabilities;
}

type Obj = Record<string, unknown>;

interface Pending {
  clientId: RequestId;
  method: string;
  params: Obj;
  kind: 'discover' | 'ping' | 'forward' | 'listen';
  rounds: number;
  /** The current round's questions: key → the Client's answer once it came. */
  asked?: Map<string, { id: string; answer?: unknown }> | undefined;
  requestState?: string | undefined;
}

export class ModernEraTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;

  private readonly pending = new Map<string, Pending>();
  /** A question sent to the Client (its id) → the request it belongs to, and its key there. */
  private readonly questions = new Map<string, { upstreamId: string; key: string }>();
  private nextId = 0;
  private logLevel: LoggingLevel | undefined;
  private readonly subscriptions = new Set<string>();
  private listenId: string | undefined;
  private serverCapabilities: Obj = {};
  /** The server's own caching hint (ttlMs) on each list it answered last (gateway/modern/cacheHints.ts). */
  readonly listTtl = new Map<string, number>();

  constructor(
    readonly inner: Transport,
    private readonly opts: ModernEraOptions,
  ) {}

  /** Over HTTP a request is cancelled by closing its stream; over stdio by notifications/cancelled. */
  private get overHttp(): boolean {
    return this.inner instanceof StreamableHTTPClientTransport;
  }

  /** The stdio process's id, when the inner transport has one (session.ts records it). */
  get pid(): number | null | undefined {
    return (this.inner as { pid?: number | null }).pid;
  }

  async start(): Promise<void> {
    this.inner.onmessage = (message) => this.fromServer(message);
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (error) => {
      if (!refusalIn(error)) this.onerror?.(error);
    };
    this.inner.setProtocolVersion?.(UPSTREAM_REVISION);
    await this.inner.start();
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  /** The Client settles on the legacy revision it asked for; the wire keeps speaking ours. */
  setProtocolVersion(): void {
    this.inner.setProtocolVersion?.(UPSTREAM_REVISION);
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if ('method' in message && 'id' in message) return this.request(message, options);
    if ('method' in message) return this.notification(message.method, (message.params ?? {}) as Obj);
    const id = String((message as { id: RequestId }).id);
    const question = this.questions.get(id);
    if (!question) return;
    this.questions.delete(id);
    const pending = this.pending.get(question.upstreamId);
    const slot = pending?.asked?.get(question.key);
    if (!pending || !slot) return;
    const answer = message as JSONRPCResponse & { error?: { message: string } };
    // A question the downstream client refused ends the request with that refusal.
    if ('error' in answer && answer.error) return this.deliverToClient(pending, { error: answer.error });
    slot.answer = (answer as { result: unknown }).result;
    if ([...pending.asked!.values()].every((s) => s.answer !== undefined))
      await this.retry(question.upstreamId, pending);
  }

  private async request(message: JSONRPCRequest, options: TransportSendOptions | undefined): Promise<void> {
    const params = (message.params ?? {}) as Obj;
    const local = (result: Obj) => this.onmessage?.({ jsonrpc: '2.0', id: message.id, result } as JSONRPCMessage);
    switch (message.method) {
      case 'initialize':
        return this.forward({
          clientId: message.id,
          method: 'server/discover',
          params: {},
          kind: 'discover',
          rounds: 0,
        });
      case 'ping':
        return this.forward({ clientId: message.id, method: 'server/discover', params: {}, kind: 'ping', rounds: 0 });
      case 'logging/setLevel':
        this.logLevel = params.level as LoggingLevel;
        return local({});
      case 'resources/subscribe':
      case 'resources/unsubscribe':
        if (message.method === 'resources/subscribe') this.subscriptions.add(String(params.uri));
        else this.subscriptions.delete(String(params.uri));
        local({});
        return void this.listen();
      default:
        return this.forward(
          { clientId: message.id, method: message.method, params, kind: 'forward', rounds: 0 },
          options,
        );
    }
  }

  private async notification(method: string, params: Obj): Promise<void> {
    // Not waited for: the stream stays open as long as the server holds it.
    if (method === 'notifications/initialized') return void this.listen();
    if (method === 'notifications/cancelled') {
      // Over stdio the server hears it under the id it knows; over HTTP closing the request's
      // stream is the cancellation, which the SDK's transport cannot do for one request.
      const upstream = [...this.pending].find(([, p]) => String(p.clientId) === String(params.requestId))?.[0];
      if (upstream && !this.overHttp)
        await this.inner.send({ jsonrpc: '2.0', method, params: { ...params, requestId: upstream } });
    }
    // Nothing else a 2025 client says has a place in this revision (roots changes are asked for per request).
  }

  private envelope(params: Obj): Obj {
    const given = (params._meta ?? {}) as Obj;
    return {
      ...given,
      [META.protocolVersion]: UPSTREAM_REVISION,
      [META.clientInfo]: this.opts.clientInfo,
      [META.clientCapabilities]: given[META.clientCapabilities] ?? this.opts.capabilities,
      ...(this.logLevel && { [META.logLevel]: this.logLevel }),
    };
  }

  private async forward(pending: Pending, options?: TransportSendOptions, extra: Obj = {}): Promise<void> {
    const id = `u${++this.nextId}`;
    this.pending.set(id, pending);
    const params = { ...pending.params, ...extra, _meta: this.envelope(pending.params) };
    try {
      await this.inner.send({ jsonrpc: '2.0', id, method: pending.method, params }, options);
    } catch (error) {
      const refusal = refusalIn(error);
      if (!refusal) {
        this.pending.delete(id);
        throw error;
      }
      this.fromServer({ jsonrpc: '2.0', id, error: refusal } as JSONRPCMessage);
    }
  }

  private fromServer(message: JSONRPCMessage): void {
    if (!('id' in message) || message.id === undefined || 'method' in message) {
      if ('method' in message && 'params' in message) this.fromStream(message as { method: string; params?: Obj });
      else this.onmessage?.(message);
      return;
    }
    const id = String(message.id);
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    if ('error' in message) return this.deliverToClient(pending, { error: message.error });
    const result = (message as { result: Obj }).result;
    if (pending.kind === 'listen') return;
    if (pending.kind === 'discover') return this.initialized(pending, result);
    if (pending.kind === 'ping') return this.deliverToClient(pending, { result: {} });
    if (result.resultType === 'input_required' && MRTR_METHODS.has(pending.method))
      return this.ask(id, pending, result);
    if (pending.method.endsWith('/list') && typeof result.ttlMs === 'number')
      this.listTtl.set(pending.method, result.ttlMs);
    const { resultType: _type, ...rest } = result;
    this.deliverToClient(pending, { result: rest });
  }

  /** A notification: from the listen stream (the current one only, not a replaced one), or about a request. */
  private fromStream(message: { method: string; params?: Obj }): void {
    const meta = (message.params?._meta ?? {}) as Obj;
    const subscription = meta[META.subscriptionId];
    if (subscription !== undefined) {
      if (String(subscription) !== this.listenId || message.method === 'notifications/subscriptions/acknowledged')
        return;
      const { [META.subscriptionId]: _s, ...restMeta } = meta;
      const params = { ...message.params, _meta: restMeta };
      this.onmessage?.({ jsonrpc: '2.0', method: message.method, params } as JSONRPCMessage);
      return;
    }
    this.onmessage?.({ jsonrpc: '2.0', ...message } as JSONRPCMessage);
  }

  private initialized(pending: Pending, result: Obj): void {
    const versions = Array.isArray(result.supportedVersions) ? result.supportedVersions : [];
    if (!versions.includes(UPSTREAM_REVISION))
      return this.deliverToClient(pending, {
        error: { code: -32600, message: `the server does not offer protocol revision ${UPSTREAM_REVISION}` },
      });
    this.serverCapabilities = (result.capabilities ?? {}) as Obj;
    const serverInfo = ((result._meta ?? {}) as Obj)[META.serverInfo] ?? { name: 'unnamed', version: '0' };
    this.deliverToClient(pending, {
      result: {
        protocolVersion: (pending.params.protocolVersion as string | undefined) ?? '2025-11-25',
        capabilities: this.serverCapabilities,
        serverInfo,
        ...(typeof result.instructions === 'string' && { instructions: result.instructions }),
      },
    });
  }

  /** An input-required round: its questions go to the Client; the answers come back through `send`. */
  private ask(upstreamId: string, pending: Pending, result: Obj): void {
    if (++pending.rounds > MAX_ROUNDS)
      return this.deliverToClient(pending, {
        error: { code: -32603, message: `the server asked for input ${MAX_ROUNDS} times without completing` },
      });
    const requests = (result.inputRequests ?? {}) as Record<string, { method?: unknown; params?: unknown }>;
    pending.requestState = typeof result.requestState === 'string' ? result.requestState : undefined;
    pending.asked = new Map();
    this.pending.set(upstreamId, pending);
    const entries = Object.entries(requests).filter(([, r]) => typeof r?.method === 'string');
    if (entries.length === 0) return void this.retry(upstreamId, pending);
    for (const [key] of entries) {
      const id = `ask-${++this.nextId}`;
      pending.asked.set(key, { id });
      this.questions.set(id, { upstreamId, key });
    }
    for (const [key, request] of entries) {
      const id = pending.asked.get(key)!.id;
      const given = (request.params ?? {}) as Obj;
      const params = { ...given, _meta: { ...((given._meta ?? {}) as Obj), [INPUT_KEY_META]: key } };
      this.onmessage?.({ jsonrpc: '2.0', id, method: request.method as string, params } as JSONRPCMessage);
    }
  }

  private async retry(upstreamId: string, pending: Pending): Promise<void> {
    this.pending.delete(upstreamId);
    const inputResponses = Object.fromEntries([...(pending.asked ?? [])].map(([key, s]) => [key, s.answer]));
    pending.asked = undefined;
    await this.forward(pending, undefined, {
      inputResponses,
      ...(pending.requestState !== undefined && { requestState: pending.requestState }),
    });
  }

  private deliverToClient(pending: Pending, body: { result?: Obj; error?: unknown }): void {
    for (const [id, p] of this.pending) if (p === pending) this.pending.delete(id);
    this.onmessage?.({ jsonrpc: '2.0', id: pending.clientId, ...body } as JSONRPCMessage);
  }

  /** Opens (again) the stream the server's change notifications come on, when it offers any. */
  private async listen(): Promise<void> {
    const caps = this.serverCapabilities as { tools?: Obj; prompts?: Obj; resources?: Obj };
    const notifications: Obj = {
      ...(caps.tools?.listChanged ? { toolsListChanged: true } : {}),
      ...(caps.prompts?.listChanged ? { promptsListChanged: true } : {}),
      ...(caps.resources?.listChanged ? { resourcesListChanged: true } : {}),
      ...(caps.resources?.subscribe && this.subscriptions.size
        ? { resourceSubscriptions: [...this.subscriptions] }
        : {}),
    };
    if (Object.keys(notifications).length === 0) return;
    const id = `listen-${++this.nextId}`;
    const before = this.listenId;
    this.listenId = id;
    // Over stdio the replaced stream is cancelled; over HTTP its notifications are no longer taken.
    if (before && !this.overHttp)
      await this.inner.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: before } });
    this.pending.set(id, { clientId: id, method: 'subscriptions/listen', params: {}, kind: 'listen', rounds: 0 });
    const params = { notifications, _meta: this.envelope({}) };
    await this.inner.send({ jsonrpc: '2.0', id, method: 'subscriptions/listen', params }).catch(() => {
      // A server that offers no listen stream: its changes are not heard (as with a legacy one without a GET stream).
      this.pending.delete(id);
    });
  }
}

/** The JSON-RPC error in an HTTP refusal the SDK's transport threw ("Error POSTing to endpoint: {…}"). */
function refusalIn(error: unknown): { code: number; message: string; data?: unknown } | undefined {
  const text = error instanceof Error ? error.message : '';
  const start = text.indexOf('{');
  if (start < 0) return undefined;
  try {
    const body = JSON.parse(text.slice(start)) as { error?: { code?: unknown; message?: unknown; data?: unknown } };
    if (typeof body.error?.code !== 'number') return undefined;
    return {
      code: body.error.code,
      message: String(body.error.message ?? ''),
      ...(body.error.data !== undefined && { data: body.error.data }),
    };
  } catch {
    return undefined;
  }
}

/**
 * The fetch a modern HTTP upstream is reached with: the revision's standard headers mirror each
 * POSTed request's method and name (Mcp-Method, Mcp-Name; base64 when not plain ASCII).
 */
export function withStandardHeaders(fetchFn: FetchLike): FetchLike {
  return (input, init) => {
    if (init?.method !== 'POST' || typeof init.body !== 'string') return fetchFn(input, init);
    let message: { method?: unknown; params?: Obj };
    try {
      message = JSON.parse(init.body) as typeof message;
    } catch {
      return fetchFn(input, init);
    }
    if (typeof message.method !== 'string') return fetchFn(input, init);
    const headers = new Headers(init.headers);
    headers.set('mcp-method', message.method);
    const name = mcpNameSource(message.method, message.params);
    if (name !== undefined) headers.set('mcp-name', encodeHeaderValue(name));
    return fetchFn(input, { ...init, headers });
  };
}
