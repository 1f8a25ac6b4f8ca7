/**
 * Builds the tool index the settings ask for: keyword search always, plus Ollama vectors
 * unless embeddings are turned off. Ollama being absent is not an error here: the index
 * reports keyword-only mode and fills in vectors if Ollama appears.
 */
import type { McpLensSettings } from '../../../protocol/settings';
import type { Logger } from '../core/logger';
import type { ToolIndex } from '../core/search/types';
import { HybridToolIndex } from '../index/hybridIndex';
import { LanceToolStore } from '../adapters/store/lanceToolStore';
import { MemoryToolIndex } from '../index/memoryIndex';
import { OllamaEmbedder } from '../adapters/embed/ollamaEmbedder';
import { errorMessage } from '../core/errorMessage';

export async function openToolIndex(storeDir: string, settings: McpLensSettings, log: Logger): Promise<ToolIndex> {
  // Without embeddings there is nothing to store: LanceDB (tens of MB of native code) stays unloaded.
  if (!settings.embedding.enabled) return new MemoryToolIndex('keyword only: embeddings disabled');
  const embedder = new OllamaEmbedder({ host: settings.ollama.host, model: settings.embedding.model, log });
  try {
    return await HybridToolIndex.open({ store: await LanceToolStore.open({ dir: storeDir, log }), embedder, log });
  } catch (err) {
    // A full disk or a read-only folder must not keep the sidecar from starting: search goes
    // on keyword-only in memory, and the mode label says why.
    const reason = (err as NodeJS.ErrnoException).code ?? errorMessage(err);
    log.error(`tool index: cannot open the tool store in ${storeDir} (${errorMessage(err)}); searching keyword-only in memory`);
    return new MemoryToolIndex(`keyword only: tool store unusable (${reason})`);
  }
}
