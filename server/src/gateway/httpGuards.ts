/**
 * The checks every /mcp and /stats request passes before the MCP transport sees it:
 * DNS-rebinding protection (Host), cross-site protection (Origin), the bearer token, the body
 * size and JSON. Checked here rather than by the SDK transport, whose built-in protection is
 * deprecated in favour of exactly this kind of middleware.
 *
 * Origin policy: absent (CLI clients, Claude Code, VS Code's own MCP client in the extension
 * host) or our own http://127.0.0.1:PORT / http://localhost:PORT. Webview origins
 * (`vscode-webview://…`) are refused on /mcp: the dashboard talks to the sidecar through its
 * own routes, and nothing in a webview needs to speak MCP with the workspace's tools.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** A fresh per-start token: 32 random bytes, base64url. */
export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The least a bearer token must carry: what `generateToken` gives is 256 bits. */
export const MIN_TOKEN_BITS = 128;

/**
 * Why a token someone chose (MCP_LENS_TOKEN) is too weak, or undefined. Its strength is
 * estimated from its length and the smallest usual alphabet that holds it (digits 3.3 bits a
 * character, hex 4, base64/base64url 6, any printable ASCII 6.5), and a token of few distinct
 * characters (`aaaa…`) is refused whatever its length. The message never repeats the token.
 */
export function tokenProblem(token: string): string | undefined {
  const perChar = /^[0-9]+$/.test(token)
    ? Math.log2(10)
    : /^[0-9a-fA-F]+$/.test(token)
      ? 4
      : /^[A-Za-z0-9+/=_-]+$/.test(token)
        ? 6
        : Math.log2(95);
  const bits = Math.floor(token.length * perChar);
  const distinct = new Set(token).size;
  if (bits >= MIN_TOKEN_BITS && distinct >= 10) return undefined;
  const why = bits < MIN_TOKEN_BITS ? `about ${bits} bits` : `only ${distinct} distinct characters`;
  return `MCP_LENS_TOKEN is too weak (${token.length} characters, ${why}; at least ${MIN_TOKEN_BITS} random bits are needed, e.g. 32 hex digits from \`openssl rand -hex 16\`). Unset it to let MCP Lens generate one.`;
}

/**
 * Proof that a server knows the token, without the token crossing the wire: HMAC-SHA256 of a
 * nonce the asker chose. `mcp-lens stats` asks for it (GET /proof?nonce=…) before it sends the
 * token anywhere a gateway.json points, so a server that merely listens there learns nothing.
 */
export function gatewayProof(token: string, nonce: string): string {
  return createHmac('sha256', token).update(`mcp-lens gateway proof\0${nonce}`).digest('hex');
}

/** A nonce for gatewayProof: 128 random bits. */
export function proofNonce(): string {
  return randomBytes(16).toString('hex');
}

/** Constant-time comparison; hashing first makes the lengths equal without leaking them. */
export function tokensEqual(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b) && given.length === expected.length;
}

export function bearerOf(req: IncomingMessage): string | undefined {
  const h = req.headers.authorization;
  if (typeof h !== 'string') return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
  return m?.[1];
}

/** The /mcp URL to show for a listening address (a wildcard address is reached on loopback). */
export function endpointUrl(host: string, port: number, https: boolean): string {
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return `${https ? 'https' : 'http'}://${shown}:${port}/mcp`;
}

export function hostAllowed(host: string | undefined, port: number): boolean {
  return host === `127.0.0.1:${port}` || host === `localhost:${port}`;
}

export function originAllowed(origin: string | undefined, port: number): boolean {
  return origin === undefined || origin === `http://127.0.0.1:${port}` || origin === `http://localhost:${port}`;
}

/** A JSON-RPC-style error body, as MCP clients expect from a streamable HTTP endpoint. */
export function sendJsonError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
  /** The request's id, when the error answers one whose id could be read. */
  id: string | number | null = null,
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

export class BodyTooLargeError extends Error {}

/** Reads a request body up to `limit` bytes; refuses early on a declared larger length. */
export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      reject(new BodyTooLargeError(`body of ${declared} bytes exceeds ${limit}`));
      req.resume();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > limit) {
        failed = true;
        reject(new BodyTooLargeError(`body exceeds ${limit} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!failed) resolve(Buffer.concat(chunks));
    });
    req.on('error', (err) => {
      if (!failed) reject(err);
    });
  });
}
