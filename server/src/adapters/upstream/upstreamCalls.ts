/**
 * The tool calls one connection runs on its session: each keeps the server from being stopped
 * as idle while it lasts (idleStop.ts) and names its downstream caller, so what the server asks
 * back while it runs reaches that caller (inFlightCalls.ts). A session whose server-to-client
 * stream is lost for good (standaloneStream.ts) is renewed here, once no call is in flight on it.
 */
import { CallToolResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../../core/logger';
import type { CallFailures } from './callFailures';
import type { ConnectionState } from './connectionState';
import type { IdleStop } from './idleStop';
import { InFlightCalls } from './inFlightCalls';
import type { Session } from './session';
import type { SessionSlot } from './sessionSlot';
import type { CallToolOptions } from './types';
import { callerMeta, clientFor } from './dualEra';

/** What the calls use of their connection. */
export interface CallParts {
  /** The server's name, in log lines. */
  name: string;
  log: Logger;
  /** The session while ready (the not-ready error otherwise). */
  state: Pick<ConnectionState, 'readySession'>;
  /** The session now, ready or not. */
  slot: Pick<SessionSlot, 'current'>;
  /** A failed call as its caller gets it (callFailures.ts). */
  failures: Pick<CallFailures, 'call'>;
  /** Keeps the server from being stopped as idle while a call runs. */
  idle: IdleStop;
  /** Replaces the current session with a new one. */
  renewer: { restart(): Promise<void> };
}

export class UpstreamCalls {
  /** Our calls in flight, for attributing what the server asks back. */
  readonly inFlight: InFlightCalls;
  /** A session to replace once no call is in flight on it. */
  private renewing: Session | undefined;
  private readonly idle: IdleStop;

  /** `overHttp`: the transport carries a call's follow-ups in its async context (inFlightCalls.ts). */
  constructor(
    private readonly host: CallParts,
    overHttp: boolean,
  ) {
    this.idle = host.idle;
    this.inFlight = new InFlightCalls(overHttp);
  }

  async call(name: string, args: Record<string, unknown>, opts: CallToolOptions): Promise<CallToolResult> {
    const session = this.host.state.readySession(name);
    try {
      return await this.idle.during(async () => {
        try {
          // A server spoken to in 2026-07-28 (only, or for this caller: dualEra.ts) hears who the call is for.
          const client = clientFor(session, 'tools', name, opts.caller);
          const meta = client !== session.client || session.era === 'modern' ? callerMeta(opts.caller) : undefined;
          const params = { name, arguments: args, ...(meta && { _meta: meta }) };
          return await this.inFlight.track(opts.caller, () =>
            client.request({ method: 'tools/call', params }, CallToolResultSchema, {
              timeout: opts.timeoutMs,
              ...(opts.signal && { signal: opts.signal }),
              ...(opts.onProgress && { onprogress: opts.onProgress, resetTimeoutOnProgress: true }),
            }),
          );
        } catch (error) {
          throw this.host.failures.call(session, error, opts, name);
        }
      });
    } finally {
      if (this.renewing && !this.idle.busy) this.renewWhenIdle(this.renewing);
    }
  }

  /**
   * A new session in place of one whose server-to-client stream the server refuses for good:
   * without it, sampling, elicitation, logs and list changes sent outside a call are lost.
   * Waits for the calls in flight on it, which would otherwise fail.
   */
  renewWhenIdle(session: Session): void {
    if (session !== this.host.slot.current || session.closing) return void (this.renewing = undefined);
    if (this.idle.busy) return void (this.renewing = session);
    this.renewing = undefined;
    this.host.log.warn(
      `[${this.host.name}] the server no longer opens its server-to-client stream to this session; starting a new one`,
    );
    void this.host.renewer.restart();
  }
}
