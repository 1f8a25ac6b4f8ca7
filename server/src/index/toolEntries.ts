/**
 * What the index embeds for each tool and the hash that decides whether it must be embedded
 * again: sha256 over the embedded text and the input schema (keys sorted, so a server that
 * reorders its JSON does not cost a re-embed).
 */
import { createHash } from 'node:crypto';
import type { CatalogTool } from '../core/catalog';
import { embeddingText } from '../core/search/documentText';

export interface ToolEntry {
  tool: CatalogTool;
  text: string;
  schemaJson: string;
  hash: string;
}

export function toolEntry(tool: CatalogTool): ToolEntry {
  const text = embeddingText(tool);
  const schemaJson = stableJson(tool.inputSchema);
  return { tool, text, schemaJson, hash: createHash('sha256').update(text).update('\n\0').update(schemaJson).digest('hex') };
}

/** JSON with object keys sorted at every depth. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
