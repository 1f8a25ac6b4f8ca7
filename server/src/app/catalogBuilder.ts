/**
 * Turns what the upstream pool reports into the catalog the front doors see: client-safe
 * names, include/exclude applied (exclusion is a boundary: an excluded tool is simply not
 * in the catalog, so nothing can search, describe or call it), prompts and resources under
 * prefixed names. Third-party text is made safe here, once, for everyone downstream (tools/list
 * in every exposure mode, find_tools, the dashboard, the CLI): descriptions and titles lose
 * terminal escapes, control, bidi and invisible characters (protocol/untrustedText.ts). Names
 * are kept as listed (the upstream is called by them); the client-safe name is ASCII, and
 * include/exclude see them normalized (core/config/toolFilter.ts).
 *
 * MCP Apps (core/mcpApps.ts): a tool whose `_meta.ui.visibility` leaves out "model" goes to
 * `appTools`, apart from the agent's tools (nothing lists, searches or hands it to an agent; a view
 * calls it); `ui://` resources keep their own URIs, rewritten (in resources and in tools' `_meta`)
 * only where two servers use the same one.
 */
import type { CatalogPrompt, CatalogResource, CatalogResourceTemplate, CatalogTool } from '../core/catalog';
import { toolKey } from '../core/catalog';
import { assignToolNames } from '../core/toolNames';
import { stripControls } from '../../../protocol/untrustedText';
import { resourceTemplateUri, resourceUri } from '../core/resourceUris';
import { isAppOnly, isUiUri, toolViewUri, uiUris, withViewUri, type UiUris, type UiUse } from '../core/mcpApps';
import type {
  UpstreamPrompt,
  UpstreamResource,
  UpstreamResourceTemplate,
  UpstreamTool,
} from '../adapters/upstream/pool';

export interface Catalog {
  tools: CatalogTool[];
  byName: Map<string, CatalogTool>;
  byKey: Map<string, CatalogTool>;
  /** Tools only an MCP App's view may call (core/mcpApps.ts isAppOnly), under client-safe names too. */
  appTools: CatalogTool[];
  prompts: CatalogPrompt[];
  resources: CatalogResource[];
  /** Where hosts read each server's `ui://` views. */
  ui: UiUris;
}

/** The `ui://` URIs the servers use: those their tools name and those they list. */
export function catalogUiUris(
  upstreamTools: readonly UpstreamTool[],
  upstreamResources: readonly UpstreamResource[],
): UiUris {
  const uses: UiUse[] = [];
  for (const t of upstreamTools) {
    const uri = toolViewUri(t._meta);
    if (uri !== undefined) uses.push({ server: t.server, uri });
  }
  for (const r of upstreamResources) if (isUiUri(r.uri)) uses.push({ server: r.server, uri: r.uri });
  return uiUris(uses);
}

export function buildCatalog(
  upstreamTools: readonly UpstreamTool[],
  upstreamPrompts: readonly UpstreamPrompt[],
  upstreamResources: readonly UpstreamResource[],
  allowed: (server: string, tool: string) => boolean,
  ui: UiUris = catalogUiUris(upstreamTools, upstreamResources),
): Catalog {
  // Names are assigned over every tool, before filtering, so changing include/exclude
  // never renames the tools that stay visible.
  const names = assignToolNames(upstreamTools.map((t) => ({ server: t.server, name: t.name })));
  const tools: CatalogTool[] = [];
  const appTools: CatalogTool[] = [];
  for (const t of upstreamTools) {
    if (!allowed(t.server, t.name)) continue;
    const key = toolKey(t.server, t.name);
    const { name: originalName, description, ...listed } = t;
    const tool: CatalogTool = {
      ...cleaned(listed),
      key,
      name: names.get(key) ?? key,
      originalName,
      description: stripControls(description ?? ''),
    };
    if (listed._meta !== undefined) tool._meta = viewMeta(t.server, listed._meta, ui);
    (isAppOnly(listed._meta) ? appTools : tools).push(tool);
  }
  tools.sort((a, b) => a.name.localeCompare(b.name));
  const prompts = catalogPrompts(upstreamPrompts);
  const resources = catalogResources(upstreamResources, ui);
  return {
    tools,
    byName: new Map(tools.map((t) => [t.name, t])),
    byKey: new Map(tools.map((t) => [t.key, t])),
    appTools,
    prompts,
    resources,
    ui,
  };
}

/** A tool's `_meta` naming its view by the URI hosts read it by (the upstream's object when that is its own). */
function viewMeta(server: string, meta: Record<string, unknown>, ui: UiUris): Record<string, unknown> {
  const uri = toolViewUri(meta);
  if (uri === undefined) return meta;
  const exposed = ui.exposed(server, uri);
  return exposed === uri ? meta : withViewUri(meta, exposed);
}

/** Prompts under client-safe names (they do not depend on the tools). */
export function catalogPrompts(upstreamPrompts: readonly UpstreamPrompt[]): CatalogPrompt[] {
  const promptNames = assignToolNames(upstreamPrompts.map((p) => ({ server: p.server, name: p.name })));
  return upstreamPrompts.map((p) => ({
    ...cleaned(p),
    name: promptNames.get(toolKey(p.server, p.name)) ?? p.name,
    originalName: p.name,
  }));
}

/** Resources under prefixed URIs; `ui://` views under the URIs hosts read them by (`ui`). */
export function catalogResources(upstreamResources: readonly UpstreamResource[], ui: UiUris): CatalogResource[] {
  return upstreamResources.map((r) => ({
    ...cleaned(r),
    uri: isUiUri(r.uri) ? ui.exposed(r.server, r.uri) : resourceUri(r.server, r.uri),
    originalUri: r.uri,
    name: stripControls(`${r.server}: ${r.name}`),
  }));
}

/** Resource templates under our scheme, expressions kept (core/resourceUris.ts). */
export function catalogResourceTemplates(
  upstreamTemplates: readonly UpstreamResourceTemplate[],
): CatalogResourceTemplate[] {
  return upstreamTemplates.map((t) => ({
    ...cleaned(t),
    uriTemplate: resourceTemplateUri(t.server, t.uriTemplate),
    originalTemplate: t.uriTemplate,
    name: stripControls(`${t.server}: ${t.name}`),
  }));
}

/** An upstream's record with its text for people (description, title) made safe; the rest as listed. */
function cleaned<T extends { description?: string | undefined; title?: string | undefined }>(item: T): T {
  return {
    ...item,
    ...(item.description !== undefined && { description: stripControls(item.description) }),
    ...(item.title !== undefined && { title: stripControls(item.title) }),
  };
}
