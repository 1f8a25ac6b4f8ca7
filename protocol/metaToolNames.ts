/**
 * The meta-tools' names, declared once. The gateway lists and dispatches them
 * (server/src/gateway/metaToolDefs.ts declares each one's description and schema), the CLI's
 * help names them, and the extension's test hooks find them among VS Code's language model
 * tools (client/src/e2eHooks.ts), which may import only protocol/.
 */
export const FIND_TOOLS = 'find_tools';
export const CALL_TOOL = 'call_tool';
export const RUN_CODE = 'run_code';
export const GET_TOOL_SCHEMA = 'get_tool_schema';
export const LIST_SERVERS = 'list_servers';

/** Every meta-tool name, in the order tools/list has them (run_code only when code mode is on). */
export const META_TOOL_NAMES: readonly string[] = [FIND_TOOLS, CALL_TOOL, RUN_CODE, GET_TOOL_SCHEMA, LIST_SERVERS];
