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
    const tool: CatalogTool = {
      key,
      name: names.get(key) ?? key,
      server: t.server,
      originalName: t.name,
      description: stripControls(t.description ?? ''),
      inputSchema: t.inputSchema,
    };
    if (t.title !== undefined) tool.title = stripControls(t.title);
    if (t.outputSchema !== undefined) tool.outputSchema = t.outputSchema;
    if (t.annotations !== undefined) tool.annotations = t.annotations;
    if (t.icons !== undefined) tool.icons = t.icons;
    if (t._meta !== undefined) tool._meta = t._meta;
    tools.push(tool);
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
  return upstreamPrompts.map((p) => {
    const prompt: CatalogPrompt = {
      name: promptNames.get(toolKey(p.server, p.name)) ?? p.name,
      server: p.server,
      originalName: p.name,
    };
    if (p.description !== undefined) prompt.description = stripControls(p.description);
    if (p.arguments !== undefined) prompt.arguments = p.arguments;
    if (p.extra !== undefined) prompt.extra = p.extra;
    return prompt;
  });
}

/** Resources under prefixed URIs (they do not depend on the tools). */
export function catalogResources(upstreamResources: readonly UpstreamResource[]): CatalogResource[] {
  return upstreamResources.map((r) => {
    const resource: CatalogResource = {
      uri: resourceUri(r.server, r.uri),
      server: r.server,
      originalUri: r.uri,
      name: stripControls(`${r.server}: ${r.name}`),
    };
    if (r.description !== undefined) resource.description = stripControls(r.description);
    if (r.mimeType !== undefined) resource.mimeType = r.mimeType;
    if (r.extra !== undefined) resource.extra = r.extra;
    return resource;
  });
}

/** Resource templates under our scheme, expressions kept (core/resourceUris.ts). */
export function catalogResourceTemplates(
  upstreamTemplates: readonly UpstreamResourceTemplate[],
): CatalogResourceTemplate[] {
  return upstreamTemplates.map((t) => {
    const template: CatalogResourceTemplate = {
      uriTemplate: resourceTemplateUri(t.server, t.uriTemplate),
      server: t.server,
      originalTemplate: t.uriTemplate,
      name: stripControls(`${t.server}: ${t.name}`),
    };
    if (t.description !== undefined) template.description = stripControls(t.description);
    if (t.mimeType !== undefined) template.mimeType = t.mimeType;
    if (t.extra !== undefined) template.extra = t.extra;
    return template;
  });
}
