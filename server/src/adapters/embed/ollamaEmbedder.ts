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
import { checkedVectors, DEFAULT_RETRY, embedInBatches, type BatchPlan, type RetryPolicy } from './embeddingBatches';
import { prefixesFor, sameModel, type ModelPrefixes } from './modelPrefixes';
import { guardedFetch, type FetchFn } from './ollamaFetch';
import { toEmbedderError } from './ollamaErrors';
import { errorMessage } from '../../core/errorMessage';

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

export class OllamaEmbedder implements Embedder {
  readonly id: string;
  readonly model: string;
  readonly host: string;
  private readonly prefixes: ModelPrefixes;
  private readonly batches: BatchPlan;
  private readonly requestTimeoutMs: number;
  private readonly probeTimeoutMs: number;
  private readonly pullTimeoutMs: number;
  private readonly baseFetch: FetchFn;

  constructor(options: OllamaEmbedderOptions) {
    this.host = options.host.replace(/\/+$/, '');
    this.model = options.model;
    this.id = `ollama:${options.model}`;
    this.prefixes = prefixesFor(options.model);
    this.batches = {
      batchSize: Math.max(1, options.batchSize ?? 32),
      concurrency: Math.max(1, options.concurrency ?? 2),
      retry: { ...DEFAULT_RETRY, ...options.retry },
      log: options.log ?? silentLogger,
      service: 'ollama',
    };
    this.requestTimeoutMs = options.requestTimeoutMs ?? 60_000;
    this.probeTimeoutMs = options.probeTimeoutMs ?? 3_000;
    this.pullTimeoutMs = options.pullTimeoutMs ?? 60 * 60_000;
    this.baseFetch = options.fetch ?? fetch;
  }

  async embedDocuments(texts: string[], signal?: AbortSignal): Promise<number[][]> {
    const inputs = texts.map((t) => this.prefixes.document + t);
    return embedInBatches(inputs, this.batches, (batch, s) => this.embedBatch(batch, s), signal);
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
        : {
            reachable: true,
            version,
            modelMissing: true,
            error: `model "${this.model}" missing — run \`ollama pull ${this.model}\``,
          };
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
        onProgress({
          status: part.status,
          digest: part.digest || undefined,
          total: part.total || undefined,
          completed: part.completed || undefined,
        });
      }
    } catch (err) {
      const e = toEmbedderError(err, this.host, this.model, signal);
      // Network trouble reads best as our own words; anything else as the service's (e.g. "pull model manifest: file does not exist").
      const why =
        e.kind === 'unreachable' || e.kind === 'timeout' || e.kind === 'aborted' ? e.message : errorMessage(err);
      throw new EmbedderError(e.kind, `pulling "${this.model}" from ${this.host} failed: ${why}`, e.status);
    }
  }

  // No return type: what import() resolves has ESM typings, a type import the CJS ones.
  private async client(timeoutMs: number, signal?: AbortSignal) {
    const { Ollama } = await import('ollama');
    return new Ollama({ host: this.host, fetch: guardedFetch(timeoutMs, signal, this.baseFetch) });
  }

  private async embedBatch(input: string[], signal?: AbortSignal): Promise<number[][]> {
    try {
      const response = await (
        await this.client(this.requestTimeoutMs, signal)
      ).embed({ model: this.model, input, truncate: true });
      const vectors = checkedVectors(response.embeddings, input.length);
      if (vectors) return vectors;
      const got = Array.isArray(response.embeddings) ? response.embeddings.length : 'no';
      throw new EmbedderError(
        'bad-response',
        `Ollama at ${this.host} returned ${got} embeddings for ${input.length} inputs`,
      );
    } catch (err) {
      throw toEmbedderError(err, this.host, this.model, signal);
    }
  }
}
