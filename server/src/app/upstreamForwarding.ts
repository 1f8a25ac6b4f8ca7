/**
 * Requests a front door forwards to the one upstream that owns what they name, under MCP Lens's
 * names: a prompt by its catalog name; a resource URI (listed, a template's expansion, or encoded
 * whole: see core/resourceUris.ts); a completion by its reference (our prompt name or our
 * template URI), each on the connection of the principal that asks (adapters/upstream/pool.ts);
 * an MCP App's `ui://` view by the URI its tool names (core/mcpApps.ts). Only what the catalog
 * lists and a running server serves is forwarded; the reply is untrusted text, cleaned here as
 * call results are in toolCalls.ts, and what it read is named by the URI the client asked for.
 * (Tool calls have their own
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
import type { CatalogPrompt, CatalogResourceTemplate } from '../core/catalog';
import { resolveResourceUri, resourceUri } from '../core/resourceUris';
import { isUiUri } from '../core/mcpApps';
import type { UpstreamPool } from '../adapters/upstream/pool';
import type { Principal } from '../core/principal';
import type { UpstreamCaller } from '../adapters/upstream/types';
import { passOnMissingCapability } from './toolCalls';
import { catalogResourceTemplates, type Catalog } from './catalogBuilder';
import type { ListKind } from './lens';

export interface UpstreamForwardingOptions {
  pool: UpstreamPool;
  catalog(): Catalog;
  /** Whether the server runs under MCP Lens (is admitted), started or not. */
  isRunning(server: string): boolean;
  /** Waits for servers still listing `kind` for the first time (app/firstListings.ts). */
  whenListed(kind: ListKind): Promise<void>;
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
    const prompt = await this.prompt(name);
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
    const { resources, ui } = this.o.catalog();
    const view = ui.resolve(uri);
    if (view) return this.o.isRunning(view.server) ? { server: view.server, originalUri: view.uri } : undefined;
    const templates = this.resourceTemplates();
    const target = resolveResourceUri(
      uri,
      (server, originalUri) => resources.some((r) => r.server === server && r.originalUri === originalUri),
      (server) => templates.filter((t) => t.server === server).map((t) => t.originalTemplate),
    );
    return target && this.o.isRunning(target.server) ? target : undefined;
  }

  /** A prompt by our name; a server still listing for the first time may bring it. */
  private async prompt(name: string): Promise<CatalogPrompt | undefined> {
    const find = () => this.o.catalog().prompts.find((p) => p.name === name);
    const found = find();
    if (found) return found;
    await this.o.whenListed('prompts');
    return find();
  }

  async readResource(uri: string, principal?: Principal, caller?: UpstreamCaller): Promise<ReadResourceResult> {
    let target = this.resolveUri(uri);
    if (!target) {
      // A view's URI comes with its tools, a listed one with the resources.
      await Promise.all([this.o.whenListed('tools'), this.o.whenListed('resources')]);
      target = this.resolveUri(uri);
    }
    if (!target) throw new Error(`Unknown resource "${uri}"`);
    const server = target.server;
    const result = cleanReplyInPlace(
      await this.o.pool
        .readResource(server, target.originalUri, principal, caller)
        .catch((err: unknown) => passOn(err, `resource on server "${server}"`)),
    );
    // A client matches what it read to what it asked for (an MCP Apps host to its view) by URI:
    // the one it asked for, and any other the server names, as it would be read through MCP Lens.
    const { ui } = this.o.catalog();
    for (const content of result.contents ?? []) {
      if (typeof content.uri !== 'string') continue;
      if (content.uri === target.originalUri) content.uri = uri;
      else
        content.uri = isUiUri(content.uri)
          ? ui.exposed(target.server, content.uri)
          : resourceUri(target.server, content.uri);
    }
    return result;
  }

  async complete(params: CompleteRequest['params'], principal?: Principal): Promise<CompleteResult> {
    const { ref } = params;
    if (ref.type === 'ref/prompt') {
      const prompt = await this.prompt(ref.name);
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
