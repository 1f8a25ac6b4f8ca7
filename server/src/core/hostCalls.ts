/**
 * Which tool a host's own tools/call names. Besides the names MCP Lens lists, a host passes on
 * what an MCP App's view calls (core/mcpApps.ts): its server's tools by that server's own names
 * (`get-time`, as ext-apps' callServerTool sends it), and tools only views may call. A view's call
 * must reach its own server and never another's, so a server's own name is looked up among the
 * servers whose views this session read (any server with a view, before the session read one),
 * and a name that fits tools of two servers there is refused with both named rather than guessed.
 */
import type { CatalogTool } from './catalog';
import { appMayCall, toolViewUri } from './mcpApps';
import { capLength, stripControls } from '../../../protocol/untrustedText';

/** Tool names are the upstreams' text. */
const shown = (name: string) => capLength(stripControls(name), 100);

export interface HostCallCatalog {
  /** An agent's tool by MCP Lens's name (unknown and excluded names: undefined). */
  findTool(name: string): CatalogTool | undefined;
  tools: readonly CatalogTool[];
  /** Tools only views may call (catalogBuilder.ts). */
  appTools: readonly CatalogTool[];
  /** The server whose view a `ui://` URI hosts read is; undefined when none is. */
  viewServer(uri: string): string | undefined;
}

/** `view`: named as only a view names it (an app-only tool, a server's own name): not an agent's call. */
export type HostCallTarget = { tool: CatalogTool; view?: boolean } | { problem: string };

/** Per catalog (its tools array): tools views may call, by their servers' own names. */
const byOwnNameMemo = new WeakMap<readonly CatalogTool[], Map<string, CatalogTool[]>>();

function byOwnName(catalog: HostCallCatalog): Map<string, CatalogTool[]> {
  let map = byOwnNameMemo.get(catalog.tools);
  if (map) return map;
  map = new Map();
  for (const t of [...catalog.tools, ...catalog.appTools]) {
    if (!appMayCall(t._meta)) continue;
    const same = map.get(t.originalName);
    if (same) same.push(t);
    else map.set(t.originalName, [t]);
  }
  byOwnNameMemo.set(catalog.tools, map);
  return map;
}

/** Servers with at least one view: the only ones a view's call can come from. */
function serversWithViews(catalog: HostCallCatalog): Set<string> {
  const servers = new Set<string>();
  for (const t of [...catalog.tools, ...catalog.appTools])
    if (toolViewUri(t._meta) !== undefined) servers.add(t.server);
  return servers;
}

function ambiguous(name: string, candidates: readonly CatalogTool[]): HostCallTarget {
  const listed = candidates
    .map((t) => `"${t.name}" (server "${t.server}", its own name "${shown(t.originalName)}")`)
    .join(', ');
  return {
    problem: `"${shown(name)}" names tools of more than one server in this session: ${listed}. MCP Lens does not guess which server a view belongs to; call the tool by MCP Lens's name (call_tool).`,
  };
}

/** The tool a host's tools/call names; undefined when no tool has that name. */
export function resolveHostCall(
  name: string,
  viewUris: readonly string[],
  catalog: HostCallCatalog,
): HostCallTarget | undefined {
  const viewServers = new Set<string>();
  for (const uri of viewUris) {
    const server = catalog.viewServer(uri);
    if (server !== undefined) viewServers.add(server);
  }
  const listed = catalog.findTool(name);
  const appOnly = listed ? undefined : catalog.appTools.find((t) => t.name === name);
  const named = listed ?? appOnly;
  const own = (servers: ReadonlySet<string>) =>
    (byOwnName(catalog).get(name) ?? []).filter((t) => servers.has(t.server));
  if (named) {
    // A view of another server calling a tool of its own by this name would reach the wrong server.
    const others = viewServers.size ? own(viewServers).filter((t) => t.server !== named.server) : [];
    if (others.length) return ambiguous(name, [named, ...others]);
    return appOnly ? { tool: named, view: true } : { tool: named };
  }
  const candidates = own(viewServers.size ? viewServers : serversWithViews(catalog));
  if (candidates.length === 0) return undefined;
  return candidates.length === 1 ? { tool: candidates[0]!, view: true } : ambiguous(name, candidates);
}
