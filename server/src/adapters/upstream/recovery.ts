/**
 * Bringing a server back: a session that failed a call is pinged, and one that does not answer
 * is killed; a server whose process exited or whose connection closed is connected again after
 * a delay that grows with failures in a row (core/backoff.ts), until the policy gives up and the
 * server is left in error.
 */
import type { Logger } from '../../core/logger';
import { Backoff, type RestartPolicy } from '../../core/backoff';
import { errorMessage } from '../../core/errorMessage';
import { isNeedsSignIn } from './auth/needsSignIn';
import type { Session } from './session';

/** What recovery does to its connection. */
export interface RecoveryHost {
  name: string;
  log: Logger;
  requestTimeoutMs: number;
  /** The session now. */
  session(): Session | undefined;
  closeSession(): Promise<void>;
  /** How long the server has been up (failures after a long run count as the first). */
  uptime(): number;
  /** Bumped by every connect and stop: a restart scheduled before one of those backs out. */
  generation(): number;
  connect(): Promise<void>;
  /** State `starting`, with the reason the user sees meanwhile. */
  waiting(reason: string): void;
  /** State `error` with the reason. */
  fail(reason: string): void;
  /** The server asked for a sign-in instead of answering (auth/connectionSignIn.ts). */
  needsSignIn(): void;
}

export class Recovery {
  /** Restarts so far, manual ones included (the status shows it). */
  count = 0;
  private readonly backoff: Backoff;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly policy: RestartPolicy,
    private readonly host: RecoveryHost,
  ) {
    this.backoff = new Backoff(policy);
  }

  /** Pings a session that just failed a call; one that does not answer is killed and restarted. */
  async probe(session: Session): Promise<void> {
    const h = this.host;
    if (session !== h.session() || session.closing) return;
    try {
      await session.client.ping({ timeout: Math.min(h.requestTimeoutMs, 5000) });
    } catch {
      if (session !== h.session() || session.closing) return;
      h.log.warn(`[${h.name}] not answering; restarting`);
      // Callers arriving while the process is being killed must see why, not "not ready (ready)".
      h.waiting('not answering; restarting');
      await h.closeSession();
      this.schedule('server stopped answering');
    }
  }

  /** A restart after the backoff delay, or `error` once the attempts are used up. */
  schedule(reason: string, uptimeMs = this.host.uptime()): void {
    const delay = this.backoff.next(uptimeMs);
    if (delay === undefined)
      return this.host.fail(`${reason} (gave up after ${this.backoff.attempts} restart attempts)`);
    this.host.waiting(`${reason}; restart ${this.backoff.attempts}/${this.policy.maxAttempts} in ${delay} ms`);
    const gen = this.host.generation();
    this.timer = setTimeout(() => void this.run(gen), delay);
  }

  /** Drops a scheduled restart (a stop, or a connect on request). */
  cancel(): void {
    clearTimeout(this.timer);
  }

  /** Forgets earlier failures (a manual restart or a sign-in starts afresh). */
  reset(): void {
    this.backoff.reset();
  }

  private async run(gen: number): Promise<void> {
    const h = this.host;
    if (gen !== h.generation()) return;
    this.count++;
    try {
      await h.connect();
    } catch (error) {
      if (gen + 1 !== h.generation()) return; // stopped or restarted meanwhile
      if (isNeedsSignIn(error)) return h.needsSignIn();
      h.log.warn(`[${h.name}] restart failed: ${errorMessage(error)}`);
      this.schedule(errorMessage(error), 0);
    }
  }
}
