/**
 * The workspace's domains in one line, for the find_tools description: each server's name
 * and the words most of its tools share, e.g. "files (directory, file, read), memory
 * (entities, graph, relations)". An agent whose client defers tools sees from this alone
 * that find_tools reaches those domains. Deterministic — sorted, ties broken
 * alphabetically, no counts or states — so the tools/list stays byte-identical across
 * restarts for the same servers and tools, and prompt caches stay warm.
 */
import type { CatalogTool } from '../core/catalog';
import { topWords } from '../core/toolVocabulary';

const WORDS_PER_SERVER = 3;
const MAX_SERVERS = 24;

/** Server names are third-party text shown to the model: plain characters only. */
function plainName(name: string): string {
  return name.replace(/[^\w.@/-]+/g, '_').slice(0, 40);
}

export function workspaceDomains(serverNames: readonly string[], tools: readonly CatalogTool[]): string {
  const byServer = new Map<string, CatalogTool[]>();
  for (const t of tools) byServer.set(t.server, [...(byServer.get(t.server) ?? []), t]);
  const names = [...new Set(serverNames)].sort();
  const parts = names.slice(0, MAX_SERVERS).map((server) => {
    const words = domainWords(byServer.get(server) ?? [], plainName(server).toLowerCase());
    return words.length ? `${plainName(server)} (${words.join(', ')})` : plainName(server);
  });
  if (names.length > MAX_SERVERS) parts.push(`and ${names.length - MAX_SERVERS} more servers`);
  return parts.join(', ');
}

/** The words most of a server's tools use (core/toolVocabulary), less those of its own name, sorted. */
function domainWords(tools: readonly CatalogTool[], server: string): string[] {
  return topWords(tools, WORDS_PER_SERVER + 4)
    .filter((w) => !server.includes(w))
    .slice(0, WORDS_PER_SERVER)
    .sort();
}
