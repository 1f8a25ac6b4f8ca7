/**
 * Requests a front door forwards to the one upstream that owns what they name: a prompt by its
 * catalog name, a resource by its `mcp-lens://` URI. Only what the catalog lists and a running
 * server serves is forwarded; the reply is untrusted text, cleaned here as call results are in
 * toolCalls.ts. (Tool calls have their own path, toolCalls.ts.)
 */
import type { GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { cleanReplyInPlace } from '../../../protocol/untrustedText';
import type { UpstreamPool } from '../adapters/upstream/pool';
import { parseResourceUri, type Catalog } from './catalogBuilder';

export interface UpstreamForwardingOptions {
  pool: UpstreamPool;
  catalog(): Catalog;
  /** Whether the server runs under MCP Lens (is admitted), started or not. */
  isRunning(server: string): boolean;
}

export class UpstreamForwarding {
  constructor(private readonly o: UpstreamForwardingOptions) {}

  async getPrompt(name: string, args: Record<string, string>): Promise<GetPromptResult> {
    const prompt = this.o.catalog().prompts.find((p) => p.name === name);
    if (!prompt) throw new Error(`Unknown prompt "${name}"`);
    return cleanReplyInPlace(await this.o.pool.getPrompt(prompt.server, prompt.originalName, args));
  }

  async readResource(uri: string): Promise<ReadResourceResult> {
    const parsed = parseResourceUri(uri);
    if (!parsed || !this.o.isRunning(parsed.server)) throw new Error(`Unknown resource "${uri}"`);
    return cleanReplyInPlace(await this.o.pool.readResource(parsed.server, parsed.originalUri));
  }
}
