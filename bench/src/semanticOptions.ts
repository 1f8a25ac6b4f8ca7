/**
 * `mcp-lens bench`'s options for semantic search (issue #26): which embedder, which model and
 * where, the hybrid fusion's yield, and the listing of requests whose first hit hybrid mode
 * changes. Kept apart from bench/src/benchCommand.ts's own options so each block reads on its own (and merges on its own).
 */
import type { LensModeOptions } from './modes';

/** The API key of an OpenAI-compatible endpoint is read from here, never from the command line (which `ps` shows). */
export const EMBED_API_KEY_ENV = 'MCP_LENS_EMBED_API_KEY';

export const SEMANTIC_OPTIONS = {
  embedder: { type: 'string' },
  model: { type: 'string' },
  'embed-url': { type: 'string' },
  'fusion-yield': { type: 'string' },
  'show-changes': { type: 'boolean', default: false },
} as const;

export const SEMANTIC_HELP = `Semantic search (vector and hybrid modes):
  --embedder ollama|openai
                    measure keyword, vector and hybrid in one run (--mode picks one) with
                    this embedder: Ollama (--ollama-host, default http://127.0.0.1:11434), or
                    any OpenAI-compatible /v1/embeddings endpoint (OpenAI, vLLM, llama.cpp,
                    LM Studio, LocalAI, TEI): --embed-url URL (the base, e.g.
                    http://127.0.0.1:8080/v1, or the endpoint itself), key in env
                    ${EMBED_API_KEY_ENV} (sent as a bearer token, never printed)
  --model NAME      the embedding model (Ollama default nomic-embed-text; required for openai)
  --fusion-yield X  hybrid: keyword search's first hit yields first place to the meaning
                    ranking's when it holds less than X (0-1) of the request's words
                    (default 0: never; core/search/hybridFusion.ts)
  --show-changes    after each set, list the requests whose first hit hybrid mode changes
                    against keyword mode (fixed / broken / other); needs both modes`;

/** The parsed values this block declares. */
export interface SemanticValues {
  mode?: string | undefined;
  'ollama-host'?: string | undefined;
  embedder?: string | undefined;
  model?: string | undefined;
  'embed-url'?: string | undefined;
  'fusion-yield'?: string | undefined;
}

/** The options for bench/src/modes.ts lensFactories, the key from the environment. */
export function lensModeOptions(v: SemanticValues, env: NodeJS.ProcessEnv): LensModeOptions {
  const pick = (name: keyof LensModeOptions, value: string | undefined) =>
    value === undefined ? {} : { [name]: value };
  return {
    ...pick('mode', v.mode),
    ...pick('ollamaHost', v['ollama-host']),
    ...pick('embedder', v.embedder),
    ...pick('model', v.model),
    ...pick('embedUrl', v['embed-url']),
    ...pick('fusionYield', v['fusion-yield']),
    ...pick('apiKey', env[EMBED_API_KEY_ENV] || undefined),
  };
}
