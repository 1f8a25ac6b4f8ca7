/**
 * The servers the gateway benches start: the 19 servers of the recorded workspace, each
 * replayed over stdio (test/fixtures/servers/replay.mjs, one process per server), plus the
 * three real npm test servers (server-everything, -filesystem, -memory), and on request one
 * that never answers initialize. One list, so the start-up and the call-overhead benches
 * measure the same workspace.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { recordedCatalogFile, repoRoot } from './benchFiles';

export type BenchServerEntry = { command: string; args: string[]; env?: Record<string, string> };

/** The server-everything entry's name (its get-sum is what the overhead benches call). */
export const EVERYTHING_SERVER = 'test-everything';

/** The recorded catalog (test/fixtures/catalog). */
function catalogFile(): string {
  const file = recordedCatalogFile();
  if (!existsSync(file)) throw new Error(`no recorded catalog at ${file}`);
  return file;
}

/** `dir` holds the filesystem server's root and the memory server's file. */
export function benchServers(dir: string, withHang = false): Record<string, BenchServerEntry> {
  const root = repoRoot();
  const catalog = catalogFile();
  const names = Object.keys((JSON.parse(readFileSync(catalog, 'utf8')) as { servers: object }).servers);
  const replay = join(root, 'test', 'fixtures', 'servers', 'replay.mjs');
  const real = (n: string) => join(root, 'node_modules', '@modelcontextprotocol', `server-${n}`, 'dist', 'index.js');
  const out: Record<string, BenchServerEntry> = {};
  for (const n of names) out[n] = { command: process.execPath, args: [replay, n, '--file', catalog] };
  out[EVERYTHING_SERVER] = { command: process.execPath, args: [real('everything'), 'stdio'] };
  out['test-filesystem'] = { command: process.execPath, args: [real('filesystem'), dir] };
  out['test-memory'] = {
    command: process.execPath,
    args: [real('memory')],
    env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') },
  };
  if (withHang)
    out['test-hang'] = {
      command: process.execPath,
      args: [join(root, 'test', 'fixtures', 'servers', 'hang-init.mjs')],
    };
  return out;
}

/** A workspace config file's `servers` for these entries (stdio). */
export function configServers(
  servers: Record<string, BenchServerEntry>,
): Record<string, BenchServerEntry & { type: 'stdio' }> {
  return Object.fromEntries(Object.entries(servers).map(([n, e]) => [n, { type: 'stdio' as const, ...e }]));
}
