/**
 * The gateway's stdio server transport: the SDK's StdioServerTransport (same framing, same
 * 10 MB read buffer that closes the transport when a client overfills it, same errors for a
 * line that is not a message, one write per message), but each line's JSON value is first
 * offered to `take` (the direct tool calls, directToolCalls.ts) before the SDK's message schema
 * checks it; what is not taken goes to the SDK's Protocol exactly as the SDK's own transport
 * would hand it over.
 */
import { STDIO_DEFAULT_MAX_BUFFER_SIZE, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { Hop, hop } from '../adapters/hopProbe';

export class GatewayStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Offered each message's JSON value before the schema check; true when it was handled. */
  take?: (value: unknown) => boolean;

  private buffer: Buffer | undefined;
  private started = false;

  constructor(
    private readonly stdin: NodeJS.ReadableStream = process.stdin,
    private readonly stdout: NodeJS.WritableStream = process.stdout,
    private readonly maxBufferSize = STDIO_DEFAULT_MAX_BUFFER_SIZE,
  ) {}

  async start(): Promise<void> {
    if (this.started) throw new Error('GatewayStdioTransport already started');
    this.started = true;
    this.stdin.on('data', this.ondata);
    this.stdin.on('error', this.onStdinError);
  }

  private readonly ondata = (chunk: Buffer): void => {
    hop(Hop.RequestRead);
    const size = (this.buffer?.length ?? 0) + chunk.length;
    if (size > this.maxBufferSize) {
      // The SDK's ReadBuffer: the data is dropped and the transport closes.
      this.buffer = undefined;
      this.onerror?.(new Error(`ReadBuffer exceeded maximum size of ${this.maxBufferSize} bytes`));
      void this.close();
      return;
    }
    this.buffer = this.buffer?.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    for (;;) {
      const buffer: Buffer | undefined = this.buffer;
      const newline: number = buffer ? buffer.indexOf(0x0a) : -1;
      if (!buffer || newline === -1) return;
      let line = buffer.toString('utf8', 0, newline);
      if (line.endsWith('\r')) line = line.slice(0, -1);
      // The common chunk is one whole message: nothing left over, no empty view made of it.
      this.buffer = newline + 1 === buffer.length ? undefined : buffer.subarray(newline + 1);
      this.deliver(line);
    }
  };

  /** As the SDK's processReadBuffer: whatever throws (the line, the schema, a handler) is reported, and reading goes on. */
  private deliver(line: string): void {
    try {
      const value: unknown = JSON.parse(line);
      if (this.take?.(value)) return;
      this.onmessage?.(JSONRPCMessageSchema.parse(value));
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private readonly onStdinError = (error: Error): void => {
    this.onerror?.(error);
  };

  async close(): Promise<void> {
    this.stdin.off('data', this.ondata);
    this.stdin.off('error', this.onStdinError);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.buffer = undefined;
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      const line = serializeMessage(message);
      hop(Hop.ReplyWritten);
      const written = this.stdout.write(line);
      hop(Hop.ReplyWriteReturned);
      if (written) resolve();
      else this.stdout.once('drain', resolve);
    });
  }
}
