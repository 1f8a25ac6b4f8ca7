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
  /** Scripts running at once in one gateway, each on its own worker thread (each may hold up to memoryBytes). */
  maxConcurrent: 4,
  /** Of those, at once for one session: its others wait their turn, and other sessions' scripts start at once. */
  perSession: 2,
} as const;

// The names are protocol (the client's test hooks look for them); META_TOOL_NAMES holds them all,
// listed or not (an upstream tool of the same name is never listed directly).
import { CALL_TOOL, FIND_TOOLS, GET_TOOL_SCHEMA, LIST_SERVERS, RUN_CODE } from '../../../protocol/metaToolNames';
export {
  CALL_TOOL,
  FIND_TOOLS,
  GET_TOOL_SCHEMA,
  LIST_SERVERS,
  META_TOOL_NAMES,
  RUN_CODE,
} from '../../../protocol/metaToolNames';

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
 * They are listed too: the schema a client sees is the one enforced, and the list stays under
 * its token budget with them (test/server/gatewayParts.test.ts checks the budget).
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
    description: 'JMESPath keeping only what you need of a JSON result, e.g. "items[].id".',
  },
  max_output_tokens: {
    type: 'integer',
    minimum: MIN_OUTPUT_TOKENS,
    maximum: MAX_OUTPUT_TOKENS,
    description: 'Cap on the result, in tokens.',
  },
} as const;

/**
 * Read-only tools say so (clients may run them without asking); the others keep the spec's
 * defaults (not read-only, destructive, open world), which need no words.
 */
const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;

/**
 * The meta-tools' definitions, in the order they are listed. Every word here rides in every
 * request of every session, so each sentence is one an agent acts on: when to use the tool,
 * how to phrase its input, what comes back and what to do next. Titles are for people (clients show them); annotations only where they differ
 * from the spec's defaults.
 */
export function metaToolDefinitions(o: MetaToolOptions): Tool[] {
  const tools: Tool[] = [
    {
      name: FIND_TOOLS,
      title: 'Find tools',
      // No outputSchema: its tokens would ride in every request; structuredContent is still sent.
      description:
        'Search the tools of every MCP server in this workspace. Use it FIRST when a task needs a tool you do not have. ' +
        (o.domains ? `Servers and what their tools cover: ${o.domains}. ` : '') +
        'Returns the best matches, best first: a clear best match with its input schema, close ones with their input types. ' +
        'Then call one with call_tool, or chain several with run_code.',
      inputSchema: {
        type: 'object',
        properties: {
          query: {
            type: 'string',
            minLength: 1,
            maxLength: MAX_QUERY_CHARS,
            description: 'The task in plain words, e.g. "open a pull request".',
          },
          keywords: {
            type: 'array',
            items: { type: 'string', maxLength: MAX_KEYWORD_CHARS },
            maxItems: MAX_KEYWORDS,
            description: 'Exact words to weigh more (tool or parameter names).',
          },
          server: { type: 'string', maxLength: MAX_NAME_CHARS, description: "Only this server's tools." },
          limit: {
            type: 'integer',
            minimum: 1,
            maximum: MAX_LIMIT,
            description: `Default ${o.defaultLimit}; ask for more when none fits.`,
          },
          input_format: {
            type: 'string',
            enum: ['schema', 'signature'],
            description: 'signature: TypeScript types of inputs and outputs, for run_code.',
          },
        },
        required: ['query'],
        additionalProperties: false,
      },
      annotations: READ_ONLY,
    },
    {
      name: CALL_TOOL,
      title: 'Call a tool',
      description:
        'Call a tool find_tools returned, by its exact name, with arguments matching its input schema. Returns its result, ' +
        'cut to max_output_tokens when long (kept whole as a resource). Errors say what to fix.',
      inputSchema: {
        type: 'object',
        properties: {
          tool_name: { type: 'string', maxLength: MAX_NAME_CHARS },
          arguments: { type: 'object' },
          ...SHAPE_PROPERTIES,
        },
        required: ['tool_name'],
        additionalProperties: false,
      },
    },
    ...(o.codeMode ? [runCodeDefinition()] : []),
    {
      name: GET_TOOL_SCHEMA,
      title: 'Get a tool schema',
      description:
        "A tool's full definition (input and output schemas) by the name find_tools returned. Use it before call_tool when find_tools gave no input schema.",
      inputSchema: {
        type: 'object',
        properties: { tool_name: { type: 'string', maxLength: MAX_NAME_CHARS } },
        required: ['tool_name'],
        additionalProperties: false,
      },
      annotations: READ_ONLY,
    },
    {
      name: LIST_SERVERS,
      title: 'List servers',
      description:
        "The MCP servers behind this gateway: each one's state, tool count and what its tools do. For an overview, or to pick a server for find_tools.",
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      annotations: READ_ONLY,
    },
  ];
  return tools.map((t) => ({ ...t, _meta: { ...ALWAYS_LOAD_META } }));
}

function runCodeDefinition(): Tool {
  return {
    name: RUN_CODE,
    title: 'Run code',
    description:
      'Run JavaScript that chains tool calls; only its return value and console.log output come back. Use it for ' +
      'dependent calls, loops, filtering or joining results; for one call, call_tool is enough. `code` is an async ' +
      'function body calling `await call_tool(name, args, {select?})` with names from find_tools (input_format ' +
      '"signature" gives their types). A call returns the tool\'s structuredContent, else its text (parsed if JSON), ' +
      `and throws on a tool error. No require, import, files, network or timers; at most ${RUN_CODE_LIMITS.maxCalls} calls.`,
    inputSchema: {
      type: 'object',
      properties: {
        code: { type: 'string', minLength: 1, maxLength: RUN_CODE_LIMITS.maxCodeChars },
        timeout_ms: { type: 'integer', minimum: 1000, description: `Default ${RUN_CODE_LIMITS.defaultTimeoutMs}.` },
      },
      required: ['code'],
      additionalProperties: false,
    },
  };
}
