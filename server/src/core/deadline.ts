/**
 * A signal that aborts after `ms`, or as soon as any of `signals` does, with the reason
 * `AbortSignal.timeout` gives (a `TimeoutError` DOMException, which the embedders' error
 * classifiers read as "too slow", not "cancelled").
 *
 * Not `AbortSignal.any([AbortSignal.timeout(ms), …])`: in Node 20 the composite holds its
 * sources weakly and the timeout's timer holds its own signal only through a WeakRef, so after
 * a garbage collection nothing keeps the timeout signal alive and it never fires
 * (nodejs/node#57736; 0 of 200 fired here after one `gc()`). A hanging Ollama then hung the
 * search it was meant to bound. Here the timer holds the controller itself.
 */
export interface Deadline {
  readonly signal: AbortSignal;
  /** Stops the timer and lets go of the source signals (call it once the work is over). */
  clear(): void;
}

export function deadline(ms: number, ...signals: (AbortSignal | undefined)[]): Deadline {
  const controller = new AbortController();
  const sources = signals.filter((s): s is AbortSignal => s !== undefined);
  const onAbort = (event: Event): void => finish((event.target as AbortSignal).reason);
  const clear = (): void => {
    clearTimeout(timer);
    for (const s of sources) s.removeEventListener('abort', onAbort);
  };
  const finish = (reason: unknown): void => {
    clear();
    if (!controller.signal.aborted) controller.abort(reason);
  };
  // Unref'd as AbortSignal.timeout's is: the work it bounds keeps the process alive, not the deadline.
  const timer = setTimeout(
    () => finish(new DOMException('The operation was aborted due to timeout', 'TimeoutError')),
    ms,
  );
  timer.unref();
  for (const s of sources) {
    if (s.aborted) {
      finish(s.reason);
      break;
    }
    s.addEventListener('abort', onAbort, { once: true });
  }
  return { signal: controller.signal, clear };
}
