/**
 * Runs async jobs one at a time, in order. All writes to a LanceDB table go through one of
 * these: its mergeInsert is not safe when two run at once on the same ids.
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(job: () => Promise<T>): Promise<T> {
    const result = this.tail.then(job, job);
    // The chain continues whether this job fails or not; the caller sees its own outcome.
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Resolves once every job queued so far has settled. */
  idle(): Promise<void> {
    return this.tail.then(() => undefined);
  }
}
