/**
 * Loading a tool-retrieval dataset (bench/datasets/<name>/tools.json + queries.json; the catalog
 * may be another set's, named by meta.json's tools_from) as catalog tools and queries. Keys are `server/name` compared whole (names may contain `/`).
 */
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { CatalogTool } from '../../server/src/core/catalog';
import { toolKey } from '../../server/src/core/catalog';
import { datasetToolsFile } from './benchFiles';

export interface BenchQuery {
  id: string;
  query: string;
  gold: string[];
  /** goldKey → keys that count as finding it. */
  goldAlternatives?: Record<string, string[]>;
  /** The request's kind where the set labels it (mcp-servers: direct, paraphrase, sibling, cross-server, multi). */
  kind?: string;
}

export interface BenchDataset {
  name: string;
  tools: CatalogTool[];
  queries: BenchQuery[];
}

interface RawTool {
  server: string;
  name: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
}

interface RawQuery {
  id: string;
  query: string;
  gold: string[];
  gold_alternatives?: Record<string, string[]>;
  kind?: string;
}

/** A client-safe unique name: the key with anything outside [A-Za-z0-9_-] replaced, numbered on collision. */
function safeNames(keys: readonly string[]): string[] {
  const used = new Set<string>();
  return keys.map((key) => {
    const base = key.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 60);
    let name = base;
    for (let i = 2; used.has(name); i++) name = `${base}_${i}`;
    used.add(name);
    return name;
  });
}

/** Dataset tools as catalog tools. */
export function catalogToolsOf(raw: readonly RawTool[]): CatalogTool[] {
  const keys = raw.map((t) => toolKey(t.server, t.name));
  const names = safeNames(keys);
  return raw.map((t, i) => ({
    key: keys[i],
    name: names[i],
    server: t.server,
    originalName: t.name,
    description: t.description ?? '',
    inputSchema: t.inputSchema ?? { type: 'object', properties: {} },
  }));
}

export function loadDataset(dir: string): BenchDataset {
  const toolsFile = datasetToolsFile(dir);
  if (toolsFile === undefined) throw new Error(`${dir}: no tools.json, and no tools_from in its meta.json`);
  const tools = JSON.parse(readFileSync(toolsFile, 'utf8')) as RawTool[];
  const queries = JSON.parse(readFileSync(join(dir, 'queries.json'), 'utf8')) as RawQuery[];
  return {
    name: basename(dir.replace(/[\\/]+$/, '')),
    tools: catalogToolsOf(tools),
    queries: queries.map((q) => ({
      id: q.id,
      query: q.query,
      gold: q.gold,
      ...(q.gold_alternatives ? { goldAlternatives: q.gold_alternatives } : {}),
      ...(typeof q.kind === 'string' && q.kind ? { kind: q.kind } : {}),
    })),
  };
}

/**
 * The catalog replicated to `size` tools: copy n of server `s` is server `s~n`, so latency and
 * memory can be measured at a scale no real workspace reaches yet.
 */
export function scaleTools(tools: readonly CatalogTool[], size: number): CatalogTool[] {
  const out: CatalogTool[] = [...tools];
  for (let copy = 2; out.length < size; copy++) {
    for (const t of tools) {
      if (out.length >= size) break;
      const server = `${t.server}~${copy}`;
      out.push({ ...t, server, key: toolKey(server, t.originalName), name: `${t.name}_${copy}`.slice(0, 64) });
    }
  }
  return out;
}
