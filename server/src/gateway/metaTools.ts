/**
 * What each meta-tool does once its request arrives. Arguments are checked here with
 * messages a model can act on; everything else is the Lens's job (name resolution, schema
 * validation, timeouts, usage recording). Tool arguments are never logged.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { CallOptions, Lens, SearchRequest } from '../app/lens';
import type { CatalogTool } from '../core/catalog';
import { closestNames, unknownToolMessage } from '../core/nameSuggestions';
import { SIGNATURE_DESCRIPTION_CHARS, renderFindTools, truncateDescription } from './findToolsResult';
import { toolSignature } from '../core/schemaSignature';
import { CALL_TOOL, FIND_TOOLS, GET_TOOL_SCHEMA, LIST_SERVERS, MAX_LIMIT, MAX_QUERY_CHARS } from './metaToolDefs';
import type { TokenAccounting } from './savings';
import type { ResultStore } from './resultStore';
import { parseShapeRequest, shapeResult, type ShapeRequest, type Shaped } from './shapeResult';
import { summarizeTools } from './serverSummary';

/** get_tool_schema returns descriptions up to this long (find_tools: MAX_DESCRIPTION_CHARS). */
export const MAX_SCHEMA_DESCRIPTION_CHARS = 8000;

export interface MetaToolContext {
  lens: Lens;
  accounting: TokenAccounting;
  /** This gateway's kept results (cut outputs), read per session. */
  results: ResultStore;
  sessionId: string;
  signal: AbortSignal;
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

export function errorText(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

function jsonText(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }] };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Runs a meta-tool; undefined when `name` is not one. */
export async function runMetaTool(name: string, args: Record<string, unknown>, ctx: MetaToolContext): Promise<CallToolResult | undefined> {
  switch (name) {
    case FIND_TOOLS:
      return findTools(args, ctx);
    case CALL_TOOL:
      return callTool(args, ctx);
    case GET_TOOL_SCHEMA:
      return getToolSchema(args, ctx.lens);
    case LIST_SERVERS:
      return listServers(ctx.lens);
    default:
      return undefined;
  }
}

/**
 * A direct call (pinned, all, predictive modes) or call_tool's: straight into the one call
 * path (Lens.callTool → app/toolCalls.ts), which owns every limit, check and the timeout.
 */
export function forwardCall(toolName: string, args: Record<string, unknown>, ctx: MetaToolContext): Promise<CallToolResult> {
  const options: CallOptions = { signal: ctx.signal, sessionId: ctx.sessionId, origin: 'gateway' };
  if (ctx.onProgress) options.onProgress = ctx.onProgress;
  return ctx.lens.callTool(toolName, args, options);
}

async function findTools(args: Record<string, unknown>, ctx: MetaToolContext): Promise<CallToolResult> {
  const { query, keywords, server, limit, input_format: inputFormat } = args;
  if (typeof query !== 'string' || query.trim() === '') return errorText('find_tools needs "query": the task in plain words, e.g. "add two numbers".');
  if (query.length > MAX_QUERY_CHARS) return errorText(`"query" is ${query.length} characters; the limit is ${MAX_QUERY_CHARS}. Describe the task in a sentence.`);
  if (keywords !== undefined && !(Array.isArray(keywords) && keywords.every((k) => typeof k === 'string'))) {
    return errorText('"keywords" must be an array of strings.');
  }
  if (server !== undefined && typeof server !== 'string') return errorText('"server" must be a server name (see list_servers).');
  if (limit !== undefined && !(typeof limit === 'number' && Number.isInteger(limit) && limit >= 1 && limit <= MAX_LIMIT)) {
    return errorText(`"limit" must be an integer from 1 to ${MAX_LIMIT}.`);
  }
  if (inputFormat !== undefined && inputFormat !== 'schema' && inputFormat !== 'signature') return errorText('"input_format" must be "schema" or "signature".');
  const settings = ctx.lens.settings();
  if (typeof server === 'string' && !ctx.lens.servers().some((s) => s.name === server)) {
    const near = closestNames(server, ctx.lens.servers().map((s) => s.name));
    return errorText(`Unknown server "${truncateDescription(server, 100)}".${near.length ? ` Did you mean: ${near.join(', ')}?` : ''} Call list_servers to see them.`);
  }
  const request: SearchRequest = { query, limit: (limit as number | undefined) ?? settings.search.defaultLimit, sessionId: ctx.sessionId };
  if (Array.isArray(keywords) && keywords.length) request.keywords = keywords as string[];
  if (typeof server === 'string') request.server = server;
  const response = await ctx.lens.search(request);
  const cost = ctx.accounting.catalogCost(ctx.lens.tools());
  const { result, returnedTokens } = renderFindTools(response, (n) => ctx.lens.findTool(n), settings.search.inlineSchemas, cost.baselineTokens, inputFormat);
  ctx.accounting.recordFindTools(ctx.sessionId, returnedTokens, cost.baselineTokens);
  return result;
}

