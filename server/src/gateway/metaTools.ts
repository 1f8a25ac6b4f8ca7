/**
 * Which meta-tool a request is for, and what find_tools, get_tool_schema and list_servers do.
 * call_tool lives in callTool.ts and run_code in runCode.ts. Each handler receives its
 * arguments typed and checked against the meta-tool's own schema (metaToolArgs.ts); it checks
 * only what a schema cannot say; everything else is the Lens's job.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Lens, SearchRequest } from '../app/lens';
import type { CatalogTool } from '../core/catalog';
import { closestNames, unknownToolMessage } from '../core/nameSuggestions';
import { SIGNATURE_DESCRIPTION_CHARS, renderFindTools, truncateDescription } from './findToolsResult';
import { toolSignature } from '../core/schemaSignature';
import type * as z from 'zod/mini';
import { CALL_TOOL, FIND_TOOLS, GET_TOOL_SCHEMA, LIST_SERVERS, RUN_CODE } from './metaToolDefs';
import {
  CallToolArgs,
  GetToolSchemaArgs,
  ListServersArgs,
  RunCodeArgs,
  findToolsArgs,
  parseArgs,
  type FindToolsArgs,
  type GetToolSchemaArgs as ToolSchemaArgs,
} from './metaToolArgs';
import { callToolMetaTool, errorText, type MetaToolContext } from './callTool';
import { runCode, type CodeRuns } from './runCode';
import { summarizeTools } from './serverSummary';
import { cleanReplyInPlace } from '../../../protocol/untrustedText';
import { visibleTools, type ToolView } from './toolView';

/** get_tool_schema returns descriptions up to this long (find_tools: MAX_DESCRIPTION_CHARS). */
export const MAX_SCHEMA_DESCRIPTION_CHARS = 8000;
/** get_tool_schema's `icons` and `_meta` each up to this long as JSON (an MCP App's view config is a few hundred). */
const MAX_META_CHARS = 8000;

function jsonText(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }] };
}

type Context = MetaToolContext & { codeRuns: CodeRuns };
type Handler = (args: unknown, ctx: Context) => Promise<CallToolResult>;

/** A handler behind its schema: it runs only with arguments the schema passed, typed as the schema says. */
function checked<S extends Parameters<typeof parseArgs>[1]>(
  tool: string,
  schema: (ctx: Context) => S,
  run: (args: NoInfer<z.output<S>>, ctx: Context) => CallToolResult | Promise<CallToolResult>,
): Handler {
  return async (args, ctx) => {
    const parsed = parseArgs(tool, schema(ctx), args);
    return parsed.ok ? run(parsed.args, ctx) : errorText(parsed.problem);
  };
}

const HANDLERS: Record<string, Handler> = {
  [FIND_TOOLS]: checked(
    FIND_TOOLS,
    (ctx: Context) => findToolsArgs(ctx.lens.settings().search.defaultLimit),
    findTools,
  ),
  [CALL_TOOL]: checked(CALL_TOOL, () => CallToolArgs, callToolMetaTool),
  [RUN_CODE]: checked(RUN_CODE, () => RunCodeArgs, runCode),
  [GET_TOOL_SCHEMA]: checked(
    GET_TOOL_SCHEMA,
    () => GetToolSchemaArgs,
    (args, ctx) => getToolSchema(args, ctx.lens, ctx.view),
  ),
  [LIST_SERVERS]: checked(
    LIST_SERVERS,
    () => ListServersArgs,
    (_, ctx) => listServers(ctx.lens, ctx.view),
  ),
};

/** Runs a meta-tool; undefined when `name` is not one. */
export async function runMetaTool(name: string, args: unknown, ctx: Context): Promise<CallToolResult | undefined> {
  if (name === RUN_CODE && !ctx.lens.settings().codeMode.enabled) {
    return errorText(
      'run_code is turned off in this workspace (mcpLens.codeMode.enabled); use call_tool for each step.',
    );
  }
  return Object.hasOwn(HANDLERS, name) ? HANDLERS[name]!(args, ctx) : undefined;
}

