/** A minimal typed event emitter whose listeners cannot break the emitter. */
export class ChangeEmitter<T> {
  private readonly listeners = new Set<(value: T) => void>();

  /** `onListenerError` hears a listener's throw (to log it); without it the throw is dropped. */
  constructor(private readonly onListenerError?: (err: unknown) => void) {}

  on(listener: (value: T) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  fire(value: T): void {
    for (const l of [...this.listeners]) {
      try {
        l(value);
      } catch (err) {
        // A failing listener (a closed connection, a disposed view) must not stop the others.
        this.onListenerError?.(err);
      }
    }
  }

  /** Forgets every listener (the owner is closing). */
  clear(): void {
    this.listeners.clear();
  }
}
