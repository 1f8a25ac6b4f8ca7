/**
 * The meta-tools the gateway exposes instead of (or beside) the upstream tools. Their
 * descriptions are what an agent reads to decide whether to search at all, so they say
 * exactly what each tool does, what it returns and when to use it.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type * as z from 'zod/mini';
import { jsonSchemaOf } from '../../../protocol/jsonSchema';
import {
  CallToolArgs,
  GetToolSchemaArgs,
  ListServersArgs,
  RUN_CODE_LIMITS,
  RunCodeArgs,
  findToolsArgs,
} from './metaToolArgs';

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
  const tools: MetaToolDefinition[] = [
    {
      name: FIND_TOOLS,
      title: 'Find tools',
      // No outputSchema: its tokens would ride in every request; structuredContent is still sent.
      description:
        'Search the tools of every MCP server in this workspace. Use it FIRST when a task needs a tool you do not have. ' +
        (o.domains ? `Servers and what their tools cover: ${o.domains}. ` : '') +
        'Returns the best matches, best first: a clear best match with its input schema, close ones with their input types. ' +
        'Then call one with call_tool, or chain several with run_code.',
      args: findToolsArgs(o.defaultLimit),
      annotations: READ_ONLY,
    },
    {
      name: CALL_TOOL,
      title: 'Call a tool',
      description:
        'Call a tool find_tools returned, by its exact name, with arguments matching its input schema. Returns its result, ' +
        'cut to max_output_tokens when long (kept whole as a resource). Errors say what to fix.',
      args: CallToolArgs,
    },
    ...(o.codeMode ? [RUN_CODE_DEFINITION] : []),
    {
      name: GET_TOOL_SCHEMA,
      title: 'Get a tool schema',
      description:
        "A tool's full definition (input and output schemas) by the name find_tools returned. Use it before call_tool when find_tools gave no input schema.",
      args: GetToolSchemaArgs,
      annotations: READ_ONLY,
    },
    {
      name: LIST_SERVERS,
      title: 'List servers',
      description:
        "The MCP servers behind this gateway: each one's state, tool count and what its tools do. For an overview, or to pick a server for find_tools.",
      args: ListServersArgs,
      annotations: READ_ONLY,
    },
  ];
  return tools.map(({ args, ...t }) => ({ ...t, inputSchema: inputSchemaOf(args), _meta: { ...ALWAYS_LOAD_META } }));
}

/** A meta-tool as declared here: its arguments' schema (metaToolArgs.ts) in place of the JSON Schema clients see. */
type MetaToolDefinition = Omit<Tool, 'inputSchema'> & { args: z.ZodMiniType };

const RUN_CODE_DEFINITION: MetaToolDefinition = {
  name: RUN_CODE,
  title: 'Run code',
  description:
    'Run JavaScript that chains tool calls; only its return value and console.log output come back. Use it for ' +
    'dependent calls, loops, filtering or joining results; for one call, call_tool is enough. `code` is an async ' +
    'function body calling `await call_tool(name, args, {select?})` with names from find_tools (input_format ' +
    '"signature" gives their types). A call returns the tool\'s structuredContent, else its text (parsed if JSON), ' +
    `and throws on a tool error. No require, import, files, network or timers; at most ${RUN_CODE_LIMITS.maxCalls} calls.`,
  args: RunCodeArgs,
};

/** Each schema's JSON Schema, derived once (tools/list is answered per session, the schemas do not change). */
const derived = new WeakMap<z.ZodMiniType, Tool['inputSchema']>();

function inputSchemaOf(args: z.ZodMiniType): Tool['inputSchema'] {
  let schema = derived.get(args);
  if (!schema) {
    const json = jsonSchemaOf(args);
    if (json.type !== 'object') throw new Error('a meta-tool takes an object of named arguments');
    schema = { ...json, type: 'object' };
    derived.set(args, schema);
  }
  return schema;
}
