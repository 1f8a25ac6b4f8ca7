/**
 * Which searchers a bench mode runs. Keyword mode needs nothing; vector and hybrid need an
 * embedder, so they first probe Ollama and explain plainly when it is not there.
 */
import { DEFAULT_SETTINGS } from '../../../protocol/settings';
import { OllamaEmbedder } from '../adapters/embed/ollamaEmbedder';
import { hybridFactory } from './hybridSearcher';
import { keywordFactory, type SearcherFactory } from './searchers';

export type BenchMode = 'keyword' | 'vector' | 'hybrid';

export const BENCH_MODES: readonly BenchMode[] = ['keyword', 'vector', 'hybrid'];

/** The MCP Lens searcher for a mode, or a message saying what is missing. */
export async function modeFactory(mode: BenchMode, ollamaHost?: string): Promise<SearcherFactory | { error: string }> {
  if (mode === 'keyword') return keywordFactory;
  const host = (ollamaHost ?? DEFAULT_SETTINGS.ollama.host).replace(/\/+$/, '');
  const model = DEFAULT_SETTINGS.embedding.model;
  const embedder = new OllamaEmbedder({ host, model });
  const health = await embedder.probe();
  if (!health.reachable) return { error: `needs Ollama for --mode ${mode}: ${health.error ?? `${host} unreachable`}` };
  if (health.modelMissing) return { error: `needs Ollama model ${model} at ${host}: run \`ollama pull ${model}\`` };
  return hybridFactory(mode, embedder);
}
