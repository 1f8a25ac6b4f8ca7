/**
 * How a replica stops taking work (SIGTERM from Kubernetes or a service manager) and the probes
 * a load balancer reads: /readyz turns 503 at once, new POSTs are refused with 503 and
 * Retry-After so their clients go to another replica, and the POSTs being answered may finish.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJsonError } from './httpGuards';

/** The probes' paths (deploy/kubernetes points its liveness and readiness probes at these). */
export const PROBE_PATHS = { live: '/healthz', ready: '/readyz' } as const;

export class HttpDrain {
  /** POSTs to /mcp being answered (a client's long-lived GET stream is not one): what a drain waits for. */
  private inFlight = 0;
  private draining = false;
  private readonly drained = new Set<() => void>();

  /**
   * Liveness (/healthz: the process answers) and readiness (/readyz: it takes new work, false
   * while draining). No token, and nothing in the answer but the verdict: a probe must work
   * without the secret and tell a stranger nothing. True when the request was a probe.
   */
  answerProbe(req: IncomingMessage, res: ServerResponse): boolean {
    const path = req.url?.split('?')[0];
    if (req.method !== 'GET' || (path !== PROBE_PATHS.live && path !== PROBE_PATHS.ready)) return false;
    const ok = path === PROBE_PATHS.live || !this.draining;
    res.writeHead(ok ? 200 : 503, { 'content-type': 'text/plain', 'cache-control': 'no-store' });
    res.end(ok ? 'ok\n' : 'draining\n');
    return true;
  }

  /** Counts a POST until its answer closes; false (and a 503 sent) while draining. */
  admit(res: ServerResponse): boolean {
    if (this.draining) {
      sendJsonError(res, 503, -32000, 'Service unavailable: this MCP Lens replica is shutting down; retry', {
        'retry-after': '1',
        connection: 'close',
      });
      return false;
    }
    this.inFlight++;
    res.once('close', () => {
      if (--this.inFlight === 0) for (const idle of [...this.drained]) idle();
    });
    return true;
  }

  /** Stops taking work and waits, at most `maxMs`, for the POSTs being answered; true when none was left. */
  drain(maxMs: number): Promise<boolean> {
    this.draining = true;
    if (this.inFlight === 0) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const done = (idle: boolean) => {
        clearTimeout(timer);
        this.drained.delete(onIdle);
        resolve(idle);
      };
      const onIdle = () => done(true);
      const timer = setTimeout(() => done(false), maxMs);
      this.drained.add(onIdle);
    });
  }
}
