/**
 * Server-sent events for the browser dashboard. The hub listens to the Lens only while a
 * page is connected; a burst of changes becomes one `state` event. Stats (find_tools
 * savings) change without a Lens event, so they are polled and pushed when they differ.
 */
import type { ServerResponse } from 'node:http';
import type { DashboardEventName, DashboardEvents } from '../../../../protocol/webviewProtocol';
import type { Disposable, Lens } from '../../app/lens';
import type { Logger } from '../../core/logger';
import type { LensStats } from '../../../../protocol/model';
import { errorMessage } from '../../core/errorMessage';

const COALESCE_MS = 150;
const STATS_POLL_MS = 2000;
const HEARTBEAT_MS = 20000;

export class DashboardEventHub {
  private readonly clients = new Set<ServerResponse>();
  private subscription: Disposable | undefined;
  private timers: ReturnType<typeof setInterval>[] = [];
  private pending: ReturnType<typeof setTimeout> | undefined;
  private lastStats = '';

  constructor(
    private readonly lens: Lens,
    private readonly stats: () => LensStats,
    private readonly log: Logger,
  ) {}

  /** Takes over the response as an event stream and sends the current state at once. */
  attach(res: ServerResponse): void {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
    });
    res.write('retry: 2000\n\n');
    this.clients.add(res);
    res.on('close', () => this.detach(res));
    if (this.clients.size === 1) this.startWatching();
    this.sendState([res]);
  }

  broadcast<K extends DashboardEventName>(
    event: K,
    data: DashboardEvents[K],
    to: Iterable<ServerResponse> = this.clients,
  ): void {
    const frame = `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
    for (const res of to) res.write(frame);
  }

  /** Ends every stream (the server is shutting down). */
  close(): void {
    for (const res of [...this.clients]) res.end();
    this.stopWatching();
  }

  private detach(res: ServerResponse): void {
    this.clients.delete(res);
    if (this.clients.size === 0) this.stopWatching();
  }

  private startWatching(): void {
    this.subscription = this.lens.onDidChange(() => this.schedule());
    this.timers = [
      setInterval(() => {
        if (JSON.stringify(this.stats()) !== this.lastStats) this.sendState(this.clients);
      }, STATS_POLL_MS),
      setInterval(() => {
        for (const res of this.clients) res.write(': ping\n\n');
      }, HEARTBEAT_MS),
    ];
  }

  private stopWatching(): void {
    this.subscription?.dispose();
    this.subscription = undefined;
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    clearTimeout(this.pending);
    this.pending = undefined;
  }

  private schedule(): void {
    if (this.pending) return;
    this.pending = setTimeout(() => {
      this.pending = undefined;
      this.sendState(this.clients);
    }, COALESCE_MS);
  }

  private sendState(to: Iterable<ServerResponse>): void {
    try {
      const stats = this.stats();
      this.lastStats = JSON.stringify(stats);
      this.broadcast('state', { servers: this.lens.servers(), index: this.lens.indexStatus(), stats }, to);
    } catch (err) {
      this.log.warn(`dashboard: could not send state: ${errorMessage(err)}`);
    }
  }
}
