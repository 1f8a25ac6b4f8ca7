/**
 * Embedder over any OpenAI-compatible embeddings endpoint (`POST …/v1/embeddings` with
 * `{model, input: [texts]}`, answered `{data: [{embedding, index}]}`): OpenAI itself, vLLM,
 * llama.cpp's server, LM Studio, LocalAI, text-embeddings-inference, Ollama's /v1. Batching
 * and retries as for Ollama (embeddingBatches.ts; rate limits are retried too).
 *
 * Used by `mcp-lens bench --embedder openai` only: it is not a product setting, because a
 * setting that sends every tool description and every request to a URL (and holds a key) is a
 * restricted setting that needs workspace trust, approval and secret storage (SECURITY.md),
 * which the bench does not. The API key is sent as `Authorization: Bearer …` and never logged,
 * shown or put in an error (openaiErrors.ts); `host` (what status lines show) is the URL
 * without credentials or query string.
 */
import type { Logger } from '../../../server/src/core/logger';
import { silentLogger } from '../../../server/src/core/logger';
import { deadline } from '../../../server/src/core/deadline';
import { EmbedderError, type Embedder, type EmbedderHealth } from '../../../server/src/adapters/embed/embedder';
import {
  checkedVectors,
  DEFAULT_RETRY,
  embedInBatches,
  type BatchPlan,
  type RetryPolicy,
} from '../../../server/src/adapters/embed/embeddingBatches';
import { prefixesFor, type ModelPrefixes } from '../../../server/src/adapters/embed/modelPrefixes';
import { fromFetchFailure, fromHttpStatus, vectorsOf } from './openaiErrors';

export interface OpenAiEmbedderOptions {
  /** The API's base URL (`http://127.0.0.1:8080/v1`, `https://api.openai.com/v1`) or its embeddings endpoint (`…/v1/embeddings`). */
  url: string;
  /** The model name as the server knows it (`text-embedding-3-small`, `bge-m3`, `nomic-embed-text`). */
  model: string;
  /** Sent as a bearer token when given. */
  apiKey?: string;
  log?: Logger;
  batchSize?: number;
  concurrency?: number;
  /** Per request. */
  requestTimeoutMs?: number;
  probeTimeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  fetch?: typeof fetch;
}

/**
 * The embeddings endpoint for a base URL or the endpoint itself. Throws on a URL that is not
 * http(s) or that carries a user name or password (fetch refuses those, quoting the URL: the
 * key goes in MCP_LENS_EMBED_API_KEY); the messages never quote the URL.
 */
export function embeddingsEndpoint(url: string): URL {
  let u: URL;
  try {
    u = new URL(url.trim());
  } catch {
    throw new Error('the embeddings URL is not a URL');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new Error(`the embeddings URL must be http or https, not ${u.protocol}`);
  if (u.username || u.password)
    throw new Error(
      'the embeddings URL must not carry a user name or password: give the key in MCP_LENS_EMBED_API_KEY',
    );
  if (!/\/embeddings\/?$/.test(u.pathname)) u.pathname = `${u.pathname.replace(/\/+$/, '')}/embeddings`;
  return u;
}

/** A URL as it may be shown: no user name, password, query or fragment (where keys hide). */
export function shownUrl(u: URL): string {
  return `${u.origin}${u.pathname}`;
}

export class OpenAiEmbedder implements Embedder {
  readonly id: string;
  readonly model: string;
  readonly host: string;
  private readonly endpoint: URL;
  private readonly apiKey: string | undefined;
  private readonly prefixes: ModelPrefixes;
  private readonly batches: BatchPlan;
  private readonly requestTimeoutMs: number;
  private readonly probeTimeoutMs: number;
  private readonly baseFetch: typeof fetch;

  constructor(options: OpenAiEmbedderOptions) {
    this.endpoint = embeddingsEndpoint(options.url);
    this.host = shownUrl(this.endpoint);
    this.model = options.model;
    this.id = `openai:${options.model}`;
    this.apiKey = options.apiKey || undefined;
    this.prefixes = prefixesFor(options.model);
    this.batches = {
      batchSize: Math.max(1, options.batchSize ?? 64),
      concurrency: Math.max(1, options.concurrency ?? 2),
      retry: { ...DEFAULT_RETRY, ...options.retry },
      log: options.log ?? silentLogger,
      service: 'openai-compatible',
    };
    this.requestTimeoutMs = options.requestTimeoutMs ?? 60_000;
    this.probeTimeoutMs = options.probeTimeoutMs ?? 10_000;
    this.baseFetch = options.fetch ?? fetch;
  }

  async embedDocuments(texts: string[], signal?: AbortSignal): Promise<number[][]> {
    const inputs = texts.map((t) => this.prefixes.document + t);
    return embedInBatches(inputs, this.batches, (batch, s) => this.embedBatch(batch, this.requestTimeoutMs, s), signal);
  }

  async embedQuery(text: string, signal?: AbortSignal): Promise<number[]> {
    const [vector] = await this.embedBatch([this.prefixes.query + text], this.requestTimeoutMs, signal);
    return vector!;
  }

  /**
   * One short embedding: there is no standard version or model-list call every compatible
   * server answers (llama.cpp lists its file name, not the model asked for), and an embedding
   * proves the endpoint, the key and the model at once.
   */
  async probe(): Promise<EmbedderHealth> {
    try {
      await this.embedBatch(['probe'], this.probeTimeoutMs);
      return { reachable: true };
    } catch (err) {
      const e = err as EmbedderError;
      const reachable = e.kind !== 'unreachable' && e.kind !== 'timeout';
      return { reachable, ...(e.kind === 'model-missing' && { modelMissing: true }), error: e.message };
    }
  }

  private async embedBatch(input: string[], timeoutMs: number, signal?: AbortSignal): Promise<number[][]> {
    const bound = deadline(timeoutMs, signal);
    let response: Response;
    let body: unknown;
    try {
      response = await this.baseFetch(this.endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(this.apiKey && { authorization: `Bearer ${this.apiKey}` }) },
        body: JSON.stringify({ model: this.model, input, encoding_format: 'float' }),
        signal: bound.signal,
      });
      const text = await response.text();
      body = parseJson(text);
    } catch (err) {
      throw fromFetchFailure(
        err,
        this.host,
        [this.endpoint.href, this.apiKey],
        signal?.aborted ? signal : bound.signal.aborted ? bound.signal : undefined,
      );
    } finally {
      bound.clear();
    }
    if (!response.ok) throw fromHttpStatus(response.status, body, this.host, this.model, this.apiKey);
    const vectors = checkedVectors(vectorsOf(body), input.length);
    if (!vectors)
      throw new EmbedderError(
        'bad-response',
        `${this.host} did not answer ${input.length} embeddings of one size in OpenAI's shape ({data: [{embedding}]})`,
      );
    return vectors;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { message: text };
  }
}
