/**
 * The gateway over stdio: one session for the life of the process. stdout carries MCP
 * messages only; logs go through the Logger (stderr in the CLI).
 */
import type { Lens } from '../app/lens';
import type { Logger } from '../core/logger';
import { Gateway } from './gateway';
import { GatewayStdioTransport } from './stdioTransport';

export interface StdioGateway {
  gateway: Gateway;
  /** Resolves when the client closes stdin or the transport fails. */
  closed: Promise<void>;
  close(): Promise<void>;
}

export async function serveStdio(lens: Lens, log: Logger): Promise<StdioGateway> {
  const gateway = new Gateway({ lens, log });
  const transport = new GatewayStdioTransport();
  let markClosed!: () => void;
  const closed = new Promise<void>((resolve) => (markClosed = resolve));
  transport.onclose = () => markClosed();
  // The transport does not notice the end of stdin by itself (nor does the SDK's).
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
