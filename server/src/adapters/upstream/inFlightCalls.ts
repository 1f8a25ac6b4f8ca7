/**
 * What a connection knows about which downstream call caused what an upstream sends us unasked
 * (a sampling or elicitation request, a log message), worked out per message:
 *
 * - `exact`: the transport says so. Over streamable HTTP an upstream sends what belongs to a
 *   request (the SDK's `extra.sendRequest`/`sendNotification`) on the SSE stream of the POST
 *   that carried it; the SDK reads that stream in the async context of the call that sent the
 *   POST, so an AsyncLocalStorage set around each call names it, however many calls from however
 *   many sessions are in flight.
 * - `calls`: otherwise (stdio, or an HTTP server that uses its standalone GET stream) only the
 *   calls in flight on this connection are known, by their callers; the app decides, and refuses
 *   what they cannot settle (app/serverRequestTarget.ts).
 *
 * Everything a connection does on its own (spawn, connect, restart, the standalone GET stream)
 * runs `outsideCalls`, or a process started by a lazy call would carry that call's context for
 * its whole life.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Attribution, UpstreamCaller } from './types';

interface CallEntry {
  owner: InFlightCalls;
  /** Undefined: a call no session made (the dashboard's, the terminal's). */
  caller: UpstreamCaller | undefined;
}

const scope = new AsyncLocalStorage<CallEntry>();

/** Runs `fn` (and everything it starts) outside any call's context. */
export function outsideCalls<T>(fn: () => T): T {
  return scope.exit(fn);
}

export class InFlightCalls {
  /** In order of start. */
  private readonly entries: CallEntry[] = [];

  /**
   * `byContext`: the transport reads what belongs to a call in that call's async context (HTTP).
   * Over stdio every message arrives in the context of the stream's start, so setting one per
   * call would tell nothing, and on Node 20 the first `run` turns on promise hooks that every
   * promise in the process pays for on each call.
   */
  constructor(private readonly byContext: boolean) {}

  /**
   * Runs one call; what its transport stream carries is attributed to `caller` while it runs. A
   * call without a caller is counted all the same: what arrives while it runs may be its own.
   */
  async track<T>(caller: UpstreamCaller | undefined, call: () => Promise<T>): Promise<T> {
    const entry: CallEntry = { owner: this, caller };
    this.entries.push(entry);
    try {
      if (!caller) return await outsideCalls(call);
      return await (this.byContext ? scope.run(entry, call) : call());
    } finally {
      this.entries.splice(this.entries.indexOf(entry), 1);
    }
  }

  /** What is known of the call behind a message arriving now (see the file comment). */
  attribute(): Attribution {
    const current = scope.getStore();
    const exact = current?.owner === this && this.entries.includes(current) ? current.caller : undefined;
    const calls = this.entries.map((e) => e.caller);
    return exact ? { exact, calls } : { calls };
  }

  get size(): number {
    return this.entries.length;
  }
}
