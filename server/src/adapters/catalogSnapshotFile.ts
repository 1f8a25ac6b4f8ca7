/**
 * The last catalog the sidecar saw, on disk, so `mcp-lens search` can answer in a fraction of
 * a second without starting every server. It is a cache, never the truth: it is only used
 * when the servers that would run are exactly the ones (same definitions) it was taken from,
 * and it is written whole (temp file + rename), so a reader never sees half of one.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { writeFileAtomic } from './atomicFile';
import type { UpstreamTool } from './upstream/types';

export interface CatalogSnapshot {
  version: 1;
  writtenAt: number;
  /** Server name → fingerprint of the definition its tools were listed from. */
  servers: Record<string, string>;
  /** Servers that had failed (name → fingerprint): they have no tools here. */
  failed: Record<string, string>;
  /** As the servers listed them: include/exclude and naming apply on top, as for live tools. */
  tools: UpstreamTool[];
}

export function writeCatalogSnapshot(path: string, snapshot: CatalogSnapshot): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileAtomic(path, JSON.stringify(snapshot), 0o600);
}

/** The snapshot, or undefined when there is none or it is not one we can read. */
export function readCatalogSnapshot(path: string): CatalogSnapshot | undefined {
  try {
    const s = JSON.parse(readFileSync(path, 'utf8')) as Partial<CatalogSnapshot>;
    if (s.version !== 1 || typeof s.writtenAt !== 'number' || !s.servers || !s.failed || !Array.isArray(s.tools)) return undefined;
    return s as CatalogSnapshot;
  } catch {
    return undefined;
  }
}

/**
 * True when `running` (name → fingerprint) is exactly the set the snapshot was taken from:
 * the same servers with the same definitions, whether they were listed or had failed.
 */
export function snapshotMatches(snapshot: CatalogSnapshot, running: Record<string, string>): boolean {
  const taken = { ...snapshot.failed, ...snapshot.servers };
  const names = Object.keys(running);
  return (
    Object.keys(snapshot.servers).length > 0 &&
    names.length === Object.keys(taken).length &&
    names.every((n) => taken[n] === running[n])
  );
}
