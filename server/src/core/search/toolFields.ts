/**
 * The searchable fields of a tool. Kept separate so the keyword index (BM25F weights per
 * field) and the embedding text agree on what a tool "says".
 */
import type { CatalogTool } from '../catalog';

export interface ToolFields {
  /** The tool's own name (and title): the strongest evidence of what it does. */
  name: string;
  /** The server it belongs to: often the product or domain (`github`, `weather`). */
  server: string;
  description: string;
  /** Input-schema property names and descriptions (top level and one level down). */
  params: string;
  /**
   * The names and descriptions of the other tools of the same server: a server is one product
   * or domain, so a query about that domain is evidence for each of its tools. Filled by the
   * index (it needs the whole catalog).
   */
  context: string;
}

export const FIELD_NAMES = ['name', 'server', 'description', 'params', 'context'] as const;
export type FieldName = (typeof FIELD_NAMES)[number];

export function toolFields(tool: CatalogTool): ToolFields {
  return {
    name: tool.title ? `${tool.originalName} ${tool.title}` : tool.originalName,
    server: tool.server,
    description: tool.description,
    params: schemaText(tool.inputSchema, 1).join(' '),
    context: '',
  };
}

/** Property names and descriptions of a JSON schema, descending `depth` levels into objects and arrays. */
function schemaText(schema: unknown, depth: number): string[] {
  const props = (schema as { properties?: unknown } | null)?.properties;
  if (!props || typeof props !== 'object') return [];
  const out: string[] = [];
  for (const [name, value] of Object.entries(props as Record<string, unknown>)) {
    out.push(name);
    const v = value as { description?: unknown; items?: unknown } | null;
    if (typeof v?.description === 'string') out.push(v.description);
    if (depth > 0) out.push(...schemaText(v, depth - 1), ...schemaText(v?.items, depth - 1));
  }
  return out;
}

/** A JSON schema's `properties`, or none. */
export function propertiesOf(schema: unknown): Record<string, unknown> {
  const props = (schema as { properties?: unknown } | null)?.properties;
  return props && typeof props === 'object' ? (props as Record<string, unknown>) : {};
}

/** String values of a JSON schema (descriptions, defaults, examples, enums), `depth` levels into properties and items. */
export function schemaStrings(schema: unknown, depth: number): string[] {
  const out: string[] = [];
  const walk = (v: unknown, d: number): void => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) for (const x of v) walk(x, d);
    else if (v && typeof v === 'object' && d >= 0)
      for (const [k, x] of Object.entries(v as Record<string, unknown>))
        walk(x, k === 'properties' || k === 'items' ? d - 1 : d);
  };
  walk(schema, depth);
  return out;
}
