/**
 * A catalog tool as a host lists it: one place for everything MCP Lens passes on of a tool's
 * definition (title, annotations, icons, output schema, `_meta` with its MCP App's view), for
 * every list that shows upstream tools as the host's own.
 *
 * A host that renders MCP Apps (it declared the `io.modelcontextprotocol/ui` extension) also gets,
 * beside a listed tool that has a view, the tools that view may call under its server's own names
 * (`get-time`, as ext-apps' callServerTool sends it), marked app-only: such a host lets a view call
 * only tools it lists, and lists app-only tools to no model. A view's call by such a name reaches
 * its own server (core/hostCalls.ts).
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { CatalogTool } from '../core/catalog';
import { appMayCall, appOnlyMeta, toolViewUri } from '../core/mcpApps';
import { SAFE_TOOL_NAME } from '../core/toolNames';

/** A catalog tool as a client receives it, under its client-safe name (or the name given). */
export function toolDefinition(t: CatalogTool, name = t.name): Tool {
  const d: Tool = { name, description: t.description, inputSchema: t.inputSchema as Tool['inputSchema'] };
  if (t.title !== undefined) d.title = t.title;
  if (t.outputSchema !== undefined) d.outputSchema = t.outputSchema as Tool['outputSchema'];
  if (t.annotations !== undefined) d.annotations = t.annotations as Tool['annotations'];
  if (t.icons !== undefined) d.icons = t.icons as Tool['icons'];
  if (t._meta !== undefined) d._meta = t._meta;
  return d;
}

/**
 * For a host that renders MCP Apps: each tool a view of the `listed` tools may call, under its
 * server's own name, app-only. Names a list already has (`taken`) are left to it; a name two
 * servers share is listed once (a call by it is sorted out when it comes).
 */
export function viewToolDefinitions(
  listed: readonly CatalogTool[],
  serverTools: (server: string) => readonly CatalogTool[],
  taken: ReadonlySet<string>,
): Tool[] {
  const servers = new Set(listed.filter((t) => toolViewUri(t._meta) !== undefined).map((t) => t.server));
  const names = new Set(taken);
  const out: Tool[] = [];
  for (const server of servers) {
    for (const t of serverTools(server)) {
      if (!appMayCall(t._meta) || names.has(t.originalName) || !SAFE_TOOL_NAME.test(t.originalName)) continue;
      names.add(t.originalName);
      out.push({ ...toolDefinition(t, t.originalName), _meta: appOnlyMeta(t._meta) });
    }
  }
  return out;
}
