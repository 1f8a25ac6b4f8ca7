/**
 * The limits on every HTTP request MCP Lens makes for OAuth: protected-resource and
 * authorization-server metadata, dynamic client registration, the token exchange and refresh.
 * The SDK's auth functions read each answer whole (`response.json()`) with no deadline, so an
 * authorization server that streamed an endless body would grow the gateway without bound, and
 * one that never finished its answer would hold the sign-in (and a socket) forever.
 *
 * Each request here gets, from its start to its body's last byte:
 *   at most MAX_OAUTH_RESPONSE_BYTES of body — a metadata document, a registration or a token
 *     response is a few KB;
 *   at most the server's connect timeout — no single request of a sign-in may take longer
 *     than the whole start of a server may (the user can lengthen both with
 *     `connectTimeoutSeconds`).
 * The first request that passes a limit fails the whole sign-in: the SDK swallows a failed
 * protected-resource lookup and falls back to guessing, so a guard remembers the breach and
 * refuses every later request of the same flow with it. The error names the server, the
 * address (origin and path, never a query) and the limit; never a token or a secret.
 */
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';

/** Largest body of any OAuth response read. */
export const MAX_OAUTH_RESPONSE_BYTES = 1024 * 1024;

/** A request of a sign-in (or refresh) that passed its size or time limit. */
export class OAuthLimitError extends Error {
  constructor(
    readonly server: string,
    message: string,
  ) {
    super(message);
    this.name = 'OAuthLimitError';
  }
}

/** Statuses whose Response may not carry a body (a new Response with one throws). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/** One sign-in's (or one transport's) OAuth requests, held to the limits above. */
export class OAuthRequestGuard {
  /** The first limit passed; every later request of this flow fails with it. */
  breach: OAuthLimitError | undefined;

  constructor(
    private readonly server: string,
    private readonly timeoutMs: number,
  ) {}

  /** `base` with every request held to the limits: a sign-in, where every request is an OAuth one. */
  all(base: FetchLike): FetchLike {
    return (url, init) => this.request(base, url, init);
  }

  /**
   * A transport's fetch, which also carries the MCP traffic (long-lived event streams, calls that
   * take minutes, bodies up to the 10 MB of boundedFetch.ts): MCP requests go to `mcp` as they
   * are, OAuth requests to `oauth`, held to the limits. The SDK sends every MCP request with the
   * transport's abort signal (so closing the transport ends it) and its OAuth requests (auth.ts,
   * called on a 401) without one; test/security/oauth-response-limits.test.ts holds that line
   * for this SDK version.
   */
  oauthOnly(mcp: FetchLike, oauth: FetchLike): FetchLike {
    return (url, init) => (init?.signal ? mcp(url, init) : this.request(oauth, url, init));
  }

  private async request(base: FetchLike, url: string | URL, init: RequestInit | undefined): Promise<Response> {
    if (this.breach) throw this.breach;
    const where = address(url);
    const stop = new AbortController();
    let finished = false;
    let body: ReadableStreamDefaultController<Uint8Array> | undefined;
    let late: ((error: OAuthLimitError) => void) | undefined;
    const finish = () => ((finished = true), clearTimeout(timer));
    const timer = setTimeout(() => {
      if (finished) return;
      const error = this.fail(
        `did not finish its answer from ${where} within ${Math.round(this.timeoutMs / 1000)} s (the limit for one OAuth request)`,
      );
      finish();
      body?.error(error);
      late?.(error);
      stop.abort(error);
    }, this.timeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, stop.signal]) : stop.signal;
    let response: Response;
    try {
      response = await Promise.race([
        base(url, { ...init, signal }),
        new Promise<never>((_, reject) => (late = reject)),
      ]);
    } catch (error) {
      finish();
      throw this.breach ?? error;
    }
    if (!response.body || NULL_BODY_STATUSES.has(response.status)) {
      finish();
      return response;
    }
    const reader = response.body.getReader();
    let bytes = 0;
    const counted = new ReadableStream<Uint8Array>({
      start: (controller) => void (body = controller),
      pull: async (controller) => {
        try {
          const { done, value } = await reader.read();
          if (finished) return; // the deadline passed while reading: the body is errored already
          if (done) return (finish(), controller.close());
          bytes += value.byteLength;
          if (bytes <= MAX_OAUTH_RESPONSE_BYTES) return controller.enqueue(value);
          const error = this.fail(
            `sent more than ${MAX_OAUTH_RESPONSE_BYTES / (1024 * 1024)} MB from ${where} (the limit for one OAuth answer)`,
          );
          finish();
          controller.error(error);
          stop.abort(error);
        } catch (error) {
          finish();
          controller.error(this.breach ?? error);
        }
      },
      cancel: (reason) => (finish(), reader.cancel(reason)),
    });
    return new Response(counted, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  }

  private fail(what: string): OAuthLimitError {
    this.breach ??= new OAuthLimitError(
      this.server,
      `${this.server}: signing in stopped: the authorization server ${what}`,
    );
    return this.breach;
  }
}

/** Where a request went, for an error: origin and path; a query or fragment is left out. */
function address(url: string | URL): string {
  try {
    const u = new URL(String(url));
    return `${u.origin}${u.pathname}`;
  } catch {
    return 'an address that is not a URL';
  }
}
