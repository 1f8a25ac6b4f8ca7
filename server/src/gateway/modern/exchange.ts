/**
 * One modern request from its arrival to its answer, possibly over several rounds. The context
 * Server (contextServer.ts) runs it as MCP Lens runs any request; what it sends back on the way is
 * put into the modern revision's shapes here:
 *
 * - a notification related to it (progress; a log message, only at or above the request's
 *   `logLevel`, none without one) goes to the client on the request's own stream;
 * - a request to the client (an upstream asking for sampling, elicitation or roots while the call
 *   runs) cannot be sent in this revision: the call is held open and the client gets an
 *   input-required result naming what is asked, with a signed `requestState` (requestState.ts).
 *   Its retry carries the answers, which go to the held call as the client's responses, and the
 *   exchange goes on under the retry's id: to the final result, or to another round. Whatever the
 *   client's envelope does not declare it can answer is refused to the upstream, as a legacy
 *   client's would be, and, but for roots (context, not an answer), fails the request with
 *   -32021, naming the capability.
 * - the final answer gets the revision's result fields (modernResults.ts) under the client's id.
 */
import { randomUUID } from 'node:crypto';
import type {
  JSONRPCMessage,
  JSONRPCNotification,
  JSONRPCRequest,
  JSONRPCResponse,
  RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import type { RequestEnvelope } from '../../core/revision/envelope';
import { INPUT_KEY_META, MODERN_ERROR } from '../../core/revision/revisions';
import { missingCapability } from '../../app/upstreamRequests';
import type { ContextServer } from './contextServer';
import type { ModernContext } from './modernContext';
import type { RequestStateSigner } from './requestState';

/** Where a modern request's messages go. */
export interface ModernReply {
  /** A notification that belongs to the request (progress, a log message). */
  notify(message: JSONRPCNotification): void;
  /** Its one answer, under the client's id. */
  respond(message: JSONRPCResponse): void;
}

/** How long MCP Lens holds a request open for a client to come back with what was asked. */
export const HOLD_MS = 10 * 60 * 1000;

const LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

interface AskedInput {
  key: string;
  /** The context Server's id for the request it sent the client. */
  serverRequestId: RequestId;
  method: string;
  params: Record<string, unknown> | undefined;
  answered: boolean;
}

export interface ExchangeHost {
  signer: RequestStateSigner;
  /** Stamps the revision's fields on a final result (modernResults.ts). */
  complete(method: string, message: JSONRPCResponse): JSONRPCResponse;
  /** The exchange is over: forget it. */
  done(exchange: Exchange): void;
  /** The exchange is held for a retry under `heldId` (or is no longer). */
  hold(exchange: Exchange, held: boolean): void;
}

export class Exchange {
  readonly heldId = randomUUID();
  private reply: ModernReply | undefined;
  private clientId: RequestId;
  private readonly asked: AskedInput[] = [];
  private nextKey = 0;
  private flushing = false;
  private final: JSONRPCResponse | undefined;
  private expiry: NodeJS.Timeout | undefined;

  /** `internalId`: the context Server's id for it (ContextServer.newId); `start` hands it over. */
  constructor(
    private readonly host: ExchangeHost,
    readonly server: ContextServer,
    readonly internalId: string,
    readonly context: ModernContext,
    readonly request: JSONRPCRequest,
    readonly envelope: RequestEnvelope,
    reply: ModernReply,
  ) {
    this.reply = reply;
    this.clientId = request.id;
  }

  start(): void {
    this.server.request(
      this.internalId,
      this.request.method,
      this.request.params as Record<string, unknown> | undefined,
    );
  }

  /** What the request addressed (its tool, prompt or resource), as a requestState binds it. */
  get name(): string {
    const p = (this.request.params ?? {}) as Record<string, unknown>;
    return String(p.name ?? p.uri ?? '');
  }

  /** A message the context Server sent that belongs to this exchange. */
  fromServer(message: JSONRPCMessage): void {
    if ('method' in message && 'id' in message) return this.ask(message);
    if ('method' in message) return this.notifyClient(message);
    this.finish(message as JSONRPCResponse);
  }

  /** The client went away before the answer: the request stops (its upstream call is cancelled). */
  abandon(reply: ModernReply): void {
    if (this.reply !== reply || this.final) return;
    this.reply = undefined;
    this.server.cancel(this.internalId, 'the client closed the request');
    this.close();
  }

  /**
   * A retry carrying this exchange's requestState: its answers go to the held call. Returns the
   * error the retry gets at once, when its answers are not usable (the exchange stays held).
   */
  resume(retry: JSONRPCRequest, reply: ModernReply): string | undefined {
    if (this.reply) return 'this request is already being answered by another retry';
    const responses = (retry.params as Record<string, unknown> | undefined)?.inputResponses;
    if (responses !== undefined && (typeof responses !== 'object' || responses === null || Array.isArray(responses)))
      return 'inputResponses must be an object with one answer per input request key';
    const given = (responses ?? {}) as Record<string, unknown>;
    for (const a of this.asked) {
      const answer = given[a.key];
      if (a.answered || answer === undefined) continue;
      if (typeof answer !== 'object' || answer === null || Array.isArray(answer))
        return `inputResponses.${a.key} must be the client's result object for ${a.method}`;
    }
    clearTimeout(this.expiry);
    this.host.hold(this, false);
    this.reply = reply;
    this.clientId = retry.id;
    if (this.final) return void this.finish(this.final);
    for (const a of this.asked) {
      if (a.answered || given[a.key] === undefined) continue;
      a.answered = true;
      this.server.answer({ jsonrpc: '2.0', id: a.serverRequestId, result: given[a.key] as Record<string, unknown> });
    }
    // What is still unanswered is asked again at once (the revision: re-request, do not fail).
    if (this.asked.some((a) => !a.answered)) this.scheduleFlush();
    return undefined;
  }

  private ask(message: JSONRPCRequest): void {
    const params = message.params as Record<string, unknown> | undefined;
    const missing = missingCapability(this.envelope.capabilities, message.method, params);
    if (missing) {
      this.server.answer({
        jsonrpc: '2.0',
        id: message.id,
        error: { code: -32601, message: `MCP Lens's client did not declare ${missing}, so it cannot answer` },
      });
      // Roots are context a server asks for on its own (as it starts: the first call on a fresh
      // process; on every roots change), not an answer the call waits on: the server hears the
      // refusal a client without roots gives, and the call goes on.
      if (message.method !== 'roots/list') this.failMissing(message.method, missing);
      return;
    }
    this.asked.push({
      key: this.keyFor(message.method, params),
      serverRequestId: message.id,
      method: message.method,
      params: withoutInputKey(params),
      answered: false,
    });
    this.scheduleFlush();
  }

  /** The upstream's own key when it gave one (modernEra.ts) and it is free; else one of ours. */
  private keyFor(method: string, params: Record<string, unknown> | undefined): string {
    const given = (params?._meta as Record<string, unknown> | undefined)?.[INPUT_KEY_META];
    const open = (key: string) => !this.asked.some((a) => !a.answered && a.key === key);
    if (typeof given === 'string' && given.length <= 200 && open(given)) return given;
    let key: string;
    do key = `${method.split('/')[0]}-${++this.nextKey}`;
    while (!open(key));
    return key;
  }

  private failMissing(method: string, missing: string): void {
    const capability = method.startsWith('sampling') ? 'sampling' : 'elicitation';
    const error = {
      code: MODERN_ERROR.missingClientCapability,
      message: `Missing client capability: an upstream server asked for ${missing} while answering this request, and the request's clientCapabilities do not declare it`,
      data: { requiredCapabilities: { [capability]: {} } },
    };
    this.server.cancel(this.internalId, `the client cannot answer ${method}`);
    this.finish({ jsonrpc: '2.0', id: this.internalId, error } as unknown as JSONRPCResponse);
  }

  private notifyClient(message: JSONRPCNotification): void {
    if (!this.reply) return;
    if (message.method === 'notifications/message') {
      const wanted = this.envelope.logLevel ? LEVELS.indexOf(this.envelope.logLevel) : -1;
      const level = LEVELS.indexOf(String((message.params as { level?: unknown } | undefined)?.level));
      if (wanted < 0 || level < wanted) return;
    }
    this.reply.notify(message);
  }

  /** Answers with what is asked so far once the requests sent together have all arrived. */
  private scheduleFlush(): void {
    if (this.flushing || !this.reply) return;
    this.flushing = true;
    setImmediate(() => {
      this.flushing = false;
      const reply = this.reply;
      const open = this.asked.filter((a) => !a.answered);
      if (!reply || open.length === 0 || this.final) return;
      this.reply = undefined;
      const inputRequests = Object.fromEntries(
        open.map((a) => [a.key, { method: a.method, ...(a.params !== undefined && { params: a.params }) }]),
      );
      const requestState = this.host.signer.sign({
        held: this.heldId,
        principal: this.context.principal.id,
        session: this.context.sessionId,
        method: this.request.method,
        name: this.name,
        exp: Date.now() + HOLD_MS,
      });
      this.host.hold(this, true);
      this.expiry = setTimeout(() => this.expire(), HOLD_MS);
      this.expiry.unref?.();
      reply.respond({
        jsonrpc: '2.0',
        id: this.clientId,
        result: { resultType: 'input_required', inputRequests, requestState },
      } as JSONRPCResponse);
    });
  }

  private finish(message: JSONRPCResponse): void {
    if (!this.reply) {
      // Done while held: kept for the retry, which gets it.
      this.final = message;
      return;
    }
    const reply = this.reply;
    this.reply = undefined;
    this.final = message;
    this.close();
    reply.respond(this.host.complete(this.request.method, { ...message, id: this.clientId } as JSONRPCResponse));
  }

  private expire(): void {
    if (this.reply) return;
    for (const a of this.asked.filter((x) => !x.answered)) {
      a.answered = true;
      this.server.answer({
        jsonrpc: '2.0',
        id: a.serverRequestId,
        error: { code: -32603, message: 'the client did not come back with an answer in time' },
      });
    }
    if (!this.final) this.server.cancel(this.internalId, 'the client did not come back with its answers');
    this.close();
  }

  private close(): void {
    clearTimeout(this.expiry);
    this.host.hold(this, false);
    this.host.done(this);
  }
}

/** The params without MCP Lens's own key (an empty `_meta` goes too). */
export function withoutInputKey(params: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  const meta = params?._meta as Record<string, unknown> | undefined;
  if (!meta || !(INPUT_KEY_META in meta)) return params;
  const { [INPUT_KEY_META]: _key, ...rest } = meta;
  const { _meta: _m, ...others } = params!;
  return Object.keys(rest).length ? { ...others, _meta: rest } : others;
}
