import type { Prompt, Resource, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import type { ToolSummary } from '../../../protocol/model';

/**
 * The internal record of one upstream tool, prompt or resource once it is in the catalog.
 * `key` is `server + "/" + originalName` (compared whole, never split); `name` is the
 * client-safe unique name the gateway exposes.
 */
export interface CatalogTool extends ToolSummary {
  key: string;
  outputSchema?: Record<string, unknown>;
  /** Passed on as the upstream listed them. */
  icons?: unknown[];
  _meta?: Record<string, unknown>;
}

/**
 * Prompts, resources and templates in the protocol's own shape (the SDK's types), as the gateway
 * lists them, beside whose each is and what the upstream calls it. `name` of a prompt is its
 * client-safe name; `uri` of a resource the one the gateway exposes
 * (`mcp-lens://<server>/<encoded original uri>`), `uriTemplate` of a template likewise
 * (core/resourceUris.ts).
 */
export type CatalogPrompt = Prompt & { server: string; originalName: string };
export type CatalogResource = Resource & { server: string; originalUri: string };
export type CatalogResourceTemplate = ResourceTemplate & { server: string; originalTemplate: string };

/** A catalog prompt as a client receives it: the protocol's fields, without whose it is. */
export function listedPrompt({ server: _, originalName: __, ...prompt }: CatalogPrompt): Prompt {
  return prompt;
}

export function listedResource({ server: _, originalUri: __, ...resource }: CatalogResource): Resource {
  return resource;
}

export function listedTemplate({
  server: _,
  originalTemplate: __,
  ...template
}: CatalogResourceTemplate): ResourceTemplate {
  return template;
}

export function toolKey(server: string, originalName: string): string {
  return `${server}/${originalName}`;
}
