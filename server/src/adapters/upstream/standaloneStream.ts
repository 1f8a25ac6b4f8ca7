/**
 * Keeps a streamable HTTP upstream's standalone SSE stream (the GET the client opens after
 * initialize) open for the life of the session. It carries everything the server sends outside
 * a request: sampling and elicitation requests made with `server.request`, log messages,
 * list_changed and resource updates. Node's fetch ends a response body that is silent for five
 * minutes, so an idle stream breaks every five minutes; the SDK reconnects, but gives up after
 * two failures (seen: a server still holding the old stream answers 409 Conflict twice), and the
 * server then drops what it sends there without a word — a sampling request waits out its 60 s
 * timeout instead of reaching the client (the conformance suite's reference server behind MCP
 * Lens loses its stream this way within minutes).
 *
 * So when the SDK gives up, the stream is opened again (FIRST_RETRY_MS, then twice that). A
 * server that keeps refusing (the reference server does, holding the dead stream) holds it for
 * this session for good: the connection then starts a new session (`onLost`).
 */
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Logger } from '../../core/logger';
import { errorMessage } from '../../core/errorMessage';

const FIRST_RETRY_MS = 2000;
/** Reopen attempts before the session is given up. */
const REOPENS = 2;

/** The SDK's words when it stops reconnecting the standalone stream (client/streamableHttp.js). */
const GAVE_UP = /Maximum reconnection attempts/;

export class StandaloneStreamWatch {
  private timer: NodeJS.Timeout | undefined;
  private delay = FIRST_RETRY_MS;
  private failures = 0;
  private stopped = false;

  constructor(
    private readonly transport: StreamableHTTPClientTransport,
    private readonly server: string,
    private readonly log: Logger,
    /** The stream cannot be had again in this session. */
    private readonly onLost: () => void,
  ) {}

  /** Every transport error passes here; only the SDK giving up on the stream starts a reopen. */
  onTransportError(error: Error): void {
    if (this.stopped || this.timer || !GAVE_UP.test(error.message)) return;
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private schedule(): void {
    this.timer = setTimeout(() => void this.reopen(), this.delay);
    this.timer.unref();
  }

  private async reopen(): Promise<void> {
    try {
      await this.transport.resumeStream(undefined as unknown as string);
      this.timer = undefined;
      this.delay = FIRST_RETRY_MS;
      this.failures = 0;
      this.log.info(`[${this.server}] server-to-client stream open again`);
    } catch (err) {
      if (this.stopped) return;
      this.log.debug(`[${this.server}] reopening the server-to-client stream: ${errorMessage(err)}`);
      if (++this.failures >= REOPENS) {
        this.stop();
        this.onLost();
        return;
      }
      this.delay *= 2;
      this.schedule();
    }
  }
}
