/**
 * The gateway over stdio: one session for the life of the process (2025-era clients open it with
 * initialize; 2026-07-28 requests are served beside it, modern/modernStdio.ts). stdout carries
 * MCP messages only; logs go through the Logger (stderr in the CLI).
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Lens } from '../app/lens';
import type { Logger } from '../core/logger';
import { Gateway } from './gateway';
import { routeModernStdio } from './modern/modernStdio';

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
  // 2026-07-28 requests on the same pipe are served statelessly beside the session (modern/).
  routeModernStdio(gateway, transport);
  return {
    gateway,
    closed,
    async close() {
      await gateway.close();
      await transport.close();
    },
  };
}
