/**
 * The `fetch` the ollama client is given. The client (0.6.4) has no timeout, passes no signal
 * on most calls, and `console.log`s on error bodies that are not JSON — which would corrupt a
 * stdio MCP or LSP channel. This wrapper adds a timeout combined with the caller's signal and
 * rewrites every error body into the JSON shape the client parses silently, so the embedder
 * never depends on the process-wide stdout guard.
 */
import { deadline } from '../../core/deadline';

export type FetchFn = typeof fetch;

/** A fetch bounded by `timeoutMs` and `signal`, whose error responses are always `{"error": "..."}` JSON. */
export function guardedFetch(timeoutMs: number, signal?: AbortSignal, base: FetchFn = fetch): FetchFn {
  return async (input, init) => {
    const bound = deadline(timeoutMs, signal, init?.signal ?? undefined);
    let response: Response;
    try {
      response = await base(input, { ...init, signal: bound.signal });
    } catch (err) {
      bound.clear();
      throw err;
    }
    if (!response.ok) return jsonErrorResponse(response).finally(bound.clear);
    if (!response.body) {
      bound.clear();
      return response;
    }
    // The caller reads the body after this returns (a pull streams it for an hour): the deadline
    // bounds that too, and lets go of the caller's signal once the body has ended.
    const body = response.body.pipeThrough(new TransformStream<Uint8Array, Uint8Array>({ flush: bound.clear }));
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

async function jsonErrorResponse(response: Response): Promise<Response> {
  let message = `HTTP ${response.status} ${response.statusText}`.trim();
  try {
    const text = (await response.text()).trim();
    if (text) message = errorFromBody(text) ?? text.slice(0, 500);
  } catch {
    // The body could not be read (connection dropped): the status line is all we have.
  }
  return new Response(JSON.stringify({ error: message }), {
    status: response.status,
    statusText: response.statusText,
    headers: { 'content-type': 'application/json' },
  });
}

function errorFromBody(text: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && typeof (parsed as { error?: unknown }).error === 'string') {
      return (parsed as { error: string }).error;
    }
  } catch {
    // Not JSON: the caller falls back to the raw text.
  }
  return undefined;
}
