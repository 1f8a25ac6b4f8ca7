/**
 * What every HTTP embedder does the same way: documents go in batches with bounded
 * concurrency, and a batch that fails for a reason that may pass (network, timeout, 5xx, rate
 * limit: isTransient) is tried again with exponential backoff. A query is not batched or
 * retried: it is interactive, and the caller's deadline decides.
 */
import type { Logger } from '../../core/logger';
import type { EmbedderError } from './embedder';

export interface RetryPolicy {
  /** Total tries per batch, first included. */
  attempts: number;
  initialDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 3, initialDelayMs: 250, maxDelayMs: 4000 };

/** Kinds worth retrying: the service may come back or stop being overloaded. */
export function isTransient(error: EmbedderError): boolean {
  return error.kind === 'unreachable' || error.kind === 'timeout' || error.kind === 'server';
}

export interface BatchPlan {
  batchSize: number;
  concurrency: number;
  retry: RetryPolicy;
  log: Logger;
  /** Names the service in debug lines ("ollama", "openai-compatible"). */
  service: string;
}

/** One vector per text, in order: `embedBatch` on batches of `plan.batchSize`, `plan.concurrency` at a time, each retried per `plan.retry`. */
export async function embedInBatches(
  texts: readonly string[],
  plan: BatchPlan,
  embedBatch: (input: string[], signal?: AbortSignal) => Promise<number[][]>,
  signal?: AbortSignal,
): Promise<number[][]> {
  const batches: string[][] = [];
  for (let i = 0; i < texts.length; i += plan.batchSize) batches.push(texts.slice(i, i + plan.batchSize));
  const results: number[][][] = new Array(batches.length);
  let next = 0;
  const worker = async () => {
    while (next < batches.length) {
      const index = next++;
      results[index] = await withRetry(batches[index]!, plan, embedBatch, signal);
    }
  };
  await Promise.all(Array.from({ length: Math.min(plan.concurrency, batches.length) }, worker));
  return results.flat();
}

async function withRetry(
  input: string[],
  plan: BatchPlan,
  embedBatch: (input: string[], signal?: AbortSignal) => Promise<number[][]>,
  signal?: AbortSignal,
): Promise<number[][]> {
  let delay = plan.retry.initialDelayMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return await embedBatch(input, signal);
    } catch (err) {
      const e = err as EmbedderError;
      if (!isTransient(e) || attempt >= plan.retry.attempts || signal?.aborted) throw e;
      plan.log.debug(`${plan.service} embed attempt ${attempt} failed (${e.message}); retrying in ${delay} ms`);
      await sleep(delay, signal);
      delay = Math.min(plan.retry.maxDelayMs, delay * 2);
    }
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** The vectors an answer carried, checked: one per input, all of one non-zero dimension, numbers. */
export function checkedVectors(embeddings: unknown, expected: number): number[][] | undefined {
  const ok =
    Array.isArray(embeddings) &&
    embeddings.length === expected &&
    embeddings.every(
      (v) =>
        Array.isArray(v) &&
        v.length > 0 &&
        v.length === (embeddings[0] as unknown[]).length &&
        typeof v[0] === 'number',
    );
  return ok ? (embeddings as number[][]) : undefined;
}
