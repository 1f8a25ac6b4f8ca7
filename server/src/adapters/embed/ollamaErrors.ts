/**
 * Maps whatever the ollama client or fetch threw to an EmbedderError whose kind decides
 * retrying (network, timeout, 5xx: isTransient in embeddingBatches.ts) and the label the user
 * sees (model missing → `ollama pull`).
 */
import { EmbedderError } from './embedder';

export function toEmbedderError(err: unknown, host: string, model: string, callerSignal?: AbortSignal): EmbedderError {
  if (err instanceof EmbedderError) return err;
  if (callerSignal?.aborted) {
    // A caller's deadline (AbortSignal.timeout) is the service being slow, not a cancellation.
    const reason = callerSignal.reason as { name?: string } | undefined;
    if (reason?.name === 'TimeoutError')
      return new EmbedderError('timeout', `Ollama at ${host} did not answer in time`);
    return new EmbedderError('aborted', `embedding request to ${host} was cancelled`);
  }
  const e = err as {
    name?: string;
    message?: string;
    status_code?: number;
    cause?: { code?: string; message?: string };
  };
  if (typeof e?.status_code === 'number') return fromStatus(e.status_code, e.message ?? '', host, model);
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') {
    return new EmbedderError('timeout', `Ollama at ${host} did not answer in time`);
  }
  const cause = e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(err);
  return new EmbedderError('unreachable', `Ollama unreachable at ${host} (${cause})`);
}

function fromStatus(status: number, message: string, host: string, model: string): EmbedderError {
  if (status === 404 && /not found/i.test(message)) {
    return new EmbedderError(
      'model-missing',
      `model "${model}" not found at ${host} — run \`ollama pull ${model}\``,
      status,
    );
  }
  if (status >= 500)
    return new EmbedderError('server', `Ollama at ${host} answered HTTP ${status}: ${message}`, status);
  return new EmbedderError(
    'bad-response',
    `Ollama at ${host} rejected the request (HTTP ${status}): ${message}`,
    status,
  );
}
