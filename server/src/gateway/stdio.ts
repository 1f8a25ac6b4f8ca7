/**
 * The gateway over stdio: one session for the life of the process. stdout carries MCP
 * messages only; logs go through the Logger (stderr in the CLI).
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Lens } from '../app/lens';
import type { Logger } from '../core/logger';
import { Gateway } from './gateway';

export interface StdioGateway {
  gateway: Gateway;
  /** Resolves when the client closes stdin or the transport fails. */
  closed: Promise<void>;
  close(): Promise<void>;
}

export async function serveStdio(lens: Lens, log: Logger): Promise<StdioGateway> {
  const gateway = new Gateway({ lens, log });
  const transport = new StdioServerTransport();
  let markClosed!: () => void;
  const closed = new Promise<void>((resolve) => (markClosed = resolve));
  transport.onclose = () => markClosed();
  // StdioServerTransport does not notice the end of stdin by itself.
  process.stdin.once('end', () => void transport.close());
  process.stdin.once('close', () => void transport.close());
  await gateway.connect(transport);
  return {
    gateway,
    closed,
    async close() {
      await gateway.close();
      await transport.close();
    },
  };
}
