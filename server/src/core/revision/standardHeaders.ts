/**
 * The HTTP face of a modern request: `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` mirror
 * the body so that intermediaries can route on them, and a server that reads the body must refuse
 * a request whose headers are missing or say something else (400, -32020 HeaderMismatch): else a
 * proxy routing on the header and MCP Lens acting on the body could be steered apart.
 *
 * `checkModernHttpRequest` runs the whole ladder in the order the revision's errors depend on each
 * other: the version header, the envelope's shape (-32602), header against envelope (-32020), the
 * revision served (-32022), then the method and name headers (-32020).
 */
import { isRevisionError, readEnvelope, type RequestEnvelope, type RevisionError } from './envelope';
import { MODERN_ERROR } from './revisions';

/** Header name (lower case, as Node gives them) → its value. */
export type HeaderMap = Readonly<Record<string, string | string[] | undefined>>;

const SENTINEL = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/;

/** A header value as the revision encodes it: plain, or `=?base64?…?=` around UTF-8 bytes. */
export function decodeHeaderValue(raw: string): string | undefined {
  // RFC 9110: optional whitespace around a field value is not part of it.
  const value = raw.trim();
  const m = SENTINEL.exec(value);
  if (!m) return value;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  // Invalid base64 decodes to something else: a round trip tells.
  return Buffer.from(decoded, 'utf8').toString('base64').replace(/=+$/, '') === m[1]!.replace(/=+$/, '')
    ? decoded
    : undefined;
}

/** A header value as a client sends it: plain when it is safe ASCII, else the base64 sentinel. */
export function encodeHeaderValue(value: string): string {
  const plain = /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(value) && !SENTINEL.test(value);
  return plain ? value : `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

/** The body value `Mcp-Name` mirrors, for the methods that need one. */
export function mcpNameSource(method: string, params: unknown): string | undefined {
  const p = (typeof params === 'object' && params !== null ? params : {}) as Record<string, unknown>;
  if (method === 'tools/call' || method === 'prompts/get') return typeof p.name === 'string' ? p.name : '';
  if (method === 'resources/read') return typeof p.uri === 'string' ? p.uri : '';
  return undefined;
}

const mismatch = (message: string): RevisionError => ({
  code: MODERN_ERROR.headerMismatch,
  message: `Header mismatch: ${message}`,
  httpStatus: 400,
});

function single(headers: HeaderMap, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v.join(',') : v;
}

const quote = (s: string) => JSON.stringify(s.length > 80 ? `${s.slice(0, 80)}…` : s);

/** The envelope of a modern request that came over HTTP, or the refusal its headers and body earn. */
export function checkModernHttpRequest(
  headers: HeaderMap,
  message: { method: string; params?: unknown },
): RequestEnvelope | RevisionError {
  const version = single(headers, 'mcp-protocol-version')?.trim();
  if (!version) return mismatch('the MCP-Protocol-Version header is missing');
  const envelope = readEnvelope(message.params, version);
  if (isRevisionError(envelope)) return envelope;
  const method = single(headers, 'mcp-method');
  if (method === undefined)
    return mismatch(`the Mcp-Method header is missing (the body says ${quote(message.method)})`);
  if (method.trim() !== message.method)
    return mismatch(`Mcp-Method ${quote(method.trim())} is not the body's method ${quote(message.method)}`);
  const expected = mcpNameSource(message.method, message.params);
  if (expected !== undefined) {
    const raw = single(headers, 'mcp-name');
    if (raw === undefined) return mismatch(`the Mcp-Name header is missing (the body names ${quote(expected)})`);
    const name = decodeHeaderValue(raw);
    if (name === undefined) return mismatch('the Mcp-Name header is not valid base64 inside =?base64?…?=');
    if (name !== expected) return mismatch(`Mcp-Name ${quote(name)} is not the body's ${quote(expected)}`);
  }
  return envelope;
}
