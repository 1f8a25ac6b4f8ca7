/**
 * tools/call on a stdio session without the SDK Client's request machinery: the request is
 * written straight on the transport under an id of our own ("lens-N", which no SDK id can
 * equal: the SDK counts in numbers), and its response is taken from the reader before the SDK's
 * message schema sees it (stdioReader.ts `take`). What the SDK's `request` does for a call is
 * kept, each in the same words, so callErrors.ts classifies a failure as before:
 *   the result checked (and cleaned of unknown keys) with CallToolResultSchema;
 *   an error response → McpError.fromError(code, message, data), so a reply dropped for its
 *     size (the synthesized error carrying an OversizedMessageError) reads as it did;
 *   the timeout → notifications/cancelled to the server, McpError RequestTimeout;
 *   the caller's abort → notifications/cancelled with the abort reason, rejected with it;
 *   the transport closing → McpError ConnectionClosed for every call in flight.
 * Progress is the SDK's job (a progress token and its handler): calls that ask for it take the
 * SDK path, decided in upstreamCalls.ts. A call listens for its caller's abort only once it has
 * run LISTEN_AFTER_MS (one shared timer for every call started meanwhile): adding and removing
 * a listener on an AbortSignal cost more CPU than the rest of a call's bookkeeping here, and
 * most calls are answered before then; an abort that came in the meantime is acted on when the
 * listener would have been added, so it reaches the server at most LISTEN_AFTER_MS late.
 * Deadlines share one timer, left armed between calls: it is set when a call's deadline comes
 * before the one it waits for (the first call, or a shorter timeout setting), and when it fires
 * it cancels what is past its deadline and waits for the next one, so a steady stream of calls
 * sets no timer of its own.
 */
