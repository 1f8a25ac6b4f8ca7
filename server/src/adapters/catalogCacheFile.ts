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
 * The largest cache written or read: an organisation's 100,000 tools are about 65 MB of it
 * (`mcp-lens bench --scale`), so this holds several times that, and still bounds what a read
 * puts in memory. A catalog larger than this is not cached (every start lists it again).
 */
export const MAX_CATALOG_CACHE_BYTES = 512 * 1024 * 1024;

export function writeCatalogCache(path: string, cache: CatalogCacheFile): void {
  const text = JSON.stringify(cache);
  if (text.length > MAX_CATALOG_CACHE_BYTES)
    throw new Error(`the catalog is ${Math.round(text.length / 1048576)} MB as JSON, over the cache's ${MAX_CATALOG_CACHE_BYTES / 1048576} MB`);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileAtomic(path, text, 0o600);
}

/**
 * The cached servers; empty when there is no cache or it is not one we can read. In the CLI the
 * file sits in the workspace, which a repository could ship: only a file MCP Lens wrote is read
 * (adapters/privateFiles: regular, no link, this user's, mode 0600), and only well-formed tools
 * of the server they are filed under are kept.
 */
export function readCatalogCache(path: string): { servers: Record<string, CachedServer>; tokenCounts: Record<string, number> } {
  const empty = { servers: {}, tokenCounts: {} };
  try {
    const read = readPrivateFile(path, MAX_CATALOG_CACHE_BYTES);
    if (!('text' in read)) return empty;
    const c = JSON.parse(read.text) as Partial<CatalogCacheFile>;
    if (c.version !== 2 || !c.servers || typeof c.servers !== 'object') return empty;
    const servers: Record<string, CachedServer> = {};
    for (const [name, s] of Object.entries(c.servers)) {
      if (!s || typeof s.fingerprint !== 'string' || typeof s.listedAt !== 'number' || !Array.isArray(s.tools)) continue;
      const tools = s.tools.filter((t) => isTool(t) && t.server === name);
      servers[name] = { fingerprint: s.fingerprint, listedAt: s.listedAt, tools, ...(typeof s.failed === 'string' && { failed: s.failed }) };
    }
    const tokenCounts: Record<string, number> = {};
    if (c.tokenCounts && typeof c.tokenCounts === 'object') {
      for (const [k, n] of Object.entries(c.tokenCounts)) if (typeof n === 'number' && Number.isInteger(n) && n >= 0) tokenCounts[k] = n;
    }
    return { servers, tokenCounts };
  } catch {
    return empty;
  }
}

function isTool(t: unknown): t is UpstreamTool {
  const x = t as Partial<UpstreamTool> | null;
  return !!x && typeof x.name === 'string' && typeof x.server === 'string' && !!x.inputSchema && typeof x.inputSchema === 'object';
}
