/**
 * The fetch the HTTP and SSE transports use: every response body counted while it streams, and
 * cut off with a BodyLimitError once it passes its budget. The SDK reads a JSON reply whole
 * (`response.json()`) and an SSE event whole before it parses either, so a server that streamed
 * an endless body would grow MCP Lens by gigabytes in seconds; the result limit
 * (app/toolCalls.ts) applies only once all of it is in memory.
 *
 * The budgets, per response:
 *   a plain body (JSON, an error text): one message, MAX_MESSAGE_BYTES — the stdio limit;
 *   an event stream: each event (the bytes up to a blank line) one message plus its framing,
 *     and at most SSE_WINDOW_BYTES in any SSE_WINDOW_MS. A legitimate stream is long-lived and
 *     made of many small events (notifications, replies) spread over hours: it never comes near
 *     either. One endless event, or garbage at network speed, passes one of them within
 *     seconds.
 * Passing a budget errors the body (the SDK's reader sees the error, the socket is cancelled)
 * and calls `onBreach`, which closes the transport: every call waiting on it fails with the
 * error's text, and the connection restarts the server as after any other broken connection.
 */
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { MAX_STDIO_MESSAGE_BYTES } from './stdioReader';

/** Largest message read from any upstream, whatever its transport. */
export const MAX_MESSAGE_BYTES = MAX_STDIO_MESSAGE_BYTES;
/** An SSE event's framing around its message: `event:`/`id:` lines, a `data:` prefix per line. */
const SSE_FRAMING_BYTES = 64 * 1024;
export const SSE_WINDOW_MS = 10_000;
/** Ten messages of the largest size in ten seconds: far above a real stream, far below what fills memory. */
export const SSE_WINDOW_BYTES = 10 * MAX_MESSAGE_BYTES;

const MB = 1024 * 1024;
const mb = (bytes: number) => `${Math.round(bytes / MB)} MB`;

/**
 * A response body cut off for its size. The message names the limit; the connection that
 * reports it prefixes the server's name, as for every other error of a server.
 */
export class BodyLimitError extends Error {
  constructor(
    readonly server: string,
    what: string,
  ) {
    super(`${what}; MCP Lens stopped reading it and closed the connection`);
    this.name = 'BodyLimitError';
  }
}

/** Statuses whose Response may not carry a body (a new Response with one throws). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * `base` (fetch by default) with every response body counted. `onBreach` is told once per
 * response that passes its budget, before its reader sees the error.
 */
export function boundedFetch(
  server: string,
  onBreach: (error: BodyLimitError) => void,
  base: FetchLike = fetch,
): FetchLike {
  return async (url, init) => {
    const response = await base(url, init);
    if (!response.body || NULL_BODY_STATUSES.has(response.status)) return response;
    const eventStream = /^\s*text\/event-stream\s*(;|$)/i.test(response.headers.get('content-type') ?? '');
    const budget = eventStream ? new EventStreamBudget() : new BodyBudget();
    const counted = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          const over = budget.add(chunk, Date.now());
          if (over === undefined) return controller.enqueue(chunk);
          const error = new BodyLimitError(server, over);
          onBreach(error);
          controller.error(error);
        },
      }),
    );
    return new Response(counted, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

interface Budget {
  /** What the body passed once `chunk` is counted, in words; undefined while within budget. */
  add(chunk: Uint8Array, now: number): string | undefined;
}

class BodyBudget implements Budget {
  private bytes = 0;

  add(chunk: Uint8Array): string | undefined {
    this.bytes += chunk.byteLength;
    return this.bytes > MAX_MESSAGE_BYTES
      ? `sent a reply of more than ${mb(MAX_MESSAGE_BYTES)}, the limit for one message`
      : undefined;
  }
}

const LF = 0x0a;
const CR = 0x0d;

/**
 * Counts an event stream's bytes per event and per window. An event ends at a blank line; a
 * line ends at CRLF, LF or CR (the SSE grammar), and a line that ends is blank when it had no
 * bytes. Only the bytes since the last event's end are in memory on the reading side.
 */
export class EventStreamBudget implements Budget {
  private eventBytes = 0;
  private lineBytes = 0;
  private lastWasCR = false;
  private windowStart = -Infinity;
  private windowBytes = 0;

  add(chunk: Uint8Array, now: number): string | undefined {
    if (now - this.windowStart >= SSE_WINDOW_MS) ((this.windowStart = now), (this.windowBytes = 0));
    this.windowBytes += chunk.byteLength;
    if (this.windowBytes > SSE_WINDOW_BYTES)
      return `streamed more than ${mb(SSE_WINDOW_BYTES)} in ${SSE_WINDOW_MS / 1000} s, the limit for an event stream`;
    // Runs between line endings are found natively (indexOf); the next CR and LF are looked up
    // again only once passed, so a chunk of many lines is still scanned once.
    let nextLF = -1;
    let nextCR = -1;
    for (let i = 0; i < chunk.length;) {
      if (this.lastWasCR && chunk[i] === LF) {
        // The LF of a CRLF: the CR already ended the line.
        this.lastWasCR = false;
        i++;
        continue;
      }
      if (nextLF < i) nextLF = indexOrInfinity(chunk, LF, i);
      if (nextCR < i) nextCR = indexOrInfinity(chunk, CR, i);
      const end = Math.min(nextLF, nextCR);
      const run = Math.min(end, chunk.length) - i;
      this.lineBytes += run;
      this.eventBytes += run;
      if (this.eventBytes > MAX_MESSAGE_BYTES + SSE_FRAMING_BYTES)
        return `sent an event of more than ${mb(MAX_MESSAGE_BYTES)}, the limit for one message`;
      if (end === Infinity) break;
      // A line ended at `end`; an empty one ends the event.
      if (this.lineBytes === 0) this.eventBytes = 0;
      this.lineBytes = 0;
      this.lastWasCR = chunk[end] === CR;
      i = end + 1;
    }
    return undefined;
  }
}

function indexOrInfinity(chunk: Uint8Array, byte: number, from: number): number {
  const at = chunk.indexOf(byte, from);
  return at < 0 ? Infinity : at;
}
