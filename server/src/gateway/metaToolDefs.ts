/**
 * The meta-tools the gateway exposes instead of (or beside) the upstream tools. Their
 * descriptions are what an agent reads to decide whether to search at all, so they say
 * exactly what each tool does, what it returns and when to use it.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { MAX_OUTPUT_TOKENS, MAX_SELECT_CHARS, MIN_OUTPUT_TOKENS } from '../core/resultShaping';

/** The limits of one run_code script, decided here and nowhere else. */
export const RUN_CODE_LIMITS = {
  defaultTimeoutMs: 30_000,
  memoryBytes: 64 * 1024 * 1024,
  maxCalls: 100,
  /** The return value as JSON; past the model's max_output_tokens it is cut and kept anyway. */
  maxOutputChars: 4 * 1024 * 1024,
  maxLogChars: 64 * 1024,
  maxCodeChars: 100_000,
  /** Scripts running at once in one gateway (each may hold up to memoryBytes). */
  maxConcurrent: 4,
} as const;

// The names are protocol (the client's test hooks look for them); META_TOOL_NAMES holds them all,
// listed or not (an upstream tool of the same name is never listed directly).
import { CALL_TOOL, FIND_TOOLS, GET_TOOL_SCHEMA, LIST_SERVERS, RUN_CODE } from '../../../protocol/metaToolNames';
export { CALL_TOOL, FIND_TOOLS, GET_TOOL_SCHEMA, LIST_SERVERS, META_TOOL_NAMES, RUN_CODE } from '../../../protocol/metaToolNames';

/**
 * Keeps the meta-tools loaded in clients that defer MCP tools behind their own tool search:
 * Claude Code (2.1.121 and later) reads `_meta["anthropic/alwaysLoad"]` on a tool in
 * tools/list and loads its schema from the first turn instead of hiding it until the model
 * searches (see anthropics/claude-code#56551, colbymchenry/codegraph#1697,
 * AncientiCe/palace-rs v0.8.0 release notes). Without it a session may never find
 * find_tools at all. Other clients ignore unknown `_meta` keys (MCP spec). VS Code's virtual
 * tools group only past its tool threshold (microsoft/vscode#258360) and have no per-tool
 * opt-out yet (microsoft/vscode#294055); five meta-tools keep MCP Lens far below it.
 * Copilot CLI's equivalent is the client-side `deferTools: "never"` on the server entry.
 */
export const ALWAYS_LOAD_META = { 'anthropic/alwaysLoad': true } as const;

export interface MetaToolOptions {
  /** find_tools' default limit. */
  defaultLimit: number;
  /** List run_code (mcpLens.codeMode.enabled). */
  codeMode: boolean;
  /** The workspace's domains (workspaceDomains), named in find_tools' description. */
  domains: string;
}

/**
 * Caps on every meta-tool argument, declared in the schemas below and enforced by validating
 * each call against its schema (metaToolArgs.ts) before anything reaches the Lens. Far past
 * what an agent writes (the longest query of the bench datasets is 1,089 characters, the
 * longest tool name MCP Lens lists 64), short of what could make the gateway work hard.
 */
export const MAX_QUERY_CHARS = 2000;
export const MAX_KEYWORDS = 32;
/** A keyword is a tool or parameter name (MCP allows names of up to 128 characters). */
export const MAX_KEYWORD_CHARS = 128;
/** tool_name and server: listed names are at most 64 characters; an upstream's own name may be 128 beside its server's. */
export const MAX_NAME_CHARS = 256;
export const MAX_LIMIT = 50;

/** Result shaping, the same for call_tool and for call_tool() inside run_code. */
const SHAPE_PROPERTIES = {
  select: {
    type: 'string',
    maxLength: MAX_SELECT_CHARS,
    description: 'Optional JMESPath to keep only what you need of a JSON result, e.g. "items[].{id: id}".',
  },
  max_output_tokens: { type: 'integer', minimum: MIN_OUTPUT_TOKENS, maximum: MAX_OUTPUT_TOKENS, description: 'Optional cap on the result in tokens.' },
} as const;

