/**
 * Which tools our `tools/list` carries in each exposure mode:
 * - search: the meta-tools only (the default; smallest prompt);
 * - pinned: meta-tools + `settings.pinnedTools`, callable directly;
 * - all: meta-tools + every upstream tool (for clients that cannot search);
 * - predictive: meta-tools + the tools the Lens's usage learning expects this session to need
 *   (as `search` while it expects none: a cold start, or usage off).
 * An upstream tool whose client-safe name equals a meta-tool's is never listed directly
 * (the meta-tool wins); it stays reachable through call_tool.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { McpLensSettings } from '../../../protocol/settings';
import type { CatalogTool } from '../core/catalog';
import type { Lens, Visibility } from '../app/lens';
import { META_TOOL_NAMES, metaToolDefinitions } from './metaToolDefs';
import { workspaceDomains } from './workspaceDomains';

/** Upstream tools listed directly (beside the meta-tools) for this session. */
export function directTools(lens: Lens, settings: McpLensSettings, sessionId: string): CatalogTool[] {
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
    default:
      picked = [];
  }
  return picked.filter((t) => !META_TOOL_NAMES.includes(t.name));
}

/**
 * Our whole tools/list for this session: meta-tools first, then the direct tools. `view`: a
 * signed-in person's (toolView.ts): the direct tools and find_tools' domains line hold only what
 * they may see.
 */
export function exposedDefinitions(
  lens: Lens,
  settings: McpLensSettings,
  sessionId: string,
  view?: Visibility,
): Tool[] {
  const meta = metaToolDefinitions({
    defaultLimit: settings.search.defaultLimit,
    codeMode: settings.codeMode.enabled,
    domains: view ? visibleDomains(lens, view) : domainsOf(lens),
  });
  const direct = directTools(lens, settings, sessionId);
  return [...meta, ...(view ? direct.filter((t) => view.seesTool(t)) : direct).map(toolDefinition)];
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

/** A catalog tool as a client receives it, under its client-safe name (or the name given). */
export function toolDefinition(t: CatalogTool): Tool {
  const d: Tool = { name: t.name, description: t.description, inputSchema: t.inputSchema as Tool['inputSchema'] };
  if (t.title !== undefined) d.title = t.title;
  if (t.outputSchema !== undefined) d.outputSchema = t.outputSchema as Tool['outputSchema'];
  if (t.annotations !== undefined) d.annotations = t.annotations as Tool['annotations'];
  if (t.icons !== undefined) d.icons = t.icons as Tool['icons'];
  if (t._meta !== undefined) d._meta = t._meta;
  return d;
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
