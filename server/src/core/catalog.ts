import type { ToolSummary } from '../../../protocol/model';

/**
 * The internal record of one upstream tool, prompt or resource once it is in the catalog.
 * `key` is `server + "/" + originalName` (compared whole, never split); `name` is the
 * client-safe unique name the gateway exposes.
 */
export interface CatalogTool extends ToolSummary {
  key: string;
  outputSchema?: Record<string, unknown>;
}

export interface CatalogPrompt {
  name: string;
  server: string;
  originalName: string;
  description?: string;
  arguments?: { name: string; description?: string; required?: boolean }[];
}

export interface CatalogResource {
  /** The URI the gateway exposes: `mcp-lens://<server>/<encoded original uri>`. */
  uri: string;
  server: string;
  originalUri: string;
  name: string;
  description?: string;
  mimeType?: string;
}

export function toolKey(server: string, originalName: string): string {
  return `${server}/${originalName}`;
}
