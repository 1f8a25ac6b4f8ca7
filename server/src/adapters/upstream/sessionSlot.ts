/**
 * The session a connection holds: the one it talks to, the one still in initialize (a stop must
 * be able to kill that one too), and the generation that every connect and stop bumps, so an
 * attempt or a restart scheduled before sees it changed and backs out.
 */
import { closeSessionProcess, type Session } from './session';

export class SessionSlot {
  /** The session requests go to (listing, then ready); undefined while none is open. */
  current: Session | undefined;
  /** A session still in initialize. */
  private opening: Session | undefined;
  private gen = 0;

  get generation(): number {
    return this.gen;
  }

  /** A new attempt (a connect or a stop): whatever started before under the old generation backs out. */
  bump(): number {
    return ++this.gen;
  }

  /** A session was created and may hang in initialize: it is closed with the slot from now on. */
  opened(session: Session): void {
    this.opening = session;
  }

  /** Its initialize succeeded or failed. */
  settled(session: Session): void {
    if (this.opening === session) this.opening = undefined;
  }

  /** `{ pid }` of the process being talked to or started, when it has one (an HTTP session has none). */
  pid(): { pid?: number } {
    const pid = (this.current ?? this.opening)?.pid;
    return pid === undefined ? {} : { pid };
  }

  /** Closes the session and the one opening, and makes sure their processes are gone. */
  async close(): Promise<void> {
    const sessions = [this.current, this.opening].filter((s): s is Session => s !== undefined);
    this.current = undefined;
    this.opening = undefined;
    await Promise.all(sessions.map((s) => closeSessionProcess(s)));
  }
}
