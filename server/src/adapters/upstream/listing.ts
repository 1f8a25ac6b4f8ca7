/**
 * Paginated listing of an upstream's tools, prompts and resources, normalized into the pool's
 * records. tools/list is parsed leniently so one malformed tool (say, a non-object inputSchema)
 * is repaired with a warning instead of failing the whole list. Prompts, resources and templates
 * come as the SDK's schemas parsed them (the protocol's fields only) and are passed on so.
 */
import * as z from 'zod/v4';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Logger } from '../../core/logger';
import { errorMessage } from '../../core/errorMessage';
import { capLength } from '../../../../protocol/untrustedText';
import type { UpstreamPrompt, UpstreamResource, UpstreamResourceTemplate, UpstreamTool } from './types';

/**
 * Descriptions are kept up to this many characters. A megabyte of description helps no one
 * and, indexed whole, flattens keyword ranking for every other server's tools (beside one such
 * description, server-everything's get-sum leaves the top hits for "add two numbers").
 */
export const MAX_DESCRIPTION_CHARS = 8000;
const MAX_TITLE_CHARS = 200;

/** A server sending the same cursor forever must not keep us paging forever. */
const MAX_PAGES = 1000;

const LenientToolsPage = z.looseObject({
  tools: z.array(z.unknown()),
  nextCursor: z.string().optional(),
});

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Follows nextCursor until the last page; `fetchPage` returns the items and the next cursor. */
async function collectPages<T>(
  fetchPage: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string | undefined }>,
): Promise<T[]> {
  const all: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const { items, nextCursor } = await fetchPage(cursor);
    all.push(...items);
    if (!nextCursor || seen.has(nextCursor)) break;
    seen.add(nextCursor);
    cursor = nextCursor;
  }
  return all;
}

export async function listTools(
  client: Client,
  server: string,
  timeoutMs: number,
  log: Logger,
): Promise<UpstreamTool[]> {
  const raw = await collectPages(async (cursor) => {
    const page = await client.request({ method: 'tools/list', params: cursor ? { cursor } : {} }, LenientToolsPage, {
      timeout: timeoutMs,
    });
    return { items: page.tools, nextCursor: page.nextCursor };
  });
  const tools: UpstreamTool[] = [];
  const seen = new Set<string>();
  for (const item of raw) {
    const tool = toUpstreamTool(server, item, log);
    if (!tool) continue;
    // Two tools of one server under one name cannot both be called: the server itself will
    // only ever run one of them. The first listed is kept, as most clients do.
    if (seen.has(tool.name)) {
      log.warn(`[${server}] tools/list names "${tool.name.slice(0, 100)}" twice; the first is kept`);
      continue;
    }
    seen.add(tool.name);
    tools.push(tool);
  }
  return tools;
}

/** Repairs what can be repaired; drops only a tool without a usable name. */
function toUpstreamTool(server: string, item: unknown, log: Logger): UpstreamTool | undefined {
  if (!isObject(item) || typeof item.name !== 'string' || item.name === '') {
    log.warn(`[${server}] dropped a tool without a name from tools/list`);
    return undefined;
  }
  const tool: UpstreamTool = {
    server,
    name: item.name,
    inputSchema: inputSchemaOf(server, item.name, item.inputSchema, log),
  };
  if (typeof item.title === 'string') tool.title = item.title;
  if (typeof item.description === 'string') tool.description = capLength(item.description, MAX_DESCRIPTION_CHARS);
  if (tool.title !== undefined) tool.title = capLength(tool.title, MAX_TITLE_CHARS);
  if (isObject(item.outputSchema)) tool.outputSchema = item.outputSchema;
  if (isObject(item.annotations)) tool.annotations = item.annotations;
  if (Array.isArray(item.icons)) tool.icons = item.icons;
  if (isObject(item._meta)) tool._meta = item._meta;
  return tool;
}

function inputSchemaOf(server: string, tool: string, schema: unknown, log: Logger): Obj {
  if (isObject(schema) && schema.type === 'object') return schema;
  if (isObject(schema) && schema.type === undefined) {
    log.warn(`[${server}] tool ${tool}: inputSchema has no type; treated as an object schema`);
    return { type: 'object', ...schema };
  }
  log.warn(`[${server}] tool ${tool}: inputSchema is not an object schema; replaced with {type:'object'}`);
  return { type: 'object' };
}

export async function listPrompts(client: Client, server: string, timeoutMs: number): Promise<UpstreamPrompt[]> {
  const prompts = await collectPages(async (cursor) => {
    const page = await client.listPrompts(cursor ? { cursor } : {}, { timeout: timeoutMs });
    return { items: page.prompts, nextCursor: page.nextCursor };
  });
  return prompts.map((p) => ({ ...p, server }));
}

export async function listResources(client: Client, server: string, timeoutMs: number): Promise<UpstreamResource[]> {
  const resources = await collectPages(async (cursor) => {
    const page = await client.listResources(cursor ? { cursor } : {}, { timeout: timeoutMs });
    return { items: page.resources, nextCursor: page.nextCursor };
  });
  return resources.map((r) => ({ ...r, server }));
}

export async function listResourceTemplates(
  client: Client,
  server: string,
  timeoutMs: number,
): Promise<UpstreamResourceTemplate[]> {
  const templates = await collectPages(async (cursor) => {
    const page = await client.listResourceTemplates(cursor ? { cursor } : {}, { timeout: timeoutMs });
    return { items: page.resourceTemplates, nextCursor: page.nextCursor };
  });
  return templates.map((t) => ({ ...t, server }));
}

/** What one server lists. */
export interface ServerLists {
  tools: UpstreamTool[];
  prompts: UpstreamPrompt[];
  resources: UpstreamResource[];
  templates: UpstreamResourceTemplate[];
}

/** Prompts and resources are extras: a failure to list them is a warning, not a dead server. */
async function optional<T>(server: string, kind: string, log: Logger, list: () => Promise<T[]>): Promise<T[]> {
  try {
    return await list();
  } catch (error) {
    log.warn(`[${server}] could not list ${kind}: ${errorMessage(error)}`);
    return [];
  }
}

/** Everything the server says it has, at once: one round trip to a server busy starting, not four in a row. */
export async function listEverything(
  client: Client,
  server: string,
  timeoutMs: number,
  log: Logger,
): Promise<ServerLists> {
  const caps = client.getServerCapabilities() ?? {};
  const [tools, prompts, resources, templates] = await Promise.all([
    caps.tools ? listTools(client, server, timeoutMs, log) : [],
    caps.prompts ? optional(server, 'prompts', log, () => listPrompts(client, server, timeoutMs)) : [],
    caps.resources ? optional(server, 'resources', log, () => listResources(client, server, timeoutMs)) : [],
    caps.resources
      ? optional(server, 'resource templates', log, () => listResourceTemplates(client, server, timeoutMs))
      : [],
  ]);
  return { tools, prompts, resources, templates };
}

/** One kind again, after its list_changed; resources bring their templates along (one notification covers both). */
export async function listAgain(
  client: Client,
  server: string,
  kind: 'tools' | 'prompts' | 'resources',
  timeoutMs: number,
  log: Logger,
): Promise<Partial<ServerLists>> {
  if (kind === 'tools') return { tools: await listTools(client, server, timeoutMs, log) };
  if (kind === 'prompts') return { prompts: await listPrompts(client, server, timeoutMs) };
  const [resources, templates] = await Promise.all([
    listResources(client, server, timeoutMs),
    optional(server, 'resource templates', log, () => listResourceTemplates(client, server, timeoutMs)),
  ]);
  return { resources, templates };
}
