/**
 * What an OpenAI-compatible `/embeddings` endpoint (OpenAI, vLLM, llama.cpp's server, LM
 * Studio, LocalAI, Ollama's /v1, text-embeddings-inference…) answers when it fails, as an
 * EmbedderError. The API key never appears in a message: a 401/403 body is not quoted at all
 * (OpenAI's echoes part of the key), and any other body quoted has the key masked.
 */
import { EmbedderError } from '../../../server/src/adapters/embed/embedder';

/** The error text of a failed answer, in whichever shape the server uses. */
export function errorText(body: unknown): { message: string; code: string } {
  const b = body as { error?: unknown; message?: unknown; detail?: unknown } | null;
  const inner = b?.error;
  if (inner && typeof inner === 'object') {
    const e = inner as { message?: unknown; code?: unknown };
    return { message: typeof e.message === 'string' ? e.message : '', code: typeof e.code === 'string' ? e.code : '' };
  }
  for (const v of [inner, b?.message, b?.detail]) if (typeof v === 'string') return { message: v, code: '' };
  return { message: '', code: '' };
}

/** A server's own words, short, with the key masked wherever it appears. */
function quoted(message: string, apiKey: string | undefined): string {
  const short = message.replace(/\s+/g, ' ').trim().slice(0, 300);
  return apiKey ? short.split(apiKey).join('***') : short;
}

/** The EmbedderError for an HTTP status and error body from `where` (a URL without credentials). */
export function fromHttpStatus(
  status: number,
  body: unknown,
  where: string,
  model: string,
  apiKey: string | undefined,
): EmbedderError {
  const { message, code } = errorText(body);
  if (status === 401 || status === 403) {
    return new EmbedderError(
      'bad-response',
      `${where} refused the request (HTTP ${status}): check MCP_LENS_EMBED_API_KEY`,
      status,
    );
  }
  const said = quoted(message, apiKey);
  if ((status === 404 || status === 400) && (code === 'model_not_found' || /model/i.test(said))) {
    return new EmbedderError(
      'model-missing',
      `model "${model}" not found at ${where}${said ? `: ${said}` : ''}`,
      status,
    );
  }
  if (status === 404) return new EmbedderError('bad-response', `no embeddings endpoint at ${where} (HTTP 404)`, status);
  // Rate limits and overloads pass: retried like a 5xx (isTransient).
  if (status === 429 || status >= 500)
    return new EmbedderError('server', `${where} answered HTTP ${status}${said ? `: ${said}` : ''}`, status);
  return new EmbedderError(
    'bad-response',
    `${where} rejected the request (HTTP ${status})${said ? `: ${said}` : ''}`,
    status,
  );
}

/** The EmbedderError for what fetch threw (no answer at all); `secrets` (the full URL, the key) are masked in the cause it quotes. */
export function fromFetchFailure(
  err: unknown,
  where: string,
  secrets: readonly (string | undefined)[],
  callerSignal?: AbortSignal,
): EmbedderError {
  if (err instanceof EmbedderError) return err;
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (callerSignal?.aborted) {
    const reason = callerSignal.reason as { name?: string } | undefined;
    if (reason?.name !== 'TimeoutError')
      return new EmbedderError('aborted', `embedding request to ${where} was cancelled`);
    return new EmbedderError('timeout', `${where} did not answer in time`);
  }
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError')
    return new EmbedderError('timeout', `${where} did not answer in time`);
  let cause = String(e?.cause?.code ?? e?.cause?.message ?? e?.message ?? err);
  for (const secret of secrets) if (secret) cause = cause.split(secret).join('***');
  return new EmbedderError('unreachable', `embeddings endpoint unreachable at ${where} (${cause.slice(0, 300)})`);
}

/** The vectors of a successful answer (`{data: [{embedding, index}]}`), in input order; undefined when it is not that. */
export function vectorsOf(body: unknown): unknown[] | undefined {
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) return undefined;
  const rows = data as { embedding?: unknown; index?: unknown }[];
  // `index` says which input each vector is for; servers that leave it out answer in order.
  const indexed = rows.every((r) => typeof r?.index === 'number');
  const ordered = indexed ? [...rows].sort((a, b) => (a.index as number) - (b.index as number)) : rows;
  return ordered.map((r) => r?.embedding);
}
