/**
 * The tool calls a connection has in flight, so a transport failure that cannot be pinned on
 * one request can still end them at once with a clear reason instead of leaving each to time
 * out. The case in point: a stdio server writes a message larger than the SDK's read buffer
 * (10 MB); the SDK drops it, resynchronizes at the next line and reports a transport error,
 * but never learns which request the message answered.
 */
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/sdk/shared/stdio.js';

/** Largest message read from a stdio server, in bytes (the SDK's limit). */
export const MAX_STDIO_MESSAGE_BYTES = STDIO_DEFAULT_MAX_BUFFER_SIZE;

/** Why in-flight calls were ended: becomes the call's error text. */
export class OversizedMessageError extends Error {}

/** The SDK's error for a message over its buffer limit. */
export function isOversizedMessageError(error: unknown): boolean {
  return error instanceof Error && /ReadBuffer exceeded maximum size/.test(error.message);
}

export class InFlightCalls {
  private readonly calls = new Set<AbortController>();

  /** A signal that aborts with the caller's or when `failAll` runs; call `done` when the call ends. */
  track(caller: AbortSignal | undefined): { signal: AbortSignal; done(): void } {
    const own = new AbortController();
    this.calls.add(own);
    // A listener removed in done() rather than AbortSignal.any, whose composite signals Node 20
    // keeps alive as long as their sources: every call would leak into a long-lived caller signal.
    const forward = () => own.abort(caller?.reason);
    if (caller?.aborted) forward();
    else caller?.addEventListener('abort', forward, { once: true });
    return {
      signal: own.signal,
      done: () => {
        caller?.removeEventListener('abort', forward);
        this.calls.delete(own);
      },
    };
  }

  failAll(reason: Error): number {
    const n = this.calls.size;
    for (const c of this.calls) c.abort(reason);
    this.calls.clear();
    return n;
  }
}

/** The reason a tracked call was ended by `failAll`, if that is what ended it. */
export function failureOf(signal: AbortSignal): OversizedMessageError | undefined {
  return signal.aborted && signal.reason instanceof OversizedMessageError ? signal.reason : undefined;
}
