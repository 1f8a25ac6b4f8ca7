/**
 * Requests a front door forwards to the one upstream that owns what they name, under MCP Lens's
 * names: a prompt by its catalog name; a resource URI (listed, a template's expansion, or encoded
 * whole: see core/resourceUris.ts); a completion by its reference (our prompt name or our
 * template URI), each on the connection of the principal that asks (adapters/upstream/pool.ts).
 * Only what the catalog lists and a running server serves is forwarded; the reply
 * is untrusted text, cleaned here as call results are in toolCalls.ts. (Tool calls have their own
 * path, toolCalls.ts; what upstreams ask back, upstreamRequests.ts.)
 */
import {
  ErrorCode,
  McpError,
  type CompleteRequest,
  type CompleteResult,
  type GetPromptResult,
  type ReadResourceResult,
} from '@modelcontextprotocol/sdk/types.js';
import { cleanReplyInPlace, capLength } from '../../../protocol/untrustedText';
import type { CatalogResourceTemplate } from '../core/catalog';
import { resolveResourceUri } from '../core/resourceUris';
import type { UpstreamPool } from '../adapters/upstream/pool';
import type { Principal } from '../core/principal';
import type { UpstreamCaller } from '../adapters/upstream/types';
import { passOnMissingCapability } from './toolCalls';
import { catalogResourceTemplates, type Catalog } from './catalogBuilder';

export interface UpstreamForwardingOptions {
  pool: UpstreamPool;
  catalog(): Catalog;
  /** Whether the server runs under MCP Lens (is admitted), started or not. */
  isRunning(server: string): boolean;
}

/** Rethrows: a missing client capability as that protocol error (toolCalls.ts), anything else as it came. */
function passOn(err: unknown, what: string): never {
  passOnMissingCapability(err, what);
  throw err;
}

export class UpstreamForwarding {
  private memo: { from: string; templates: CatalogResourceTemplate[] } | undefined;

  constructor(private readonly o: UpstreamForwardingOptions) {}

  async getPrompt(
    name: string,
    args: Record<string, string>,
    principal?: Principal,
    caller?: UpstreamCaller,
  ): Promise<GetPromptResult> {
    const prompt = this.o.catalog().prompts.find((p) => p.name === name);
    if (!prompt) throw new Error(`Unknown prompt "${name}"`);
    const result = await this.o.pool
      .getPrompt(prompt.server, prompt.originalName, args, principal, caller)
      .catch((err: unknown) => passOn(err, `prompt "${prompt.originalName}" on server "${prompt.server}"`));
    return cleanReplyInPlace(result);
  }

  /** Every running upstream's templates, under our scheme. */
  resourceTemplates(): CatalogResourceTemplate[] {
    const upstream = this.o.pool.resourceTemplates().filter((t) => this.o.isRunning(t.server));
    const from = JSON.stringify(upstream);
    if (this.memo?.from !== from) this.memo = { from, templates: catalogResourceTemplates(upstream) };
    return this.memo.templates;
  }

  /** Server and upstream URI of one of our resource URIs; undefined when it is not ours or its server does not run. */
  resolveUri(uri: string): { server: string; originalUri: string } | undefined {
    const resources = this.o.catalog().resources;
    const templates = this.resourceTemplates();
    const target = resolveResourceUri(
      uri,
      (server, originalUri) => resources.some((r) => r.server === server && r.originalUri === originalUri),
      (server) => templates.filter((t) => t.server === server).map((t) => t.originalTemplate),
    );
    return target && this.o.isRunning(target.server) ? target : undefined;
  }

  async readResource(uri: string, principal?: Principal, caller?: UpstreamCaller): Promise<ReadResourceResult> {
    const target = this.resolveUri(uri);
    if (!target) throw new Error(`Unknown resource "${uri}"`);
    const result = await this.o.pool
      .readResource(target.server, target.originalUri, principal, caller)
      .catch((err: unknown) => passOn(err, `resource on server "${target.server}"`));
    return cleanReplyInPlace(result);
  }

  async complete(params: CompleteRequest['params'], principal?: Principal): Promise<CompleteResult> {
    const { ref } = params;
    if (ref.type === 'ref/prompt') {
      const prompt = this.o.catalog().prompts.find((p) => p.name === ref.name);
      if (!prompt) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt "${capLength(ref.name, 200)}"`);
      return cleanReplyInPlace(
        await this.o.pool.complete(prompt.server, { ...params, ref: { ...ref, name: prompt.originalName } }, principal),
      );
    }
    const template = this.resourceTemplates().find((t) => t.uriTemplate === ref.uri);
    const target = template
      ? { server: template.server, originalUri: template.originalTemplate }
      : this.resolveUri(ref.uri);
    if (!target) throw new McpError(ErrorCode.InvalidParams, `Unknown resource template "${capLength(ref.uri, 200)}"`);
    return cleanReplyInPlace(
      await this.o.pool.complete(target.server, { ...params, ref: { ...ref, uri: target.originalUri } }, principal),
    );
  }
}
