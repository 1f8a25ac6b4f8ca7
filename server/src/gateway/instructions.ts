// The `instructions` an MCP client puts into the model's system prompt.

/** Third-party server names are shown, so only their plain characters. */
function safeName(name: string): string {
  return name.replace(/[^\w.@/-]+/g, '_').slice(0, 64);
}

/**
 * The `instructions` an MCP client puts into the model's system prompt. They depend only on
 * the SET of server names (sorted), never on counts or states, so they stay byte-identical
 * across restarts and tool changes and clients' prompt caches stay warm. `codeMode`: run_code
 * is offered (mcpLens.codeMode.enabled), so say when to use it.
 */
export function gatewayInstructions(serverNames: readonly string[], codeMode = false): string {
  const names = [...new Set(serverNames.map(safeName))].sort();
  const servers = names.length
    ? `This workspace's MCP servers: ${names.join(', ')}.`
    : 'This workspace has no MCP servers configured yet.';
  const code = codeMode
    ? 'For several dependent calls, a loop, or filtering or joining results, write ONE run_code script instead of many ' +
      'call_tool calls (find_tools with input_format "signature" gives the types) and return only the answer: ' +
      'intermediate results then never enter the conversation. For a single call, call_tool is enough. '
    : '';
  return (
    'MCP Lens stands in for every MCP server of this workspace. To do something you have no tool for, call ' +
    'find_tools with the task in plain words, then call_tool with the exact tool_name it returned and arguments ' +
    'matching its input schema; when find_tools gave no schema, or a call is refused, call get_tool_schema. ' +
    code +
    'Long results are cut to max_output_tokens and kept whole as mcp-lens://results/<id> resources; select (JMESPath) ' +
    `keeps only the fields you need. list_servers gives an overview. Tools listed directly are called as usual. ${servers}`
  );
}
