/**
 * Bringing a server back: a session that failed a call is pinged, and one that does not answer
 * is killed; a server whose process exited or whose connection closed is connected again after
 * a delay that grows with failures in a row (core/backoff.ts), until the policy gives up and the
 * server is left in error.
 */
import type { Logger } from '../../core/logger';
import type { Session } from './session';
import { Backoff, type RestartPolicy } from '../../core/backoff';
import { errorMessage } from '../../core/errorMessage';
import { isNeedsSignIn } from './auth/needsSignIn';
import type { ConnectionState } from './connectionState';
import type { SessionSlot } from './sessionSlot';

/** What connects the server (the connection): recovery starts it again, or gives up. */
export interface Connector {
  connect(): Promise<void>;
  /** State `error` with the reason. */
  fail(reason: string): void;
}

/** What recovery reads and acts on. */
export interface RecoveryParts {
  /** The server's name, in log lines. */
  name: string;
  log: Logger;
  requestTimeoutMs: number;
  slot: Pick<SessionSlot, 'current' | 'generation' | 'close'>;
  /** How long the server has been up, and the state shown while it waits. */
  state: Pick<ConnectionState, 'uptime' | 'show'>;
  connector: Connector;
  /** A server that asks for a sign-in instead of answering (auth/connectionSignIn.ts). */
  signIn?: { refused(): void } | undefined;
}

export class Recovery {
  /** Restarts so far, manual ones included (the status shows it). */
  count = 0;
  private readonly backoff: Backoff;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly policy: RestartPolicy,
    private readonly p: RecoveryParts,
  ) {
    this.backoff = new Backoff(policy);
  }

  /** Pings a session that just failed a call; one that does not answer is killed and restarted. */
  async probe(session: Session): Promise<void> {
    const { slot, log, name } = this.p;
    if (session !== slot.current || session.closing) return;
    try {
      await session.client.ping({ timeout: Math.min(this.p.requestTimeoutMs, 5000) });
    } catch {
      if (session !== slot.current || session.closing) return;
      log.warn(`[${name}] not answering; restarting`);
      // Callers arriving while the process is being killed must see why, not "not ready (ready)".
      this.p.state.show('starting', 'not answering; restarting');
      await slot.close();
      this.schedule('server stopped answering');
    }
  }

  /** A restart after the backoff delay, or `error` once the attempts are used up. */
  schedule(reason: string, uptimeMs = this.p.state.uptime()): void {
    const delay = this.backoff.next(uptimeMs);
    if (delay === undefined)
      return this.p.connector.fail(`${reason} (gave up after ${this.backoff.attempts} restart attempts)`);
    this.p.state.show(
      'starting',
      `${reason}; restart ${this.backoff.attempts}/${this.policy.maxAttempts} in ${delay} ms`,
    );
    const gen = this.p.slot.generation;
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
    const { slot } = this.p;
    if (gen !== slot.generation) return;
    this.count++;
    try {
      await this.p.connector.connect();
    } catch (error) {
      if (gen + 1 !== slot.generation) return; // stopped or restarted meanwhile
      if (isNeedsSignIn(error)) return this.p.signIn?.refused();
      this.p.log.warn(`[${this.p.name}] restart failed: ${errorMessage(error)}`);
      this.schedule(errorMessage(error), 0);
    }
  }
}
