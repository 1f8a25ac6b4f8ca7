/**
 * Turns a search response into what find_tools returns: the same object as structured
 * content and as compact JSON text, with third-party descriptions cut short, the top
 * matches' input schemas inline, and token figures that count the text they sit in.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { SearchResponse, TokenMetrics } from '../../../protocol/model';
import type { CatalogTool } from '../core/catalog';
import { savingsPercent } from '../core/tokens';
import { selfCountingTokens } from './savings';

/** Descriptions are untrusted third-party text and can be huge; this much is plenty to choose. */
export const MAX_DESCRIPTION_CHARS = 500;
export const TRUNCATED_MARK = '…[truncated]';

export interface FindToolsMatch {
  name: string;
  server: string;
  description: string;
  score: number;
  why: string;
  /** Which signals ranked it: keyword, meaning (embeddings), usage (this workspace's history). */
  signals: string[];
  input_schema?: Record<string, unknown>;
}

export interface FindToolsOutput {
  [key: string]: unknown;
  query: string;
  search_mode: string;
  matches: FindToolsMatch[];
  token_metrics: TokenMetrics;
}

export function truncateDescription(text: string, max = MAX_DESCRIPTION_CHARS): string {
  // Control characters have no business in a description and can upset terminals and UIs.
  const clean = text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '');
  if (clean.length <= max) return clean;
  return clean.slice(0, max).trimEnd() + TRUNCATED_MARK;
}

/** Builds the find_tools result; `returnedTokens` is what the client pays for its text. */
export function renderFindTools(
  response: SearchResponse,
  findTool: (name: string) => CatalogTool | undefined,
  inlineSchemas: number,
  baselineTokens: number,
): { result: CallToolResult; returnedTokens: number } {
  const matches: FindToolsMatch[] = response.hits.map((hit, i) => {
    const m: FindToolsMatch = {
      name: hit.name,
      server: hit.server,
      description: truncateDescription(hit.description),
      score: Math.round(hit.score * 1000) / 1000,
      why: truncateDescription(hit.why, 200),
      signals: hit.signals,
    };
    if (i < inlineSchemas) {
      const schema = hit.inputSchema ?? findTool(hit.name)?.inputSchema;
      if (schema) m.input_schema = schema;
    }
    return m;
  });
  const output = (returned: number): FindToolsOutput => ({
    query: response.query,
    search_mode: response.mode.label,
    matches,
    token_metrics: { baseline_tokens: baselineTokens, returned_tokens: returned, savings_percent: savingsPercent(baselineTokens, returned) },
  });
  const { text, tokens } = selfCountingTokens((returned) => JSON.stringify(output(returned)));
  const structured = JSON.parse(text) as FindToolsOutput;
  return { result: { content: [{ type: 'text', text }], structuredContent: structured }, returnedTokens: tokens };
}
