/**
 * Which MCP Lens searchers a bench run measures. Keyword mode needs nothing; vector and hybrid
 * need an embedder — Ollama, or any OpenAI-compatible `/v1/embeddings` endpoint — which is
 * probed first, with a plain message when it is not there. `--embedder` alone measures all
 * three modes in one run, so the tables put keyword, vector and hybrid side by side on the
 * same data; `--mode` picks one.
 */
import { DEFAULT_SETTINGS } from '../../protocol/settings';
import type { Embedder } from '../../server/src/adapters/embed/embedder';
import { OllamaEmbedder } from '../../server/src/adapters/embed/ollamaEmbedder';
import { OpenAiEmbedder } from './embed/openaiEmbedder';
import { semanticFactories, type SemanticMode } from './hybridSearcher';
import { keywordFactory, type SearcherFactory } from './searchers';

export type BenchMode = 'keyword' | SemanticMode;

export const BENCH_MODES: readonly BenchMode[] = ['keyword', 'vector', 'hybrid'];

export const EMBEDDERS = ['ollama', 'openai'] as const;

/** What the command line says about modes and embedders (all optional; the key comes from the environment). */
export interface LensModeOptions {
  mode?: string;
  embedder?: string;
  ollamaHost?: string;
  model?: string;
  embedUrl?: string;
  apiKey?: string;
  fusionYield?: string;
}

export type LensModes = { modes: BenchMode[]; factories: SearcherFactory[] } | { error: string; usage: boolean };

/** The MCP Lens searchers for these options, in mode order, or what is wrong (`usage`: with the command line, not the service). */
export async function lensFactories(o: LensModeOptions): Promise<LensModes> {
  const usage = (error: string): LensModes => ({ error, usage: true });
  if (o.mode !== undefined && !BENCH_MODES.includes(o.mode as BenchMode))
    return usage(`unknown --mode "${o.mode}" (keyword, vector or hybrid)`);
  if (o.embedder !== undefined && !(EMBEDDERS as readonly string[]).includes(o.embedder))
    return usage(`unknown --embedder "${o.embedder}" (ollama or openai)`);
  const kind = o.embedder ?? 'ollama';
  if (o.embedUrl !== undefined && kind !== 'openai') return usage('--embed-url is for --embedder openai');
  if (o.ollamaHost !== undefined && kind !== 'ollama') return usage('--ollama-host is for --embedder ollama');
  if (kind === 'openai' && (o.embedUrl === undefined || o.model === undefined))
    return usage('--embedder openai needs --embed-url URL and --model NAME');
  const modes: BenchMode[] =
    o.mode !== undefined ? [o.mode as BenchMode] : o.embedder !== undefined ? [...BENCH_MODES] : ['keyword'];
  const semantic = modes.filter((m): m is SemanticMode => m !== 'keyword');
  const fusionYield = o.fusionYield === undefined ? 0 : Number(o.fusionYield);
  if (!(fusionYield >= 0 && fusionYield <= 1))
    return usage(`--fusion-yield wants a share of the request's words from 0 to 1, got "${o.fusionYield}"`);
  if (o.fusionYield !== undefined && !semantic.includes('hybrid'))
    return usage('--fusion-yield is for hybrid mode: give --embedder (all modes) or --mode hybrid');
  if (semantic.length === 0) return { modes, factories: [keywordFactory] };

  const embedder =
    kind === 'openai'
      ? openAiEmbedder(o)
      : new OllamaEmbedder({
          host: (o.ollamaHost ?? DEFAULT_SETTINGS.ollama.host).replace(/\/+$/, ''),
          model: o.model ?? DEFAULT_SETTINGS.embedding.model,
        });
  if ('error' in embedder) return usage(embedder.error);
  const health = await embedder.probe();
  const what = `--mode ${semantic[0]}`;
  if (kind === 'ollama') {
    if (!health.reachable)
      return { error: `needs Ollama for ${what}: ${health.error ?? `${embedder.host} unreachable`}`, usage: false };
    if (health.modelMissing)
      return {
        error: `needs Ollama model ${embedder.model} at ${embedder.host}: run \`ollama pull ${embedder.model}\``,
        usage: false,
      };
  } else if (!health.reachable || health.error) {
    return {
      error: `needs an OpenAI-compatible embeddings endpoint for ${what}: ${health.error ?? `${embedder.host} unreachable`}`,
      usage: false,
    };
  }
  const lens = semanticFactories(embedder, semantic, fusionYield);
  return { modes, factories: modes.map((m) => (m === 'keyword' ? keywordFactory : lens[semantic.indexOf(m)]!)) };
}

function openAiEmbedder(o: LensModeOptions): Embedder | { error: string } {
  try {
    return new OpenAiEmbedder({ url: o.embedUrl!, model: o.model!, ...(o.apiKey ? { apiKey: o.apiKey } : {}) });
  } catch (err) {
    return { error: `--embed-url: ${(err as Error).message}` };
  }
}
