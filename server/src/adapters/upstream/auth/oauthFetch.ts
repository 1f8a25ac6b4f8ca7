/**
 * The fetch every OAuth request of a remote server goes through (serverAuth.ts): Node's http and
 * https clients, not the global fetch, because only they take a `lookup` — so the address a
 * request connects to is the one oauthDestinations.ts checked, name resolution included. It is
 * what the SDK's auth functions need of a fetch: a method, headers and a body in, a Response out.
 * Redirects are returned, never followed (the SDK follows an OAuth redirect itself, within one
 * origin, through this same fetch); the body streams, for oauthRequestLimits.ts to count.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { OAuthDestinations } from './oauthDestinations';

/** Statuses whose Response may not carry a body (a new Response with one throws). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/** A fetch whose requests may only go where `destinations` allows. */
export function oauthFetch(destinations: OAuthDestinations): FetchLike {
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    destinations.check(url);
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => (headers[name] = value));
    if (body) headers['content-length'] = String(body.length);
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<Response>((resolve, reject) => {
      const req = send(
        url,
        { method: request.method, headers, lookup: destinations.lookupFor(url), signal: request.signal },
        (res) => resolve(toResponse(res)),
      );
      req.on('error', reject);
      req.end(body);
    });
  };
}

function toResponse(res: IncomingMessage): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers))
    for (const v of [value ?? []].flat()) headers.append(name, v);
  const status = res.statusCode ?? 502;
  if (NULL_BODY_STATUSES.has(status)) {
    res.resume();
    return new Response(null, { status, statusText: res.statusMessage ?? '', headers });
  }
  return new Response(Readable.toWeb(res) as ReadableStream<Uint8Array>, {
    status,
    statusText: res.statusMessage ?? '',
    headers,
  });
}