/** The meta-tools' definitions, in the order they are listed. */
export function metaToolDefinitions(o: MetaToolOptions): Tool[] {
  const defaultLimit = o.defaultLimit;
  const tools: Tool[] = [
    {
      name: FIND_TOOLS,
      title: 'Find tools',
      // No outputSchema: its ~250 tokens would ride in every request; structuredContent is still sent.
      description:
        'Search every tool of every MCP server in this workspace by what you want to do. Use this FIRST whenever a task ' +
        'needs a capability you do not see in your tool list. ' +
        (o.domains ? `This workspace's servers and what their tools cover: ${o.domains}. ` : '') +
        'Describe the task in plain words (e.g. "add two numbers", "open a pull request"); add exact keywords or a server ' +
        'name to narrow it. Returns the best matching tools, best first, with name, server, description and why it ' +
        'matched; a clear best match with its input schema, close ones with their input types. Then call one with call_tool, or chain several with run_code.',
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string', minLength: 1, maxLength: MAX_QUERY_CHARS, description: 'What you want to do, in plain words.' },
          keywords: {
            type: 'array',
            items: { type: 'string', maxLength: MAX_KEYWORD_CHARS },
            maxItems: MAX_KEYWORDS,
            description: 'Optional exact words to weigh more (tool or parameter names).',
          },
          server: { type: 'string', maxLength: MAX_NAME_CHARS, description: "Optional: only this server's tools." },
          limit: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, description: `How many matches to return (default ${defaultLimit}).` },
          input_format: {
            type: 'string',
            enum: ['schema', 'signature'],
            description: "signature: each match's input and output as compact TypeScript types (for run_code). Default: schema.",
          },
        },
        required: ['query'],
        additionalProperties: false,
      },
      annotations: { title: 'Find tools', readOnlyHint: true, openWorldHint: false },
    },
    {
      name: CALL_TOOL,
      title: 'Call a tool',
      description:
        'Run one tool found with find_tools: pass its exact name as tool_name and its arguments as an object matching the ' +
        "tool's input schema. Returns the tool's own result, cut to max_output_tokens when long (the whole result is kept " +
        'as a resource). If the name or arguments are wrong, the error says what to fix.',
      inputSchema: {
        type: 'object',
        properties: {
          tool_name: { type: 'string', maxLength: MAX_NAME_CHARS, description: 'The exact name returned by find_tools.' },
          arguments: { type: 'object', description: "The tool's arguments, as its input schema describes. Omit for none." },
          ...SHAPE_PROPERTIES,
        },
        required: ['tool_name'],
        additionalProperties: false,
      },
      annotations: { title: 'Call a tool', readOnlyHint: false, destructiveHint: true, openWorldHint: true },
    },
    ...(o.codeMode ? [runCodeDefinition()] : []),
    {
      name: GET_TOOL_SCHEMA,
      title: 'Get a tool schema',
      description:
        'Get the full definition of one tool (description, input schema, output schema, annotations) by the name ' +
        'find_tools returned. Use it before call_tool when find_tools did not include the input schema inline.',
      inputSchema: {
        type: 'object',
        properties: { tool_name: { type: 'string', maxLength: MAX_NAME_CHARS, description: 'The name returned by find_tools.' } },
        required: ['tool_name'],
        additionalProperties: false,
      },
      annotations: { title: 'Get a tool schema', readOnlyHint: true, openWorldHint: false },
    },
    {
      name: LIST_SERVERS,
      title: 'List servers',
      description:
        'List the MCP servers behind this gateway: each server name, its state (ready, error, …), how many tools it has ' +
        'and a one-line summary of what they do. Use it for an overview or to pick a server for find_tools.',
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      annotations: { title: 'List servers', readOnlyHint: true, openWorldHint: false },
    },
  ];
  return tools.map((t) => ({ ...t, _meta: { ...ALWAYS_LOAD_META } }));
}

function runCodeDefinition(): Tool {
  return {
    name: RUN_CODE,
    title: 'Run code',
    description:
      'Run JavaScript that chains several tool calls; only its return value and console.log output come back. Use it ' +
      'for dependent calls, loops, filtering or joining results; for one call, call_tool is enough. `code` is an async ' +
      'function body (ES2023) using `await call_tool(name, args, {select?})` or `await tools[name](args)` with names ' +
      'from find_tools (input_format "signature" gives their types). A call returns the tool\'s structuredContent, ' +
      'else its text (parsed if JSON), and throws on a tool error. No require, import, process, files, network or ' +
      `timers. Limits: timeout_ms (default ${RUN_CODE_LIMITS.defaultTimeoutMs / 1000} s), ${RUN_CODE_LIMITS.memoryBytes / (1024 * 1024)} MB, ${RUN_CODE_LIMITS.maxCalls} tool calls.`,
    inputSchema: {
      type: 'object',
      properties: {
        code: {
          type: 'string',
          minLength: 1,
          maxLength: RUN_CODE_LIMITS.maxCodeChars,
          description: 'e.g. `const r = await call_tool("x_list", {}); return r.items.length;`',
        },
        timeout_ms: { type: 'integer', minimum: 1000, description: 'Wall-time limit in ms.' },
      },
      required: ['code'],
      additionalProperties: false,
    },
    annotations: { title: 'Run code', readOnlyHint: false, destructiveHint: true, openWorldHint: true },
  };
}
