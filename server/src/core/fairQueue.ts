/**
 * Turns at a shared, bounded resource (select evaluators, script workers, upstream calls),
 * handed out fairly between sessions: at most `slots` holders at once, at most `perKey` of
 * them for one key (a session), and when a slot frees the next turn goes to the waiting key
 * served longest ago (round robin; a key never served comes first), not to whoever asked
 * first. So a session that queued a hundred requests makes another session's first one wait
 * for at most one turn, and with `perKey` below `slots`, for none.
 */

/** Gives the turn back; calling it more than once is harmless. */
export type Release = () => void;

export interface FairQueueLimits {
  /** Holders at once, all keys together. */
  slots: number;
  /** Holders at once for one key. */
  perKey: number;
}

interface Waiter {
  grant: (release: Release | undefined) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

interface KeyState {
  running: number;
  waiting: Waiter[];
  /** When this key was last given a turn (the queue's own clock; 0: never). */
  served: number;
}

export class FairQueue {
  private running = 0;
  private clock = 0;
  private readonly keys = new Map<string, KeyState>();

  constructor(private readonly limits: FairQueueLimits) {}

  /**
   * Waits for `key`'s turn; resolves to the function that gives it back, or to undefined when
   * `signal` aborted first (nothing is held then).
   */
  acquire(key: string, signal?: AbortSignal): Promise<Release | undefined> {
    if (signal?.aborted) return Promise.resolve(undefined);
    const state = this.state(key);
    if (state.waiting.length === 0 && this.free(state)) return Promise.resolve(this.take(key, state));
    return new Promise((resolve) => {
      const waiter: Waiter = {
        grant: resolve,
        signal,
        onAbort: () => {
          const i = state.waiting.indexOf(waiter);
          if (i < 0) return;
          state.waiting.splice(i, 1);
          this.forgetIfIdle(key, state);
          resolve(undefined);
        },
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      state.waiting.push(waiter);
    });
  }

  private state(key: string): KeyState {
    let state = this.keys.get(key);
    if (!state) this.keys.set(key, (state = { running: 0, waiting: [], served: 0 }));
    return state;
  }

  private free(state: KeyState): boolean {
    return this.running < this.limits.slots && state.running < this.limits.perKey;
  }

  private take(key: string, state: KeyState): Release {
    this.running++;
    state.running++;
    state.served = ++this.clock;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running--;
      state.running--;
      this.forgetIfIdle(key, state);
      this.next();
    };
  }

  /** Hands free slots out: each to the waiting key, under its share, served longest ago. */
  private next(): void {
    while (this.running < this.limits.slots) {
      let pick: KeyState | undefined;
      let pickKey = '';
      for (const [key, state] of this.keys) {
        if (state.waiting.length === 0 || state.running >= this.limits.perKey) continue;
        if (!pick || state.served < pick.served) ((pick = state), (pickKey = key));
      }
      if (!pick) return;
      const waiter = pick.waiting.shift()!;
      waiter.signal?.removeEventListener('abort', waiter.onAbort);
      waiter.grant(this.take(pickKey, pick));
    }
  }

  private forgetIfIdle(key: string, state: KeyState): void {
    if (state.running === 0 && state.waiting.length === 0) this.keys.delete(key);
  }
}
