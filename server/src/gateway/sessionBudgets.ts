/**
 * What each session holds in the gateway right now, against SESSION_LIMITS
 * (core/sessionLimits.ts): its tools/call requests in flight, and the bytes of upstream results
 * waiting for their `select`. Past a limit the answer is an error at once, naming the limit,
 * so one session's flood neither waits in line ahead of others nor grows the gateway.
 */
import type { Release } from '../core/fairQueue';
import { SESSION_LIMITS } from '../core/sessionLimits';

interface Held {
  calls: number;
  bytes: number;
}

const mb = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

export class SessionBudgets {
  private readonly sessions = new Map<string, Held>();

  constructor(private readonly limits: { callsInFlight: number; resultBytesInFlight: number } = SESSION_LIMITS) {}

  /** One more call in flight for the session; a refusal text when it has as many as it may. */
  enterCall(sessionId: string): Release | { refused: string } {
    const held = this.held(sessionId);
    if (held.calls >= this.limits.callsInFlight) {
      return {
        refused: `MCP Lens did not run this call: this session already has ${this.limits.callsInFlight} tool calls in flight, the limit for one session. Wait for some of them to finish, then call again.`,
      };
    }
    held.calls++;
    return this.releaser(sessionId, held, () => held.calls--);
  }

  /**
   * Holds `bytes` of a result of `tool` while it waits for its select; a refusal text when the
   * session's results waiting would pass the limit (the result is then dropped, not held).
   */
  holdResult(sessionId: string, tool: string, bytes: number): Release | { refused: string } {
    const held = this.held(sessionId);
    if (held.bytes + bytes > this.limits.resultBytesInFlight) {
      const already = held.bytes
        ? `this session's results already waiting for select hold ${mb(held.bytes)}, and `
        : '';
      return {
        refused: `select was not applied and the result of ${tool} (${mb(bytes)}) was dropped: ${already}a session may hold at most ${mb(this.limits.resultBytesInFlight)} of results waiting for select. Make fewer calls with select at once, or ask the tool for less`,
      };
    }
    held.bytes += bytes;
    return this.releaser(sessionId, held, () => (held.bytes -= bytes));
  }

  /** What the session holds (the dashboard and tests read it). */
  holding(sessionId: string): Held {
    const held = this.sessions.get(sessionId);
    return { calls: held?.calls ?? 0, bytes: held?.bytes ?? 0 };
  }

  private held(sessionId: string): Held {
    let held = this.sessions.get(sessionId);
    if (!held) this.sessions.set(sessionId, (held = { calls: 0, bytes: 0 }));
    return held;
  }

  private releaser(sessionId: string, held: Held, undo: () => void): Release {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      undo();
      if (held.calls === 0 && held.bytes === 0 && this.sessions.get(sessionId) === held)
        this.sessions.delete(sessionId);
    };
  }
}
