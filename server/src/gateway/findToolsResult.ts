/**
 * Turns a search response into what find_tools returns: the same object as structured
 * content and as compact JSON text, with third-party descriptions cut short, inputs inline
 * where they help (below), token figures that count the text they sit in, and, when nothing
 * matched, what to try instead.
 *
 * What each hit carries depends on how close it scores to the first (core/rankConfidence.ts):
 * a hit far below it is rarely the one called, so it gets its name and a short line, and its
 * inputs would cost as much as a close one's. Inputs inline, format "schema": when the
 * ranking is confident in its first hit, that hit carries its full input schema — the agent
 * will most likely call it next — and the others none; when it is not, the close top hits
 * carry compact TypeScript-style signatures, enough to choose between them and write the
 * call, and get_tool_schema gives the full schema (`inlineSchemas` caps how many hits carry
 * either). Format "signature" (for run_code): every close hit its input and output types.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { NoMatchHint, SearchResponse, TokenMetrics } from '../../../protocol/model';
import type { CatalogTool } from '../core/catalog';
import { savingsPercent } from '../core/tokens';
import { TRUNCATED_MARK, capLength, stripControls } from '../../../protocol/untrustedText';
import { selfCountingTokens } from './savings';
import { schemaSignature } from '../core/schemaSignature';
import { closeCount, isConfident } from '../core/rankConfidence';
import { plural } from '../../../protocol/figureText';

/** How find_tools gives each hit's input: JSON Schema for the top hits, or a signature for all. */
export type InputFormat = 'schema' | 'signature';
/** Characters of each parameter's description kept in a signature. */
export const SIGNATURE_DESCRIPTION_CHARS = 48;
/** A tool's description in the signature format: enough to choose, the types say the rest. */
const SIGNATURE_TOOL_DESCRIPTION_CHARS = 160;
/** A far hit's description (any format): enough to tell what it is, should the close ones not fit. */
export const FAR_DESCRIPTION_CHARS = 100;

/** Descriptions are untrusted third-party text and can be huge; this much is plenty to choose. */
export const MAX_DESCRIPTION_CHARS = 500;
export { TRUNCATED_MARK };
/** A schema larger than this (as JSON) is not inlined: it would cost more than the search saves. */
export const MAX_INLINE_SCHEMA_CHARS = 8000;

export interface FindToolsMatch {
  name: string;
  /** Absent in the signature format (the name starts with it). */
  server?: string;
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
  /** Only when nothing matched: what to do instead, for the agent. */
  no_match?: FindToolsNoMatch;
}

/** The agent's form of core/noMatchHint.ts (the palette shows the same hint its own way). */
export interface FindToolsNoMatch {
  hint: string;
  /** Tools whose name is close to a word of the query. */
  close_names?: string[];
  /** Servers whose tools are not searched right now, and why. */
  not_searched?: string[];
  /** Servers not connected now whose tools were searched as they listed them last. */
  searched_from_last_known?: string[];
  /** Each searchable server with the words its tools use: words to search with. */
  servers?: string[];
}

/** The first sentence of every no-match answer. */
export const NO_MATCH_HINT =
  'No tool matches this request. Rephrase it with the words the servers\' tools use (listed below), narrow it with "server", or call list_servers for what each server offers.';
/** Servers named in a no-match answer at most (their words cost ~15 tokens each). */
const NO_MATCH_SERVERS = 30;

export function truncateDescription(text: string, max = MAX_DESCRIPTION_CHARS): string {
  // Control characters, escape sequences and bidi overrides have no business in a description.
  return capLength(stripControls(text), max);
}

