/**
 * A failed call or request as its caller gets it: classified and named (callErrors.ts), with the
 * last stderr line of a server that died and the reason a transport closed itself (a body over
 * its limit); a timeout or a broken pipe has the session probed, since the server may have hung
 * or died; a remote server that refuses its tokens asks for a sign-in instead.
 */
import type { Logger } from '../../core/logger';
import { errorMessage } from '../../core/errorMessage';
import { classifyCallError } from './callErrors';
import { BodyLimitError } from './boundedFetch';
import { isNeedsSignIn } from './auth/needsSignIn';
import type { Session } from './session';
import { OversizedMessageError } from './stdioReader';
import { UpstreamCallError } from './types';

/** What a failure touches besides its caller. */
export interface FailureParts {
  /** The server's name, in errors and log lines. */
  name: string;
  log: Logger;
  stderr: { lastLine(): string | undefined };
  /** Checks whether a session that failed a call still answers (recovery.ts). */
  recovery: { probe(session: Session): Promise<void> };
  slot: { readonly current: Session | undefined };
  /** A remote server's sign-in (auth/connectionSignIn.ts); absent where MCP Lens does not sign in. */
  signIn?: { refusedCall(current: boolean, tool: string): UpstreamCallError } | undefined;
}

export class CallFailures {
  /** Why the transport closed itself (a body over its limit), for the calls it fails and the restart. */
  breach: string | undefined;

  constructor(private readonly p: FailureParts) {}

  /** A tool call that failed. */
  call(session: Session, error: unknown, opts: { timeoutMs: number; signal?: AbortSignal }, tool: string) {
    if (this.p.signIn && isNeedsSignIn(error)) return this.p.signIn.refusedCall(session === this.p.slot.current, tool);
    return this.classify(session, error, { timeoutMs: opts.timeoutMs, signal: opts.signal, tool });
  }

  /** Any other request that failed (`what`: "prompt x", "resource y"…). */
  request(session: Session, error: unknown, timeoutMs: number, what: string): UpstreamCallError {
    return this.classify(session, error, { timeoutMs, what });
  }

  /**
   * Garbage on stdout is noise; a message over the size limit is worth a warning (the transport
   * already failed the call it answered, with the reason, and the connection stays up).
   */
  transportError(error: Error): void {
    if (error instanceof OversizedMessageError) return this.p.log.warn(`[${this.p.name}] ${error.message}`);
    if (error instanceof BodyLimitError) return void (this.breach = error.message);
    this.p.log.debug(`[${this.p.name}] transport: ${errorMessage(error)}`);
  }

  private classify(
    session: Session,
    error: unknown,
    o: { timeoutMs: number; signal?: AbortSignal | undefined; tool?: string; what?: string },
  ): UpstreamCallError {
    let failure = classifyCallError(error, this.p.name, { ...o, stderrLine: this.p.stderr.lastLine() });
    if (failure.kind === 'disconnected' && this.breach)
      failure = new UpstreamCallError('disconnected', this.p.name, this.breach, o.tool);
    // A timeout or a broken pipe may mean the server hung or died: check before the next caller finds out.
    if (failure.kind === 'timeout' || failure.kind === 'disconnected') void this.p.recovery.probe(session);
    return failure;
  }
}
