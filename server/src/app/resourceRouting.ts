/**
 * Resources, resource templates and completions under MCP Lens's names, routed to the server
 * that owns them: a resource URI (listed, a template's expansion, or encoded whole: see
 * core/resourceUris.ts), a completion by its reference (our prompt name or our template URI).
 * Replies are upstream text and are cleaned as call results are (app/toolCalls.ts).
 */
import { ErrorCode, McpError, type CompleteRequest, type CompleteResult, type ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { cleanReplyInPlace, capLength } from '../../../protocol/untrustedText';
import type { CatalogPrompt, CatalogResource, CatalogResourceTemplate } from '../core/catalog';
import { resolveResourceUri } from '../core/resourceUris';
import type { UpstreamPool } from '../adapters/upstream/pool';
import { catalogResourceTemplates } from './catalogBuilder';

export interface ResourceRoutingDeps {
  pool: UpstreamPool;
  prompts(): readonly CatalogPrompt[];
  resources(): readonly CatalogResource[];
  /** Whether a server runs under MCP Lens now (approved, not removed). */
  isRunning(server: string): boolean;
}

export class ResourceRouting {
  private memo: { from: string; templates: CatalogResourceTemplate[] } | undefined;

  constructor(private readonly deps: ResourceRoutingDeps) {}

  /** Every running upstream's templates, under our scheme. */
  resourceTemplates(): CatalogResourceTemplate[] {
    const upstream = this.deps.pool.resourceTemplates().filter((t) => this.deps.isRunning(t.server));
    const from = JSON.stringify(upstream);
    if (this.memo?.from !== from) this.memo = { from, templates: catalogResourceTemplates(upstream) };
    return this.memo.templates;
  }

  /** Server and upstream URI of one of our resource URIs; undefined when it is not ours or its server does not run. */
  resolveUri(uri: string): { server: string; originalUri: string } | undefined {
    const resources = this.deps.resources();
    const templates = this.resourceTemplates();
    const target = resolveResourceUri(
      uri,
      (server, originalUri) => resources.some((r) => r.server === server && r.originalUri === originalUri),
      (server) => templates.filter((t) => t.server === server).map((t) => t.originalTemplate),
    );
    return target && this.deps.isRunning(target.server) ? target : undefined;
  }

  async readResource(uri: string): Promise<ReadResourceResult> {
    const target = this.resolveUri(uri);
    if (!target) throw new Error(`Unknown resource "${uri}"`);
    return cleanReplyInPlace(await this.deps.pool.readResource(target.server, target.originalUri));
  }

  async complete(params: CompleteRequest['params']): Promise<CompleteResult> {
    const { ref } = params;
    if (ref.type === 'ref/prompt') {
      const prompt = this.deps.prompts().find((p) => p.name === ref.name);
      if (!prompt) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt "${capLength(ref.name, 200)}"`);
      return cleanReplyInPlace(await this.deps.pool.complete(prompt.server, { ...params, ref: { ...ref, name: prompt.originalName } }));
    }
    const template = this.resourceTemplates().find((t) => t.uriTemplate === ref.uri);
    const target = template ? { server: template.server, originalUri: template.originalTemplate } : this.resolveUri(ref.uri);
    if (!target) throw new McpError(ErrorCode.InvalidParams, `Unknown resource template "${capLength(ref.uri, 200)}"`);
    return cleanReplyInPlace(await this.deps.pool.complete(target.server, { ...params, ref: { ...ref, uri: target.originalUri } }));
  }
}
