/**
 * Turns a search response into what find_tools returns: the same object as structured
 * content and as compact JSON text, with third-party descriptions cut short, the top
 * matches' input schemas inline, and token figures that count the text they sit in.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { SearchResponse, TokenMetrics } from '../../../protocol/model';
import type { CatalogTool } from '../core/catalog';
import { savingsPercent } from '../core/tokens';
import { TRUNCATED_MARK, capLength, stripControls } from '../../../protocol/untrustedText';
import { selfCountingTokens } from './savings';
import { schemaSignature } from '../core/schemaSignature';

/** How find_tools gives each hit's input: JSON Schema for the top hits, or a signature for all. */
export type InputFormat = 'schema' | 'signature';
/** Characters of each parameter's description kept in a signature. */
export const SIGNATURE_DESCRIPTION_CHARS = 48;
/** A tool's description in the signature format: enough to choose, the types say the rest. */
const SIGNATURE_TOOL_DESCRIPTION_CHARS = 160;

/** Descriptions are untrusted third-party text and can be huge; this much is plenty to choose. */
export const MAX_DESCRIPTION_CHARS = 500;
export { TRUNCATED_MARK };
/** A schema larger than this (as JSON) is not inlined: it would cost more than the search saves. */
export const MAX_INLINE_SCHEMA_CHARS = 8000;

export interface FindToolsMatch {
  name: string;
  server: string;
  description: string;
  /** score, why and signals are absent in the signature format: they do not help write a call. */
  score?: number;
  why?: string;
  /** Which signals ranked it: keyword, meaning (embeddings), usage (this workspace's history). */
  signals?: string[];
  input_schema?: Record<string, unknown>;
  /** The input as a compact TypeScript-style type (input_format "signature"), for every match. */
  input?: string;
  /** The result's type, when the tool has an output schema (input_format "signature"). */
  output?: string;
  /** Set instead of input_schema when the schema is too large to inline. */
  input_schema_omitted?: string;
}

export interface FindToolsOutput {
  [key: string]: unknown;
  query: string;
  search_mode: string;
  matches: FindToolsMatch[];
  /** Absent in the signature format. */
  token_metrics?: TokenMetrics;
}

export function truncateDescription(text: string, max = MAX_DESCRIPTION_CHARS): string {
  // Control characters, escape sequences and bidi overrides have no business in a description.
  return capLength(stripControls(text), max);
}

/** Builds the find_tools result; `returnedTokens` is what the client pays for its text. */
export function renderFindTools(
  response: SearchResponse,
  findTool: (name: string) => CatalogTool | undefined,
  inlineSchemas: number,
  baselineTokens: number,
  inputFormat: InputFormat = 'schema',
): { result: CallToolResult; returnedTokens: number } {
  const matches: FindToolsMatch[] = response.hits.map((hit, i) => {
    if (inputFormat === 'signature') return signatureMatch(hit, findTool(hit.name));
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
      const size = schema ? JSON.stringify(schema).length : 0;
      if (schema && size <= MAX_INLINE_SCHEMA_CHARS) m.input_schema = schema;
      else if (schema) m.input_schema_omitted = `${size} characters; call get_tool_schema("${hit.name}") for it`;
    }
    return m;
  });
  const output = (returned: number): FindToolsOutput => {
    const out: FindToolsOutput = { query: response.query, search_mode: response.mode.label, matches };
    if (response.starting?.length) {
      const names = response.starting.map((n) => truncateDescription(n, 64)).join(', ');
      out.servers_starting = `${names}: still starting, so their tools are not in this answer yet; search again in a moment (list_servers shows their state).`;
    }
    // The signature format is the lean one for writing code: the savings figures stay in the stats.
    if (inputFormat !== 'signature') out.token_metrics = { baseline_tokens: baselineTokens, returned_tokens: returned, savings_percent: savingsPercent(baselineTokens, returned) };
    return out;
  };
  const { text, tokens } = selfCountingTokens((returned) => JSON.stringify(output(returned)));
  const structured = JSON.parse(text) as FindToolsOutput;
  return { result: { content: [{ type: 'text', text }], structuredContent: structured }, returnedTokens: tokens };
}

/** A match in the signature format, for writing calls and run_code scripts: what it does and its types. */
function signatureMatch(hit: SearchResponse['hits'][number], tool: CatalogTool | undefined): FindToolsMatch {
  const m: FindToolsMatch = {
    name: hit.name,
    server: hit.server,
    description: truncateDescription(hit.description, SIGNATURE_TOOL_DESCRIPTION_CHARS),
    input: schemaSignature(hit.inputSchema ?? tool?.inputSchema, { descriptions: SIGNATURE_DESCRIPTION_CHARS }),
  };
  if (tool?.outputSchema !== undefined) m.output = schemaSignature(tool.outputSchema, { maxDepth: 2, maxLength: 200 });
  return m;
}
