/**
 * Builds the tool index the settings ask for: keyword search always, plus Ollama vectors
 * unless embeddings are turned off. Ollama being absent is not an error here: the index
 * reports keyword-only mode, and opens its LanceDB store (loading the native module) only
 * when Ollama answers. A build without LanceDB, or a platform where it does not load, searches
 * keyword-only and says why.
 */
import type { McpLensSettings } from '../../../protocol/settings';
import type { Logger } from '../core/logger';
import type { ToolIndex } from '../core/search/types';
import type { CatalogTokensCache } from '../core/search/catalogTokensCodec';
import { HybridToolIndex } from '../index/hybridIndex';
import { LanceToolStore } from '../adapters/store/lanceToolStore';
import { lanceMissing } from '../adapters/store/lanceModule';
import { MemoryToolIndex } from '../index/memoryIndex';
import { OllamaEmbedder } from '../adapters/embed/ollamaEmbedder';

/** `tokens`: where keyword search keeps the catalog's reading between runs (adapters/catalogTokensFile.ts). */
export async function openToolIndex(
  storeDir: string,
  settings: McpLensSettings,
  log: Logger,
  tokens?: CatalogTokensCache,
): Promise<ToolIndex> {
  if (!settings.embedding.enabled) return new MemoryToolIndex('keyword only: embeddings disabled', tokens);
  // A keyword-only build ships no LanceDB at all: no Ollama probe, the mode says so from the start.
  const missing = lanceMissing();
  if (missing) {
    log.info(`tool index: ${missing}; searching keyword-only`);
    return new MemoryToolIndex(`keyword only: ${missing}`, tokens);
  }
  const embedder = new OllamaEmbedder({ host: settings.ollama.host, model: settings.embedding.model, log });
  return HybridToolIndex.open({
    openStore: () => LanceToolStore.open({ dir: storeDir, log }),
    embedder,
    log,
    ...(tokens && { tokens }),
  });
}
