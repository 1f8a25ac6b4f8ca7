/**
 * A bench's world: a real LensApp over a config file (keyword index in memory, embeddings
 * off, every server approved) behind a real Gateway, driven by an SDK client over an
 * in-memory transport, so a bench measures what an MCP client gets.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Lens } from '../../server/src/app/lens';
import { LensApp } from '../../server/src/app/lensApp';
import { silentLogger } from '../../server/src/core/logger';
import { Gateway } from '../../server/src/gateway/gateway';
import { inMemoryLensOptions } from './inMemoryLens';

export interface BenchGateway {
  lens: Lens;
  gateway: Gateway;
  client: Client;
  close(): Promise<void>;
}

/** `settings`: raw mcpLens settings on top of "embeddings off". */
export async function openBenchGateway(
  workspace: string,
  configFile: string,
  settings: Record<string, unknown> = {},
): Promise<BenchGateway> {
  const lens = await LensApp.start({ ...inMemoryLensOptions(workspace, settings), configFile });
  const { gateway, client } = await connectGatewayClient(lens, 'mcp-lens-bench');
  return {
    lens,
    gateway,
    client,
    async close() {
      await client.close();
      await gateway.close();
      await lens.close();
    },
  };
}

/** A Gateway on `lens` and an SDK client connected to it over an in-memory transport. */
export async function connectGatewayClient(
  lens: Lens,
  clientName: string,
): Promise<{ gateway: Gateway; client: Client }> {
  const gateway = new Gateway({ lens, log: silentLogger });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await gateway.connect(serverSide);
  const client = new Client({ name: clientName, version: '1.0.0' });
  await client.connect(clientSide);
  return { gateway, client };
}