import {
  CallToolResultSchema,
  ErrorCode,
  McpError,
  type CallToolResult,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import type { ProcessGroupTransport } from './processGroupTransport';

interface Pending {
  id: string;
  resolve(result: CallToolResult): void;
  reject(error: unknown): void;
  deadline: number;
  timeoutMs: number;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
}

/** Ids of our direct calls; the SDK numbers its own, so the two never meet. */
const ID_PREFIX = 'lens-';

/** How long a call runs before it listens for its caller's abort (see the file comment). */
export const LISTEN_AFTER_MS = 5;

export class DirectCalls {
  private readonly pending = new Map<string, Pending>();
  private seq = 0;
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Infinity;
  private closed = false;
  /** Listeners to remove once this turn's writes are done (`later`). */
  private deferred: (() => void)[] = [];
  /** Calls with a signal that do not listen to it yet, and the one timer that will make them. */
  private unheard: Pending[] = [];
  private listenTimer: NodeJS.Timeout | undefined;

  /**
   * Hooks into a transport the SDK Client is already connected to: responses to our ids are
   * taken before the Client sees them, and its close fails our calls first, as the Client's own.
   */
  constructor(private readonly transport: ProcessGroupTransport) {
    transport.takeResponse = (value) => this.take(value);
    const clientClose = transport.onclose;
    transport.onclose = () => {
      this.closeAll();
      clientClose?.();
    };
  }

  call(name: string, args: Record<string, unknown>, timeoutMs: number, signal?: AbortSignal): Promise<CallToolResult> {
    return new Promise<CallToolResult>((resolve, reject) => {
      if (this.closed) return reject(new McpError(ErrorCode.ConnectionClosed, 'Connection closed'));
      if (signal?.aborted) return reject(signal.reason);
      const id = `${ID_PREFIX}${++this.seq}`;
      const entry: Pending = {
        id,
        resolve,
        reject,
        deadline: Date.now() + timeoutMs,
        timeoutMs,
        signal,
        onAbort: undefined,
      };
      this.pending.set(id, entry);
      if (signal) this.listenSoon(entry);
      this.armTimer(entry.deadline);
      const request: JSONRPCMessage = { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } };
      this.transport.send(request).catch((error: unknown) => this.settle(id)?.reject(error));
    });
  }

  /** How many calls wait for their response. */
  get size(): number {
    return this.pending.size;
  }

  /** A response to one of our calls, well formed as the SDK's schema would have it: taken and answered. */
  private take(value: unknown): boolean {
    if (typeof value !== 'object' || value === null) return false;
    const message = value as { jsonrpc?: unknown; id?: unknown; result?: unknown; error?: unknown };
    if (
      typeof message.id !== 'string' ||
      !message.id.startsWith(ID_PREFIX) ||
      message.jsonrpc !== '2.0' ||
      !this.pending.has(message.id)
    )
      return false;
    if (!isResponseShape(message)) return false;
    const entry = this.settle(message.id)!;
    if (message.error !== undefined) {
      const { code, message: text, data } = message.error as { code: number; message: string; data?: unknown };
      entry.reject(McpError.fromError(code, text, data));
      return true;
    }
    const plain = plainTextResult(message.result);
    if (plain) return (entry.resolve(plain), true);
    const parsed = CallToolResultSchema.safeParse(message.result);
    if (parsed.success) entry.resolve(parsed.data);
    else entry.reject(parsed.error);
    return true;
  }

  /** Removes a call from the waiting ones (its abort listener too); undefined when it already ended. */
  private settle(id: string): Pending | undefined {
    const entry = this.pending.get(id);
    if (!entry) return undefined;
    this.pending.delete(id);
    const { signal, onAbort } = entry;
    if (signal && onAbort) this.later(() => signal.removeEventListener('abort', onAbort));
    return entry;
  }

  /** The call listens for its caller's abort LISTEN_AFTER_MS from now, if it still runs then. */
  private listenSoon(entry: Pending): void {
    this.unheard.push(entry);
    if (this.listenTimer) return;
    this.listenTimer = setTimeout(() => {
      this.listenTimer = undefined;
      const calls = this.unheard;
      this.unheard = [];
      for (const call of calls) this.listen(call);
    }, LISTEN_AFTER_MS);
    this.listenTimer.unref();
  }

  /** Listens for the caller's abort; an abort that came before (even in the call's own turn) is acted on now. */
  private listen(entry: Pending): void {
    const { id, signal } = entry;
    if (this.pending.get(id) !== entry || !signal) return;
    if (signal.aborted) return this.cancel(id, signal.reason);
    entry.onAbort = () => this.cancel(id, signal.reason);
    signal.addEventListener('abort', entry.onAbort);
  }

  /** Runs `task` in this turn's check phase (setImmediate), with whatever else was put off in it. */
  private later(task: () => void): void {
    this.deferred.push(task);
    if (this.deferred.length > 1) return;
    setImmediate(() => {
      const tasks = this.deferred;
      this.deferred = [];
      for (const t of tasks) t();
    });
  }

  /** The SDK's `cancel`: the server is told (with the reason), the caller gets the reason. */
  private cancel(id: string, reason: unknown): void {
    const entry = this.settle(id);
    if (!entry) return;
    const cancelled: JSONRPCMessage = {
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: id, reason: String(reason) },
    };
    this.transport.send(cancelled).catch(() => undefined);
    entry.reject(reason instanceof McpError ? reason : new McpError(ErrorCode.RequestTimeout, String(reason)));
  }

  private armTimer(deadline: number): void {
    if (deadline >= this.timerAt) return;
    this.stopTimer();
    this.timerAt = deadline;
    this.timer = setTimeout(() => this.expire(), Math.max(0, deadline - Date.now()));
    this.timer.unref();
  }

  private stopTimer(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = Infinity;
  }

  /** Cancels every call past its deadline, then waits for the next deadline. */
  private expire(): void {
    this.timer = undefined;
    this.timerAt = Infinity;
    const now = Date.now();
    let next = Infinity;
    for (const [id, entry] of [...this.pending]) {
      if (entry.deadline <= now)
        this.cancel(
          id,
          McpError.fromError(ErrorCode.RequestTimeout, 'Request timed out', { timeout: entry.timeoutMs }),
        );
      else next = Math.min(next, entry.deadline);
    }
    if (next !== Infinity) this.armTimer(next);
  }

  /** The transport closed: every call in flight fails as the SDK fails its own. */
  private closeAll(): void {
    this.closed = true;
    clearTimeout(this.listenTimer);
    this.listenTimer = undefined;
    this.unheard = [];
    const error = new McpError(ErrorCode.ConnectionClosed, 'Connection closed');
    for (const id of [...this.pending.keys()]) this.settle(id)?.reject(error);
  }
}

/**
 * The commonest result, text content and perhaps isError and nothing else, for which the SDK's
 * CallToolResultSchema (a union tried member by member for each content block: the largest
 * single cost on a call's way back) would give back an equal object: it is passed on as it
 * came. undefined for anything else, which the schema then checks.
 */
export function plainTextResult(result: unknown): CallToolResult | undefined {
  const r = result as { content?: unknown; isError?: unknown };
  let keys = 1;
  if ('isError' in r) {
    if (typeof r.isError !== 'boolean') return undefined;
    keys++;
  }
  if (!Array.isArray(r.content) || Object.keys(r).length !== keys) return undefined;
  for (const block of r.content as unknown[]) {
    if (typeof block !== 'object' || block === null) return undefined;
    const b = block as { type?: unknown; text?: unknown };
    if (b.type !== 'text' || typeof b.text !== 'string' || Object.keys(b).length !== 2) return undefined;
  }
  return r as CallToolResult;
}

/** `{ jsonrpc, id, result: object }` or `{ jsonrpc, id, error: { code: integer, message: string } }`, nothing else (the SDK's schemas are strict). */
function isResponseShape(message: { result?: unknown; error?: unknown }): boolean {
  const keys = Object.keys(message);
  if (keys.length !== 3) return false;
  if ('result' in message)
    return typeof message.result === 'object' && message.result !== null && !Array.isArray(message.result);
  if (!('error' in message) || typeof message.error !== 'object' || message.error === null) return false;
  const error = message.error as { code?: unknown; message?: unknown };
  return Number.isInteger(error.code) && typeof error.message === 'string';
}
