/**
 * The `instructions` an MCP client puts into the model's system prompt. It depends only on
 * the SET of server names (sorted), never on counts or states, so it stays byte-identical
 * across restarts and tool changes and clients' prompt caches stay warm.
 */
/** Third-party server names are shown, so only their plain characters. */
function safeName(name: string): string {
  return name.replace(/[^\w.@/-]+/g, '_').slice(0, 64);
}

export function gatewayInstructions(serverNames: readonly string[]): string {
  const names = [...new Set(serverNames.map(safeName))].sort();
  const servers = names.length ? `This workspace's MCP servers: ${names.join(', ')}.` : 'This workspace has no MCP servers configured yet.';
  return (
    'MCP Lens stands in for every MCP server of this workspace. To do something you have no tool for, call ' +
    'find_tools with the task in plain words, then call_tool with the exact tool_name it returned and arguments ' +
    "matching the tool's input schema. When a match has no input_schema inline, call get_tool_schema first. " +
    `Call list_servers for an overview of the servers and what their tools do. Tools listed directly can be called as usual. ${servers}`
  );
}
