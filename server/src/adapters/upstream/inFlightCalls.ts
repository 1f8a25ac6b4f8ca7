/**
 * What a connection knows about which downstream call caused what an upstream sends us unasked
 * (a sampling or elicitation request, a log message). One upstream connection serves every
 * downstream session, so this is worked out per message:
 *
 * - `exact`: the transport says so. Over streamable HTTP an upstream sends what belongs to a
 *   request (the SDK's `extra.sendRequest`/`sendNotification`) on the SSE stream of the POST
 *   that carried it; the SDK reads that stream in the async context of the call that sent the
 *   POST, so an AsyncLocalStorage set around each call names it, however many calls from however
 *   many sessions are in flight.
 * - `inFlight`: otherwise (stdio, or an HTTP server that uses its standalone GET stream) only
 *   the callers with calls in flight on this upstream are known, latest last; the app decides
 *   (app/upstreamRequests.ts).
 *
 * Everything a connection does on its own (spawn, connect, restart, the standalone GET stream)
 * runs `outsideCalls`, or a process started by a lazy call would carry that call's context for
 * its whole life.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Attribution, UpstreamCaller } from './types';

interface CallEntry {
  owner: InFlightCalls;
  caller: UpstreamCaller;
}

const scope = new AsyncLocalStorage<CallEntry>();

/** Runs `fn` (and everything it starts) outside any call's context. */
export function outsideCalls<T>(fn: () => T): T {
  return scope.exit(fn);
}

export class InFlightCalls {
  /** In order of start: the last one of a session is its latest call. */
  private readonly entries: CallEntry[] = [];

  /**
   * `byContext`: the transport reads what belongs to a call in that call's async context (HTTP).
   * Over stdio every message arrives in the context of the stream's start, so setting one per
   * call would tell nothing, and on Node 20 the first `run` turns on promise hooks that every
   * promise in the process pays for on each call.
   */
  constructor(private readonly byContext: boolean) {}

  /** Runs one call; what its transport stream carries is attributed to `caller` while it runs. */
  async track<T>(caller: UpstreamCaller | undefined, call: () => Promise<T>): Promise<T> {
    if (!caller) return outsideCalls(call);
    const entry: CallEntry = { owner: this, caller };
    this.entries.push(entry);
    try {
      return await (this.byContext ? scope.run(entry, call) : call());
    } finally {
      this.entries.splice(this.entries.indexOf(entry), 1);
    }
  }

  /** What is known of the call behind a message arriving now (see the file comment). */
  attribute(): Attribution {
    const current = scope.getStore();
    const exact = current?.owner === this && this.entries.includes(current) ? current.caller : undefined;
    // One caller per session, at the place of its latest call.
    const bySession = new Map<string, UpstreamCaller>();
    for (const e of this.entries) {
      bySession.delete(e.caller.sessionId);
      bySession.set(e.caller.sessionId, e.caller);
    }
    const inFlight = [...bySession.values()];
    return exact ? { exact, inFlight } : { inFlight };
  }

  get size(): number {
    return this.entries.length;
  }
}
