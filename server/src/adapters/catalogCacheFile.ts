/**
 * The last catalog each server listed, on disk, keyed by the fingerprint of the definition it
 * was listed from. The gateway answers find_tools from it right after start while the servers
 * connect, lazy start leaves servers with a cached catalog stopped until their first call, and
 * `mcp-lens search` answers without starting anything. It is a cache, never the truth: an entry
 * only stands for a server whose definition is unchanged, and the file is replaced whole (temp
 * file + rename), so a reader never sees half of one.
 */
import { mkdirSync } from 'node:fs';
import { readPrivateFile } from './privateFiles';
import { dirname } from 'node:path';
import { writeFileAtomic } from './atomicFile';
import type { UpstreamTool } from './upstream/types';

/** What one server listed the last time it was up (or why it failed). */
export interface CachedServer {
  /** Fingerprint of the definition the tools were listed from. */
  fingerprint: string;
  /** Epoch ms of the listing. */
  listedAt: number;
  /** As the server listed them: include/exclude and naming apply on top, as for live tools. */
  tools: UpstreamTool[];
  /** Set when the server failed to start then; it has no tools here. */
  failed?: string;
}

export interface CatalogCacheFile {
  version: 2;
  servers: Record<string, CachedServer>;
  /** o200k token counts of the servers' tools/list texts (content hash → tokens), so they are not counted again. */
  tokenCounts?: Record<string, number>;
}

/**
 * The largest cache written or read: several times what an organisation's 100,000 tools take
 * (bench-results.md, "Organisation-sized catalogs"), and still a bound on what a read puts in
 * memory. A catalog larger than this is not cached (every start lists it again).
 */
export const MAX_CATALOG_CACHE_BYTES = 512 * 1024 * 1024;

/**
 * Writes the cache one server at a time: the JSON is the same as `JSON.stringify(cache)`, but it
 * is never one string (that string and its UTF-8 copy would be a large share of the gateway's
 * peak for a large catalog). Over MAX_CATALOG_CACHE_BYTES the write stops and the old file stays.
 */
export function writeCatalogCache(path: string, cache: CatalogCacheFile): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileAtomic(path, cacheJsonPieces(cache), 0o600);
}

function* cacheJsonPieces(cache: CatalogCacheFile): Generator<string> {
  let length = 0;
  const piece = (text: string): string => {
    length += text.length;
    if (length > MAX_CATALOG_CACHE_BYTES)
      throw new Error(
        `the catalog is over ${Math.round(length / 1048576)} MB as JSON, over the cache's ${MAX_CATALOG_CACHE_BYTES / 1048576} MB`,
      );
    return text;
  };
  yield piece(`{"version":${JSON.stringify(cache.version)},"servers":{`);
  let first = true;
  for (const [name, server] of Object.entries(cache.servers)) {
    const json = JSON.stringify(server) as string | undefined;
    if (json === undefined) continue;
    yield piece(`${first ? '' : ','}${JSON.stringify(name)}:${json}`);
    first = false;
  }
  yield piece(cache.tokenCounts === undefined ? '}}' : `},"tokenCounts":${JSON.stringify(cache.tokenCounts)}}`);
}

/**
 * The cached servers; empty when there is no cache or it is not one we can read. In the CLI the
 * file sits in the workspace, which a repository could ship: only a file MCP Lens wrote is read
 * (adapters/privateFiles: regular, no link, this user's, mode 0600), and only well-formed tools
 * of the server they are filed under are kept.
 */
export function readCatalogCache(path: string): {
  servers: Record<string, CachedServer>;
  tokenCounts: Record<string, number>;
} {
  const empty = { servers: {}, tokenCounts: {} };
  try {
    const read = readPrivateFile(path, MAX_CATALOG_CACHE_BYTES);
    if (!('text' in read)) return empty;
    const c = JSON.parse(read.text) as Partial<CatalogCacheFile>;
    if (c.version !== 2 || !c.servers || typeof c.servers !== 'object') return empty;
    const servers: Record<string, CachedServer> = {};
    const schemas = new SchemaInterner();
    for (const [name, s] of Object.entries(c.servers)) {
      if (!s || typeof s.fingerprint !== 'string' || typeof s.listedAt !== 'number' || !Array.isArray(s.tools))
        continue;
      const tools = s.tools.filter((t) => isTool(t) && t.server === name);
      for (const t of tools) t.inputSchema = schemas.intern(t.inputSchema);
      servers[name] = {
        fingerprint: s.fingerprint,
        listedAt: s.listedAt,
        tools,
        ...(typeof s.failed === 'string' && { failed: s.failed }),
      };
    }
    const tokenCounts: Record<string, number> = {};
    if (c.tokenCounts && typeof c.tokenCounts === 'object') {
      for (const [k, n] of Object.entries(c.tokenCounts))
        if (typeof n === 'number' && Number.isInteger(n) && n >= 0) tokenCounts[k] = n;
    }
    return { servers, tokenCounts };
  } catch {
    return empty;
  }
}

function isTool(t: unknown): t is UpstreamTool {
  const x = t as Partial<UpstreamTool> | null;
  return (
    !!x &&
    typeof x.name === 'string' &&
    typeof x.server === 'string' &&
    !!x.inputSchema &&
    typeof x.inputSchema === 'object'
  );
}

/**
 * One object per distinct input schema. An organisation deploys the same server many times
 * (one per team or region), and each deployment lists the same schemas: parsed from the cache,
 * each would be its own object tree (at 100,000 tools, 21,810 distinct schemas among them, the
 * copies were about half of the parsed cache). Nothing changes a schema once listed, so tools
 * can share one.
 */
class SchemaInterner {
  private readonly byJson = new Map<string, UpstreamTool['inputSchema']>();

  intern(schema: UpstreamTool['inputSchema']): UpstreamTool['inputSchema'] {
    const json = JSON.stringify(schema);
    const known = this.byJson.get(json);
    if (known) return known;
    this.byJson.set(json, schema);
    return schema;
  }
}
