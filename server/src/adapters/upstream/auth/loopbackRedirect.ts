/**
 * The redirect of a sign-in, received on 127.0.0.1 (RFC 8252 §7.3: a native app's loopback
 * redirect, any port). One listener per sign-in, on a free port, for `/callback` only; it takes
 * the authorization code of the request whose `state` matches and refuses the rest, then closes.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { escapeForDisplay } from '../../../../../protocol/untrustedText';

const PAGE = (title: string, text: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>MCP Lens</title></head><body style="font-family:sans-serif;margin:3em">` +
  `<h1>${html(title)}</h1><p>${html(text)}</p></body></html>`;

function html(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export class LoopbackRedirect {
  private waiter: { state: string; resolve(code: string): void; reject(error: Error): void } | undefined;

  private constructor(
    private readonly server: Server,
    /** `http://127.0.0.1:<port>/callback` */
    readonly uri: string,
    private readonly serverName: string,
  ) {}

  static async open(serverName: string): Promise<LoopbackRedirect> {
    const holder: { self?: LoopbackRedirect } = {};
    const server = createServer((req, res) => holder.self?.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    holder.self = new LoopbackRedirect(server, `http://127.0.0.1:${port}/callback`, serverName);
    return holder.self;
  }

  /** Resolves with the code of the redirect whose `state` is `state`; rejects on a refusal, `timeoutMs` or `signal`. */
  waitForCode(state: string, timeoutMs: number, signal?: AbortSignal): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', aborted);
        this.waiter = undefined;
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`${this.serverName}: the sign-in was not completed within ${Math.round(timeoutMs / 1000)} s`));
      }, timeoutMs);
      const aborted = () => {
        done();
        reject(new Error(`${this.serverName}: the sign-in was cancelled`));
      };
      if (signal?.aborted) return aborted();
      signal?.addEventListener('abort', aborted, { once: true });
      this.waiter = {
        state,
        resolve: (code) => {
          done();
          resolve(code);
        },
        reject: (error) => {
          done();
          reject(error);
        },
      };
    });
  }

  close(): void {
    this.server.close();
    this.server.closeAllConnections();
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const reply = (status: number, title: string, text: string) => {
      res.writeHead(status, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        'referrer-policy': 'no-referrer',
      });
      res.end(PAGE(title, text));
    };
    if (req.method !== 'GET' || url.pathname !== '/callback')
      return reply(404, 'Not found', 'This address only receives the sign-in of MCP Lens.');
    const waiter = this.waiter;
    // A redirect for another sign-in (or a page reloaded later) is refused: the state binds it to this one.
    if (!waiter || url.searchParams.get('state') !== waiter.state)
      return reply(
        400,
        'Sign-in not recognised',
        'This sign-in is not the one MCP Lens is waiting for. Start it again from MCP Lens.',
      );
    const error = url.searchParams.get('error');
    if (error !== null) {
      // The authorization server's words are untrusted text: shown escaped, and only its error code.
      const code = escapeForDisplay(error).slice(0, 100);
      reply(200, 'Sign-in refused', `The authorization server refused the sign-in (${code}). You can close this tab.`);
      return waiter.reject(new Error(`${this.serverName}: the authorization server refused the sign-in (${code})`));
    }
    const code = url.searchParams.get('code');
    if (!code) return reply(400, 'Sign-in incomplete', 'The redirect carried no authorization code.');
    reply(200, `Signed in to ${this.serverName}`, 'MCP Lens has the authorization. You can close this tab.');
    waiter.resolve(code);
  }
}
