/**
 * Reads what a stdio server writes: newline-delimited JSON-RPC messages of at most
 * MAX_STDIO_MESSAGE_BYTES each. The SDK's ReadBuffer enforces that limit by throwing away what
 * it buffered and raising an error, and the rest of the line arrives as if it were new data: it
 * cannot tell which request the message answered, and a 50 MB message trips it several times,
 * so every call in flight (even one sent after the message began) had to fail and the connection
 * was closed. This reader skips the rest of an oversized line instead (memory stays bounded, and
 * the stream is in step again at the next newline) while scanning it for its top-level members
 * (an SDK server writes a response's `id` last, so the start alone does not say it). Then:
 *   a response to a request still waiting → that request fails (OversizedMessageError);
 *   a response to one that already ended (timed out, cancelled) → nothing fails;
 *   a request from the server → it is answered with an error, so the server does not wait;
 *   a notification → nothing fails;
 *   unreadable (not one JSON object, no id...) → the requests sent before its first byte came.
 */
import { STDIO_DEFAULT_MAX_BUFFER_SIZE, deserializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';

/** Largest message read from a stdio server, in bytes (the SDK's own limit). */
export const MAX_STDIO_MESSAGE_BYTES = STDIO_DEFAULT_MAX_BUFFER_SIZE;

export type DroppedKind = 'response' | 'request' | 'notification' | 'unreadable';

/** One message skipped for its size, and whom it concerned. */
export interface DroppedMessage {
  /** Its length in bytes (without the newline). */
  bytes: number;
  kind: DroppedKind;
  /** Our requests that fail with it: the one it answered, or for an unreadable one those sent before it began. */
  failed: RequestId[];
  /** The id of a request from the server (kind 'request'), which must be answered. */
  serverRequestId?: RequestId;
}

const mb = (bytes: number) => (bytes / (1024 * 1024)).toFixed(1);
/** The limit in whole megabytes, as messages name it. */
export const MAX_STDIO_MESSAGE_MB = Math.round(MAX_STDIO_MESSAGE_BYTES / (1024 * 1024));

/**
 * A message dropped for its size: the `error.data` of the JSON-RPC error that fails each
 * request it concerned (so callErrors.ts can tell it from the server's own errors), and what the
 * transport reports through onerror.
 */
export class OversizedMessageError extends Error {
  /** The failed call's error text: what happened and what to do. */
  readonly reason: string;

  constructor(readonly dropped: DroppedMessage) {
    super(
      `dropped a ${mb(dropped.bytes)} MB message (over the ${MAX_STDIO_MESSAGE_MB} MB limit): ${describeDropped(dropped)}`,
    );
    this.name = 'OversizedMessageError';
    const over = `larger than MCP Lens's ${MAX_STDIO_MESSAGE_MB} MB limit for one message`;
    const what =
      dropped.kind === 'response'
        ? `the reply was ${mb(dropped.bytes)} MB, ${over}`
        : `the server sent a ${mb(dropped.bytes)} MB message, ${over}, while this call was waiting (which call it answered could not be read)`;
    this.reason = `${what}, so it was dropped; the server stays connected. Ask the tool for less: a smaller range, a filter, a page`;
  }
}

function describeDropped(d: DroppedMessage): string {
  switch (d.kind) {
    case 'response':
      return d.failed.length > 0 ? 'the reply to a call, which failed' : 'the reply to a call that had already ended';
    case 'request':
      return 'a request from the server, answered with an error';
    case 'notification':
      return 'a notification, ignored';
    case 'unreadable':
      return `no JSON-RPC message could be made of it; ${d.failed.length} request(s) sent before it began failed`;
  }
}

export interface StdioReaderEvents {
  message(message: JSONRPCMessage): void;
  /** A line that is not a JSON-RPC message (noise: reading goes on). */
  error(error: Error): void;
  oversized(dropped: DroppedMessage): void;
}

export class StdioReader {
  /** The current line so far, when it is within the limit. */
  private parts: Buffer[] = [];
  private buffered = 0;
  /** Set while skipping an oversized line. */
  private skipping: { scan: TopLevelScan; bytes: number } | undefined;
  /** Our requests without an answer yet, by id, with the order they were sent in. */
  private readonly pending = new Map<string, { id: RequestId; seq: number }>();
  private seq = 0;
  /** `seq` when the first byte of the current line arrived. */
  private lineSeq = 0;

  constructor(
    private readonly events: StdioReaderEvents,
    private readonly limit = MAX_STDIO_MESSAGE_BYTES,
  ) {}

  /** Tells the reader what was written to the server: requests wait for an answer until one comes or they are cancelled. */
  sent(message: JSONRPCMessage): void {
    if ('method' in message) {
      if ('id' in message) this.pending.set(String(message.id), { id: message.id, seq: ++this.seq });
      else if (message.method === 'notifications/cancelled') {
        const id = (message.params as { requestId?: RequestId } | undefined)?.requestId;
        if (id !== undefined) this.pending.delete(String(id));
      }
    }
  }

  push(chunk: Buffer): void {
    const chunkSeq = this.seq;
    if (this.buffered === 0 && !this.skipping) this.lineSeq = chunkSeq;
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      const end = newline === -1 ? chunk.length : newline;
      if (this.skipping) {
        this.skipping.scan.feed(chunk, start, end);
        this.skipping.bytes += end - start;
      } else if (this.buffered + (end - start) > this.limit) {
        const scan = new TopLevelScan();
        for (const part of this.parts) scan.feed(part, 0, part.length);
        scan.feed(chunk, start, end);
        this.skipping = { scan, bytes: this.buffered + (end - start) };
        this.parts = [];
        this.buffered = 0;
      } else if (end > start) {
        this.parts.push(chunk.subarray(start, end));
        this.buffered += end - start;
      }
      if (newline === -1) return;
      this.endLine();
      start = newline + 1;
      this.lineSeq = chunkSeq; // the next line began with this chunk
    }
  }

  /** Forgets the line in progress (the transport is closing). */
  clear(): void {
    this.parts = [];
    this.buffered = 0;
    this.skipping = undefined;
    this.pending.clear();
  }

  private endLine(): void {
    if (this.skipping) {
      const { scan, bytes } = this.skipping;
      this.skipping = undefined;
      this.events.oversized(this.dropped(scan.result(), bytes));
      return;
    }
    const bytes = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.buffered);
    this.parts = [];
    this.buffered = 0;
    let line = bytes.toString('utf8');
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (line.trim() === '') return;
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch (error) {
      this.events.error(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    if ('id' in message && !('method' in message) && message.id !== undefined) this.pending.delete(String(message.id));
    this.events.message(message);
  }

  private dropped(found: ScanResult | undefined, bytes: number): DroppedMessage {
    if (found?.method) {
      return found.id === undefined
        ? { bytes, kind: 'notification', failed: [] }
        : { bytes, kind: 'request', failed: [], serverRequestId: found.id };
    }
    if (found?.id !== undefined && found.answer) {
      const waiting = this.pending.get(String(found.id));
      this.pending.delete(String(found.id));
      return { bytes, kind: 'response', failed: waiting ? [waiting.id] : [] };
    }
    // Which request it answered is unknown: only one sent before it began can be the one.
    const failed: RequestId[] = [];
    for (const [key, request] of this.pending) {
      if (request.seq > this.lineSeq) continue;
      failed.push(request.id);
      this.pending.delete(key);
    }
    return { bytes, kind: 'unreadable', failed };
  }
}

/** What a JSON object has at its top level: an `id`, a `method`, a `result` or `error`. */
interface ScanResult {
  id?: RequestId;
  method: boolean;
  answer: boolean;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/** Longest key or id kept while scanning; anything longer is not one we look for. */
const MAX_TOKEN = 256;

/**
 * Scans a JSON text fed in pieces without keeping it: tracks strings and nesting, and keeps
 * only the top-level keys and the value of a top-level `id`. undefined from result() when the
 * text is not one complete JSON object (or its id cannot be read).
 */
export class TopLevelScan {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** What the next top-level token is. */
  private expect: 'start' | 'key' | 'colon' | 'value' | 'comma' | 'end' = 'start';
  /** The top-level token being read (latin1, decoded at its end); undefined when not kept or too long. */
  private token: string | undefined;
  private tooLong = false;
  private key: string | undefined;
  private valueIsString = false;
  private broken = false;
  private readonly found: ScanResult = { method: false, answer: false };
  private idUnreadable = false;

  feed(buf: Buffer, from: number, to: number): void {
    if (this.broken) return;
    let i = from;
    let nextQuote = -2;
    let nextSlash = -2;
    while (i < to) {
      if (this.inString) {
        if (this.escaped) {
          this.escaped = false;
          this.keep(buf, i, i + 1);
          i++;
          continue;
        }
        // Jump to the next quote or backslash: a multi-megabyte string costs two indexOf calls.
        if (nextQuote !== -1 && nextQuote < i) nextQuote = indexWithin(buf, QUOTE, i, to);
        if (nextSlash !== -1 && nextSlash < i) nextSlash = indexWithin(buf, BACKSLASH, i, to);
        const stop = nextQuote === -1 ? nextSlash : nextSlash === -1 ? nextQuote : Math.min(nextQuote, nextSlash);
        if (stop === -1) {
          this.keep(buf, i, to);
          return;
        }
        this.keep(buf, i, stop);
        if (buf[stop] === BACKSLASH) {
          this.escaped = true;
          this.keep(buf, stop, stop + 1);
        } else {
          this.inString = false;
          if (this.depth === 1) this.endTopLevelString();
        }
        i = stop + 1;
        continue;
      }
      this.structural(buf[i]!, buf, i);
      if (this.broken) return;
      i++;
    }
  }

  result(): ScanResult | undefined {
    if (this.broken || this.expect !== 'end' || this.idUnreadable) return undefined;
    return this.found;
  }

  private structural(b: number, buf: Buffer, i: number): void {
    if (b === 0x20 || b === 0x09 || b === 0x0d || b === 0x0a) {
      if (this.depth === 1 && this.expect === 'value' && this.token !== undefined) this.endScalar();
      return;
    }
    if (this.expect === 'end') return void (this.broken = true); // something after the object
    if (this.depth === 0) {
      if (b !== 0x7b || this.expect !== 'start') return void (this.broken = true); // not an object
      this.depth = 1;
      this.expect = 'key';
      return;
    }
    if (this.depth > 1) {
      if (b === QUOTE) this.inString = true;
      else if (b === 0x7b || b === 0x5b) this.depth++;
      else if (b === 0x7d || b === 0x5d) {
        this.depth--;
        if (this.depth === 1) this.expect = 'comma';
      }
      return;
    }
    // Top level: key, colon, value, comma, in turn.
    switch (this.expect) {
      case 'key':
        if (b === QUOTE) return this.beginString(true);
        if (b === 0x7d) return this.close();
        return void (this.broken = true);
      case 'colon':
        if (b !== 0x3a) return void (this.broken = true);
        this.expect = 'value';
        if (this.key === 'method') this.found.method = true;
        else if (this.key === 'result' || this.key === 'error') this.found.answer = true;
        return;
      case 'value':
        if (this.token !== undefined && !this.valueIsString) {
          // Inside a number or literal: it ends at a comma or the closing brace.
          if (b === 0x2c || b === 0x7d) {
            this.endScalar();
            return this.structural(b, buf, i);
          }
          return this.keep(buf, i, i + 1);
        }
        if (b === QUOTE) return this.beginString(false);
        if (b === 0x7b || b === 0x5b) {
          this.depth++;
          if (this.key === 'id') this.idUnreadable = true;
          return;
        }
        this.token = '';
        this.tooLong = false;
        this.valueIsString = false;
        return this.keep(buf, i, i + 1);
      case 'comma':
        if (b === 0x2c) this.expect = 'key';
        else if (b === 0x7d) this.close();
        else this.broken = true;
        return;
      default:
        this.broken = true;
    }
  }

  private close(): void {
    this.depth = 0;
    this.expect = 'end';
  }

  private beginString(isKey: boolean): void {
    this.inString = true;
    this.valueIsString = !isKey;
    this.token = '';
    this.tooLong = false;
  }

  private keep(buf: Buffer, from: number, to: number): void {
    if (this.depth !== 1 || this.token === undefined || this.tooLong) return;
    if (this.token.length + (to - from) > MAX_TOKEN) {
      this.tooLong = true;
      return;
    }
    this.token += buf.toString('latin1', from, to);
  }

  private endTopLevelString(): void {
    const text = this.tooLong ? undefined : decodeJsonString(this.token ?? '');
    this.token = undefined;
    if (this.expect === 'key') {
      this.key = text;
      this.expect = 'colon';
      return;
    }
    // A string value.
    if (this.key === 'id') {
      if (text === undefined) this.idUnreadable = true;
      else this.found.id = text;
    }
    this.expect = 'comma';
  }

  private endScalar(): void {
    const text = this.tooLong ? undefined : this.token;
    this.token = undefined;
    this.expect = 'comma';
    if (this.key !== 'id') return;
    const n = text === undefined || !/^-?\d+$/.test(text) ? NaN : Number(text);
    if (Number.isSafeInteger(n)) this.found.id = n;
    else this.idUnreadable = true; // null, a fraction, a literal: not an id of ours
  }
}

/** Index of `byte` in buf[from, to), or -1. */
function indexWithin(buf: Buffer, byte: number, from: number, to: number): number {
  const at = buf.indexOf(byte, from);
  return at === -1 || at >= to ? -1 : at;
}

/** A JSON string's content (as latin1 bytes) decoded, escapes and UTF-8 included; undefined if malformed. */
function decodeJsonString(latin1: string): string | undefined {
  try {
    const value: unknown = JSON.parse(`"${Buffer.from(latin1, 'latin1').toString('utf8')}"`);
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}
