/**
 * Embedder over a local Ollama (`/api/embed`) through the official `ollama` client. Texts go
 * in batches with bounded concurrency; network errors, timeouts and 5xx are retried with
 * exponential backoff, a missing model is not (it needs `ollama pull`). The client library
 * (and its fetch polyfill) is loaded only once Ollama has answered a plain probe: a sidecar
 * without Ollama never loads it.
 */
import type { Logger } from '../../core/logger';
import { silentLogger } from '../../core/logger';
import { EmbedderError, type Embedder, type EmbedderHealth, type PullProgress } from './embedder';
import { prefixesFor, sameModel, type ModelPrefixes } from './modelPrefixes';
import { guardedFetch, type FetchFn } from './ollamaFetch';
import { isTransient, toEmbedderError } from './ollamaErrors';
import { errorMessage } from '../../core/errorMessage';

export interface RetryPolicy {
  /** Total tries per batch, first included. */
  attempts: number;
  initialDelayMs: number;
  maxDelayMs: number;
}

export interface OllamaEmbedderOptions {
  /** e.g. `http://127.0.0.1:11434` (settings `ollama.host`, already normalized). */
  host: string;
  /** settings `embedding.model`, e.g. `nomic-embed-text`. */
  model: string;
  log?: Logger;
  batchSize?: number;
  concurrency?: number;
  /** Per `/api/embed` request; a cold model load on CPU can take several seconds. */
  requestTimeoutMs?: number;
  probeTimeoutMs?: number;
  /** The whole `/api/pull` stream. */
  pullTimeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  /** For tests and proxies; defaults to the global fetch. */
  fetch?: FetchFn;
}

const DEFAULT_RETRY: RetryPolicy = { attempts: 3, initialDelayMs: 250, maxDelayMs: 4000 };

export class OllamaEmbedder implements Embedder {
  readonly id: string;
  readonly model: string;
  readonly host: string;
  private readonly prefixes: ModelPrefixes;
  private readonly log: Logger;
  private readonly batchSize: number;
  private readonly concurrency: number;
  private readonly requestTimeoutMs: number;
  private readonly probeTimeoutMs: number;
  private readonly pullTimeoutMs: number;
  private readonly retry: RetryPolicy;
  private readonly baseFetch: FetchFn;

  constructor(options: OllamaEmbedderOptions) {
    this.host = options.host.replace(/\/+$/, '');
    this.model = options.model;
    this.id = `ollama:${options.model}`;
    this.prefixes = prefixesFor(options.model);
    this.log = options.log ?? silentLogger;
    this.batchSize = Math.max(1, options.batchSize ?? 32);
    this.concurrency = Math.max(1, options.concurrency ?? 2);
    this.requestTimeoutMs = options.requestTimeoutMs ?? 60_000;
    this.probeTimeoutMs = options.probeTimeoutMs ?? 3_000;
    this.pullTimeoutMs = options.pullTimeoutMs ?? 60 * 60_000;
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.baseFetch = options.fetch ?? fetch;
  }

  async embedDocuments(texts: string[], signal?: AbortSignal): Promise<number[][]> {
    const batches: string[][] = [];
    for (let i = 0; i < texts.length; i += this.batchSize) {
      batches.push(texts.slice(i, i + this.batchSize).map((t) => this.prefixes.document + t));
    }
    const results: number[][][] = new Array(batches.length);
    let next = 0;
    const worker = async () => {
      while (next < batches.length) {
        const index = next++;
        results[index] = await this.embedWithRetry(batches[index], signal);
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.concurrency, batches.length) }, worker));
    return results.flat();
  }

  async embedQuery(text: string, signal?: AbortSignal): Promise<number[]> {
    // A query is interactive: one try, the caller's deadline decides.
    const [vector] = await this.embedBatch([this.prefixes.query + text], signal);
    return vector;
  }

  async probe(): Promise<EmbedderHealth> {
    try {
      const response = await guardedFetch(this.probeTimeoutMs, undefined, this.baseFetch)(`${this.host}/api/version`);
      // guardedFetch turns every error body into `{"error": "…"}`.
      const body = (await response.json()) as { version?: string; error?: string };
      if (!response.ok) throw Object.assign(new Error(body.error ?? ''), { status_code: response.status });
      const version = body.version ?? '';
      const { models } = await (await this.client(this.probeTimeoutMs)).list();
      const present = models.some((m) => sameModel(this.model, m.name) || sameModel(this.model, m.model));
      return present
        ? { reachable: true, version }
        : { reachable: true, version, modelMissing: true, error: `model "${this.model}" missing — run \`ollama pull ${this.model}\`` };
    } catch (err) {
      const e = toEmbedderError(err, this.host, this.model);
      return { reachable: e.kind !== 'unreachable' && e.kind !== 'timeout', error: e.message };
    }
  }

  async pull(onProgress: (p: PullProgress) => void, signal?: AbortSignal): Promise<void> {
    try {
      const client = await this.client(this.pullTimeoutMs, signal);
      const stream = await client.pull({ model: this.model, stream: true });
      for await (const part of stream) {
        onProgress({ status: part.status, digest: part.digest || undefined, total: part.total || undefined, completed: part.completed || undefined });
      }
    } catch (err) {
      const e = toEmbedderError(err, this.host, this.model, signal);
      // Network trouble reads best as our own words; anything else as the service's (e.g. "pull model manifest: file does not exist").
      const why = e.kind === 'unreachable' || e.kind === 'timeout' || e.kind === 'aborted' ? e.message : errorMessage(err);
      throw new EmbedderError(e.kind, `pulling "${this.model}" from ${this.host} failed: ${why}`, e.status);
    }
  }

  // No return type: what import() resolves has ESM typings, a type import the CJS ones.
  private async client(timeoutMs: number, signal?: AbortSignal) {
    const { Ollama } = await import('ollama');
    return new Ollama({ host: this.host, fetch: guardedFetch(timeoutMs, signal, this.baseFetch) });
  }

  private async embedWithRetry(input: string[], signal?: AbortSignal): Promise<number[][]> {
    let delay = this.retry.initialDelayMs;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.embedBatch(input, signal);
      } catch (err) {
        const e = err as EmbedderError;
        if (!isTransient(e) || attempt >= this.retry.attempts || signal?.aborted) throw e;
        this.log.debug(`ollama embed attempt ${attempt} failed (${e.message}); retrying in ${delay} ms`);
        await sleep(delay, signal);
        delay = Math.min(this.retry.maxDelayMs, delay * 2);
      }
    }
  }

  private async embedBatch(input: string[], signal?: AbortSignal): Promise<number[][]> {
    try {
      const response = await (await this.client(this.requestTimeoutMs, signal)).embed({ model: this.model, input, truncate: true });
      return checkEmbeddings(response.embeddings, input.length, this.host);
    } catch (err) {
      throw toEmbedderError(err, this.host, this.model, signal);
    }
  }
}

function checkEmbeddings(embeddings: unknown, expected: number, host: string): number[][] {
  const ok =
    Array.isArray(embeddings) &&
    embeddings.length === expected &&
    embeddings.every((v) => Array.isArray(v) && v.length > 0 && v.length === (embeddings[0] as unknown[]).length && typeof v[0] === 'number');
  if (!ok)
    throw new EmbedderError(
      'bad-response',
      `Ollama at ${host} returned ${Array.isArray(embeddings) ? embeddings.length : 'no'} embeddings for ${expected} inputs`,
    );
  return embeddings as number[][];
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