async function callTool(args: Record<string, unknown>, ctx: MetaToolContext): Promise<CallToolResult> {
  const { tool_name: toolName, arguments: toolArgs } = args;
  if (typeof toolName !== 'string' || toolName === '') return errorText('call_tool needs "tool_name": the exact name find_tools returned.');
  const problem = argumentsProblem(toolName, toolArgs);
  if (problem) return errorText(problem);
  const shape = parseShapeRequest(args, ctx.lens.settings().maxOutputTokens);
  if ('problem' in shape) return errorText(shape.problem);
  const shaped = await shapedCall(toolName, (toolArgs as Record<string, unknown> | undefined) ?? {}, shape, ctx);
  if (shaped.returnedTokens !== shaped.fullTokens) ctx.accounting.recordShaping(ctx.sessionId, shaped.fullTokens, shaped.returnedTokens);
  return shaped.result;
}

/** Why `args` cannot be a tool's arguments, or undefined. */
export function argumentsProblem(toolName: string, args: unknown): string | undefined {
  if (args === undefined || isRecord(args)) return undefined;
  const kind = args === null ? 'null' : Array.isArray(args) ? 'an array' : typeof args;
  return `"arguments" for "${truncateDescription(toolName, 100)}" must be an object of named arguments, not ${kind}.`;
}

/**
 * One call as call_tool makes it, for call_tool and for run_code's call_tool(): the one call
 * path (forwardCall → Lens.callTool), then shaping for the model.
 */
export async function shapedCall(toolName: string, args: Record<string, unknown>, shape: ShapeRequest, ctx: MetaToolContext): Promise<Shaped> {
  const raw = await forwardCall(toolName, args, ctx);
  return shapeResult(raw, toolName, shape, { results: ctx.results, sessionId: ctx.sessionId });
}

function getToolSchema(args: Record<string, unknown>, lens: Lens): CallToolResult {
  const name = args.tool_name;
  if (typeof name !== 'string' || name === '') return errorText('get_tool_schema needs "tool_name": the exact name find_tools returned.');
  const tool = lens.findTool(name);
  if (!tool) return errorText(unknownToolMessage(name, lens.tools().map((t) => t.name)));
  return jsonText(fullDefinition(tool));
}

function fullDefinition(t: CatalogTool): Record<string, unknown> {
  const d: Record<string, unknown> = { name: t.name, server: t.server, original_name: t.originalName };
  if (t.title !== undefined) d.title = truncateDescription(t.title, 200);
  // The full definition, but a megabyte of description helps no model: cut long ones with a mark.
  d.description = truncateDescription(t.description, MAX_SCHEMA_DESCRIPTION_CHARS);
  d.input_schema = t.inputSchema;
  // The same compact form find_tools gives with input_format "signature", for writing run_code scripts.
  d.signature = toolSignature(t.name, t.inputSchema, t.outputSchema, { descriptions: SIGNATURE_DESCRIPTION_CHARS });
  if (t.outputSchema !== undefined) d.output_schema = t.outputSchema;
  if (t.annotations !== undefined) d.annotations = t.annotations;
  return d;
}

function listServers(lens: Lens): CallToolResult {
  const byServer = new Map<string, CatalogTool[]>();
  for (const t of lens.tools()) byServer.set(t.server, [...(byServer.get(t.server) ?? []), t]);
  const servers = lens
    .servers()
    .slice()
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((s) => {
      const tools = byServer.get(s.name) ?? [];
      const entry: Record<string, unknown> = { name: s.name, state: s.state, tools: tools.length, summary: summarizeTools(tools) };
      if (s.error) entry.error = truncateDescription(s.error, 300);
      return entry;
    });
  return jsonText({ servers });
}