async function findTools(
  { query, keywords, server, limit, input_format: inputFormat }: FindToolsArgs,
  ctx: MetaToolContext,
): Promise<CallToolResult> {
  // The schema says "not empty"; blank is a schema pattern's worth of tokens in every tools/list.
  if (query.trim() === '')
    return errorText('find_tools needs "query": the task in plain words, e.g. "add two numbers".');
  const settings = ctx.lens.settings();
  const servers = ctx.lens
    .servers()
    .map((s) => s.name)
    .filter((s) => !ctx.view || ctx.view.seesServer(s));
  if (server !== undefined && !servers.includes(server)) {
    const near = closestNames(server, servers);
    return errorText(
      `Unknown server "${truncateDescription(server, 100)}".${near.length ? ` Did you mean: ${near.join(', ')}?` : ''} Call list_servers to see them.`,
    );
  }
  const request: SearchRequest = { query, limit: limit ?? settings.search.defaultLimit, sessionId: ctx.sessionId };
  if (keywords?.length) request.keywords = keywords;
  if (server !== undefined) request.server = server;
  if (ctx.view) request.visible = ctx.view;
  const response = await ctx.lens.search(request);
  // Undefined while an organisation's catalog is first counted: the answer leaves the baseline out.
  const baseline = ctx.accounting.catalogCost(ctx.lens.tools())?.baselineTokens;
  const { result, returnedTokens } = renderFindTools(
    response,
    (n) => ctx.lens.findTool(n),
    settings.search.inlineSchemas,
    baseline,
    inputFormat,
  );
  ctx.accounting.recordFindTools(ctx.sessionId, returnedTokens);
  return result;
}

function getToolSchema({ tool_name: name }: ToolSchemaArgs, lens: Lens, view: ToolView | undefined): CallToolResult {
  const found = lens.findTool(name);
  const tool = found && (!view || view.seesTool(found)) ? found : undefined;
  if (!tool)
    return errorText(
      unknownToolMessage(
        name,
        visibleTools(lens.tools(), view).map((t) => t.name),
      ),
    );
  return jsonText(fullDefinition(tool));
}

function fullDefinition(t: CatalogTool): Record<string, unknown> {
  // The name the upstream listed is its text, not ours (server names are made safe at config load).
  const d: Record<string, unknown> = {
    name: t.name,
    server: t.server,
    original_name: truncateDescription(t.originalName, 200),
  };
  if (t.title !== undefined) d.title = truncateDescription(t.title, 200);
  // The full definition, but a megabyte of description helps no model: cut long ones with a mark.
  d.description = truncateDescription(t.description, MAX_SCHEMA_DESCRIPTION_CHARS);
  d.input_schema = t.inputSchema;
  // The same compact form find_tools gives with input_format "signature", for writing run_code scripts.
  d.signature = toolSignature(t.name, t.inputSchema, t.outputSchema, { descriptions: SIGNATURE_DESCRIPTION_CHARS });
  if (t.outputSchema !== undefined) d.output_schema = t.outputSchema;
  if (t.annotations !== undefined) d.annotations = t.annotations;
  Object.assign(d, passedOnMeta(t));
  return d;
}

/**
 * A tool's icons and `_meta` (its MCP App's view, visibility), as listed: the upstream's text,
 * cleaned as its replies are and left out past MAX_META_CHARS rather than cut into invalid JSON.
 */
function passedOnMeta(t: CatalogTool): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of [
    ['icons', t.icons],
    ['_meta', t._meta],
  ] as const) {
    if (value === undefined) continue;
    const size = JSON.stringify(value).length;
    if (size <= MAX_META_CHARS) out[key] = cleanReplyInPlace(structuredClone(value));
    else out[`${key}_omitted`] = `${size} characters`;
  }
  return out;
}

function listServers(lens: Lens, view: ToolView | undefined): CallToolResult {
  const byServer = new Map<string, CatalogTool[]>();
  for (const t of visibleTools(lens.tools(), view)) byServer.set(t.server, [...(byServer.get(t.server) ?? []), t]);
  const servers = lens
    .servers()
    .filter((s) => !view || view.seesServer(s.name))
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((s) => {
      const tools = byServer.get(s.name) ?? [];
      const entry: Record<string, unknown> = {
        name: s.name,
        state: s.state,
        tools: tools.length,
        summary: summarizeTools(tools),
      };
      if (s.error) entry.error = truncateDescription(s.error, 300);
      // Its tools are still found (from the last listing); calling them waits for the user.
      if (s.state === 'needs-sign-in')
        entry.sign_in = `the user must sign in to ${s.name} (VS Code: "MCP Lens: Sign In to a Server"; terminal: mcp-lens login ${s.name}) before its tools can be called`;
      return entry;
    });
  return jsonText({ servers });
}
