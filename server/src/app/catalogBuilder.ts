/**
 * Turns what the upstream pool reports into the catalog the front doors see: client-safe
 * names, include/exclude applied (exclusion is a boundary: an excluded tool is simply not
 * in the catalog, so nothing can search, describe or call it), prompts and resources under
 * prefixed names. Third-party text is made safe here, once, for everyone downstream (tools/list
 * in every exposure mode, find_tools, the dashboard, the CLI): descriptions and titles lose
 * terminal escapes, control, bidi and invisible characters (protocol/untrustedText.ts). Names
 * are kept as listed (the upstream is called by them); the client-safe name is ASCII, and
 * include/exclude see them normalized (core/config/toolFilter.ts).
 */
import type { CatalogPrompt, CatalogResource, CatalogResourceTemplate, CatalogTool } from '../core/catalog';
import { toolKey } from '../core/catalog';
import { assignToolNames } from '../core/toolNames';
import { stripControls } from '../../../protocol/untrustedText';
import { resourceTemplateUri, resourceUri } from '../core/resourceUris';
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
  prompts: CatalogPrompt[];
  resources: CatalogResource[];
}

export function buildCatalog(
  upstreamTools: readonly UpstreamTool[],
  upstreamPrompts: readonly UpstreamPrompt[],
  upstreamResources: readonly UpstreamResource[],
  allowed: (server: string, tool: string) => boolean,
): Catalog {
  // Names are assigned over every tool, before filtering, so changing include/exclude
  // never renames the tools that stay visible.
  const names = assignToolNames(upstreamTools.map((t) => ({ server: t.server, name: t.name })));
  const tools: CatalogTool[] = [];
  for (const t of upstreamTools) {
    if (!allowed(t.server, t.name)) continue;
    const key = toolKey(t.server, t.name);
    const { name: originalName, description, ...listed } = t;
    tools.push({
      ...cleaned(listed),
      key,
      name: names.get(key) ?? key,
      originalName,
      description: stripControls(description ?? ''),
    });
  }
  tools.sort((a, b) => a.name.localeCompare(b.name));
  const prompts = catalogPrompts(upstreamPrompts);
  const resources = catalogResources(upstreamResources);
  return {
    tools,
    byName: new Map(tools.map((t) => [t.name, t])),
    byKey: new Map(tools.map((t) => [t.key, t])),
    prompts,
    resources,
  };
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

/** Resources under prefixed URIs (they do not depend on the tools). */
export function catalogResources(upstreamResources: readonly UpstreamResource[]): CatalogResource[] {
  return upstreamResources.map((r) => ({
    ...cleaned(r),
    uri: resourceUri(r.server, r.uri),
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
