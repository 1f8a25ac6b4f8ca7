/**
 * What the index embeds for each tool and the hash that decides whether it must be embedded
 * again: sha256 over the embedded text and the input schema (keys sorted, so a server that
 * reorders its JSON does not cost a re-embed).
 */
import { createHash } from 'node:crypto';
import type { CatalogTool } from '../core/catalog';
import { embeddingText } from '../core/search/documentText';

/**
 * A catalog tool and its hash. The text and schema JSON are not kept: at 2,220 tools they
 * would be a second copy of every description and schema for the life of the index, and they
 * are only needed for the few tools being embedded (`embeddingInput` rebuilds them).
 */
export interface ToolEntry {
  tool: CatalogTool;
  hash: string;
}

/** What is embedded and stored for a tool. */
export interface EmbeddingInput {
  text: string;
  schemaJson: string;
}

export function embeddingInput(tool: CatalogTool): EmbeddingInput {
  return { text: embeddingText(tool), schemaJson: stableJson(tool.inputSchema) };
}

export function toolEntry(tool: CatalogTool): ToolEntry {
  const { text, schemaJson } = embeddingInput(tool);
  return { tool, hash: createHash('sha256').update(text).update('\n\0').update(schemaJson).digest('hex') };
}

/** JSON with object keys sorted at every depth. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : v,
  );
}