/** Builds the find_tools result; `returnedTokens` is what the client pays for its text. */
export function renderFindTools(
  response: SearchResponse,
  findTool: (name: string) => CatalogTool | undefined,
  inlineSchemas: number,
  baselineTokens: number | undefined,
  inputFormat: InputFormat = 'schema',
): { result: CallToolResult; returnedTokens: number } {
  const scores = response.hits.map((h) => h.score);
  const confident = isConfident(scores);
  const close = closeCount(scores);
  const matches: FindToolsMatch[] = response.hits.map((hit, i) => {
    if (i >= close) return farMatch(hit, inputFormat);
    if (inputFormat === 'signature') return signatureMatch(hit, findTool(hit.name));
    const m: FindToolsMatch = {
      name: hit.name,
      server: hit.server,
      description: truncateDescription(hit.description),
      score: Math.round(hit.score * 1000) / 1000,
      why: truncateDescription(hit.why, 200),
      signals: hit.signals,
    };
    if (i >= inlineSchemas) return m;
    const schema = hit.inputSchema ?? findTool(hit.name)?.inputSchema;
    if (confident) {
      if (i > 0 || !schema) return m;
      const size = JSON.stringify(schema).length;
      if (size <= MAX_INLINE_SCHEMA_CHARS) m.input_schema = schema;
      else m.input_schema_omitted = `${size} characters; call get_tool_schema("${hit.name}") for it`;
    } else {
      m.input = schemaSignature(schema, { descriptions: SIGNATURE_DESCRIPTION_CHARS });
    }
    return m;
  });
  const output = (returned: number): FindToolsOutput => {
    const out: FindToolsOutput = { query: response.query, search_mode: response.mode.label, matches };
    if (response.starting?.length) {
      const names = response.starting.map((n) => truncateDescription(n, 64)).join(', ');
      out.servers_starting = `${names}: still starting, so their tools are not in this answer yet; search again in a moment (list_servers shows their state).`;
    }
    if (response.noMatch) out.no_match = noMatchForAgent(response.noMatch);
    // The signature format is the lean one for writing code: the savings figures stay in the stats.
    // No baseline yet (an organisation's catalog still being counted): no figures rather than wrong ones.
    if (inputFormat !== 'signature' && baselineTokens !== undefined)
      out.token_metrics = {
        baseline_tokens: baselineTokens,
        returned_tokens: returned,
        savings_percent: savingsPercent(baselineTokens, returned),
      };
    return out;
  };
  const { text, tokens } = selfCountingTokens((returned) => JSON.stringify(output(returned)));
  const structured = JSON.parse(text) as FindToolsOutput;
  return { result: { content: [{ type: 'text', text }], structuredContent: structured }, returnedTokens: tokens };
}

/**
 * A close match in the signature format, for writing calls and run_code scripts: what it does
 * and its types. No server: a listed name starts with its server's (core/toolNames.ts).
 */
function signatureMatch(hit: SearchResponse['hits'][number], tool: CatalogTool | undefined): FindToolsMatch {
  const m: FindToolsMatch = {
    name: hit.name,
    description: truncateDescription(hit.description, SIGNATURE_TOOL_DESCRIPTION_CHARS),
    input: schemaSignature(hit.inputSchema ?? tool?.inputSchema, { descriptions: SIGNATURE_DESCRIPTION_CHARS }),
  };
  if (tool?.outputSchema !== undefined) m.output = schemaSignature(tool.outputSchema, { maxDepth: 2, maxLength: 200 });
  return m;
}

/** A hit far below the first: its name and what it is, in a line (its score too in the schema format, so the gap shows). */
function farMatch(hit: SearchResponse['hits'][number], inputFormat: InputFormat): FindToolsMatch {
  const description = truncateDescription(firstSentence(hit.description), FAR_DESCRIPTION_CHARS);
  if (inputFormat === 'signature') return { name: hit.name, description };
  return { name: hit.name, server: hit.server, description, score: Math.round(hit.score * 1000) / 1000 };
}

/** The first sentence of a description (a full stop, "!" or "?" before a space or a line end): what a tool is. */
function firstSentence(text: string): string {
  const end = /[.!?](\s|$)/.exec(text);
  return end ? text.slice(0, end.index + 1) : text;
}

/** The no-match hint as the agent reads it; every name and word is third-party text, cut and cleaned. */
function noMatchForAgent(hint: NoMatchHint): FindToolsNoMatch {
  const out: FindToolsNoMatch = { hint: NO_MATCH_HINT };
  if (hint.closeNames.length) out.close_names = hint.closeNames.map((h) => truncateDescription(h.name, 64));
  if (hint.unavailable.length) {
    out.not_searched = atMostServers(
      hint.unavailable,
      (s) =>
        `${truncateDescription(s.name, 64)}: ${s.state}${s.error ? ` (${truncateDescription(s.error, 120)})` : ''}`,
    );
  }
  if (hint.lastKnown?.length)
    out.searched_from_last_known = atMostServers(
      hint.lastKnown,
      (s) => `${truncateDescription(s.name, 64)}: ${s.state}`,
    );
  if (hint.servers.length) {
    out.servers = hint.servers
      .slice(0, NO_MATCH_SERVERS)
      .map((s) => truncateDescription(`${s.name} (${plural(s.tools, 'tool')}): ${s.words.join(', ')}`, 160));
  }
  return out;
}

/**
 * The first NO_MATCH_SERVERS servers of a list, and a line for the rest: an organisation's
 * gateway has thousands of servers stopped or starting, and a no-match answer naming each one
 * would cost the agent tens of thousands of tokens.
 */
function atMostServers<T>(servers: readonly T[], line: (server: T) => string): string[] {
  const shown = servers.slice(0, NO_MATCH_SERVERS).map(line);
  const rest = servers.length - shown.length;
  if (rest > 0) shown.push(`…and ${plural(rest, 'more server')} (list_servers shows each one's state)`);
  return shown;
}
