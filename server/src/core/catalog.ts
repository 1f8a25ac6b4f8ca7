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

export interface CatalogPrompt {
  name: string;
  server: string;
  originalName: string;
  description?: string;
  arguments?: { name: string; description?: string; required?: boolean }[];
  /** title, icons, _meta as the upstream listed them. */
  extra?: Record<string, unknown>;
}

export interface CatalogResource {
  /** The URI the gateway exposes: `mcp-lens://<server>/<encoded original uri>`. */
  uri: string;
  server: string;
  originalUri: string;
  name: string;
  description?: string;
  mimeType?: string;
  /** title, size, annotations, icons, _meta as the upstream listed them. */
  extra?: Record<string, unknown>;
}

export interface CatalogResourceTemplate {
  /** The template the gateway exposes (core/resourceUris.ts resourceTemplateUri). */
  uriTemplate: string;
  server: string;
  originalTemplate: string;
  name: string;
  description?: string;
  mimeType?: string;
  /** title, annotations, icons, _meta as the upstream listed them. */
  extra?: Record<string, unknown>;
}

export function toolKey(server: string, originalName: string): string {
  return `${server}/${originalName}`;
}
