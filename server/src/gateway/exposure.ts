/**
 * Which tools our `tools/list` carries in each exposure mode:
 * - search: the meta-tools only (the default; smallest prompt);
 * - pinned: meta-tools + `settings.pinnedTools`, callable directly;
 * - all: meta-tools + every upstream tool (for clients that cannot search);
 * - predictive: meta-tools + the tools the Lens's usage learning expects this session to need
 *   (as `search` while it expects none: a cold start, or usage off);
 * - found: meta-tools + the tools this session's agent chose through call_tool (foundTools.ts).
 * An upstream tool whose client-safe name equals a meta-tool's is never listed directly
 * (the meta-tool wins); it stays reachable through call_tool. A host that renders MCP Apps also
 * gets the tools the listed tools' views may call (toolDefinition.ts).
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { McpLensSettings } from '../../../protocol/settings';
import type { CatalogTool } from '../core/catalog';
import type { Lens, Visibility } from '../app/lens';
import { META_TOOL_NAMES, metaToolDefinitions } from './metaToolDefs';
import { workspaceDomains } from './workspaceDomains';
import type { FoundTools } from './foundTools';
import { toolDefinition, viewToolDefinitions } from './toolDefinition';

/**
 * Whether this mode's tools/list holds upstream tools: only then does a first tools/list wait for
 * servers still starting (app/firstListings.ts). In search mode it is the meta-tools either way.
 */
export function listsUpstreamTools(settings: McpLensSettings): boolean {
  return settings.exposure !== 'search';
}

/** Upstream tools listed directly (beside the meta-tools) for this session; `found`: what it ran (exposure found). */
export function directTools(
  lens: Lens,
  settings: McpLensSettings,
  sessionId: string,
  found?: FoundTools,
): CatalogTool[] {
  let picked: CatalogTool[];
  switch (settings.exposure) {
    case 'all':
      picked = lens.tools();
      break;
    case 'pinned':
      picked = resolve(lens, settings.pinnedTools);
      break;
    case 'predictive':
      picked = resolve(lens, lens.predictedTools(sessionId)).slice(0, settings.predict.maxTools);
      break;
    case 'found':
      picked = found ? byKeys(lens, found.keys(settings.found.maxTools)) : [];
      break;
    default:
      picked = [];
  }
  return picked.filter((t) => !META_TOOL_NAMES.includes(t.name));
}

/** What a session's tools/list depends on beside the exposure mode. */
export interface ListingOptions {
  /** Exposure found: the tools this session's agent chose (foundTools.ts). */
  found?: FoundTools | undefined;
  /** The host renders MCP Apps: it also gets what the listed tools' views may call. */
  rendersApps?: boolean;
  /** A signed-in person's visibility (toolView.ts). */
  view?: Visibility | undefined;
}

/**
 * Our whole tools/list for this session: meta-tools first, then the direct tools, then (for a
 * host that renders MCP Apps, `rendersApps`) what their views may call. `view`: a signed-in
 * person's (toolView.ts): the direct tools, the views' tools and find_tools' domains line hold
 * only what they may see.
 */
export function exposedDefinitions(
  lens: Lens,
  settings: McpLensSettings,
  sessionId: string,
  listing: ListingOptions = {},
): Tool[] {
  const { found, rendersApps = false, view } = listing;
  const meta = metaToolDefinitions({
    defaultLimit: settings.search.defaultLimit,
    codeMode: settings.codeMode.enabled,
    domains: view ? visibleDomains(lens, view) : domainsOf(lens),
  });
  const direct = directTools(lens, settings, sessionId, found);
  const visible = view ? direct.filter((t) => view.seesTool(t)) : direct;
  const listed = [...meta, ...visible.map((t) => toolDefinition(t))];
  if (!rendersApps) return listed;
  const taken = new Set(listed.map((t) => t.name));
  let byServer: Map<string, CatalogTool[]> | undefined;
  const serverTools = (server: string) => {
    if (!byServer) {
      byServer = new Map();
      for (const t of [...lens.tools(), ...lens.appTools()]) {
        if (view && !view.seesTool(t)) continue;
        const same = byServer.get(t.server);
        if (same) same.push(t);
        else byServer.set(t.server, [t]);
      }
    }
    return byServer.get(server) ?? [];
  };
  return [...listed, ...viewToolDefinitions(visible, serverTools, taken)];
}

function visibleDomains(lens: Lens, view: Visibility): string {
  const servers = lens
    .servers()
    .map((s) => s.name)
    .filter((s) => view.seesServer(s));
  return workspaceDomains(
    servers,
    lens.tools().filter((t) => view.seesTool(t)),
  );
}

/** The domains line, once per catalog and server set (the Lens hands out a new tools array when its catalog changes). */
const domainsMemo = new WeakMap<readonly CatalogTool[], { names: string; domains: string }>();
function domainsOf(lens: Lens): string {
  const tools = lens.tools();
  const serverNames = lens.servers().map((s) => s.name);
  const names = serverNames.join('\n');
  const known = domainsMemo.get(tools);
  if (known?.names === names) return known.domains;
  const domains = workspaceDomains(serverNames, tools);
  domainsMemo.set(tools, { names, domains });
  return domains;
}

/** The catalog by key, once per catalog (the Lens hands out a new tools array when it changes). */
const keyMemo = new WeakMap<readonly CatalogTool[], Map<string, CatalogTool>>();
function byKeys(lens: Lens, keys: readonly string[]): CatalogTool[] {
  const tools = lens.tools();
  let byKey = keyMemo.get(tools);
  if (!byKey) keyMemo.set(tools, (byKey = new Map(tools.map((t) => [t.key, t]))));
  return keys.flatMap((k) => byKey.get(k) ?? []);
}

/** Pinned names may be client-safe names or `server/originalName` keys; unknown ones are skipped. */
function resolve(lens: Lens, names: readonly string[]): CatalogTool[] {
  const seen = new Set<string>();
  const out: CatalogTool[] = [];
  let byKey: Map<string, CatalogTool> | undefined;
  for (const n of names) {
    let tool = lens.findTool(n);
    if (!tool) {
      byKey ??= new Map(lens.tools().map((t) => [t.key, t]));
      tool = byKey.get(n);
    }
    if (tool && !seen.has(tool.name)) {
      seen.add(tool.name);
      out.push(tool);
    }
  }
  return out;
}
