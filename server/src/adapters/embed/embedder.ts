/**
 * The contract between the tool index and whatever turns text into vectors. The Ollama
 * adapter is the only implementation today; tests drive it against a real HTTP server that
 * speaks Ollama's protocol.
 */

/** What a health probe learned about the embedding service. */
export interface EmbedderHealth {
  reachable: boolean;
  /** True when the service answers but does not have the model. */
  modelMissing?: boolean;
  version?: string;
  error?: string;
}

/** One line of model download progress (`/api/pull` NDJSON). */
export interface PullProgress {
  status: string;
  digest?: string | undefined;
  total?: number | undefined;
  completed?: number | undefined;
}

/** Why an embedding call failed; the index maps each kind to a search-mode label. */
export type EmbedderErrorKind = 'unreachable' | 'timeout' | 'model-missing' | 'server' | 'bad-response' | 'aborted';

/** An embedding failure with enough context for the user to act on it. */
export class EmbedderError extends Error {
  constructor(
    readonly kind: EmbedderErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'EmbedderError';
  }
}

export interface Embedder {
  /** Stable id stored with every vector, e.g. `ollama:nomic-embed-text`; a change means re-embed. */
  readonly id: string;
  /** The model name as the service knows it, e.g. `nomic-embed-text`. */
  readonly model: string;
  /** Where the service lives (shown in status and mode labels), when it has an address. */
  readonly host?: string;
  /** One vector per text, in order. Throws EmbedderError. */
  embedDocuments(texts: string[], signal?: AbortSignal): Promise<number[][]>;
  /** The vector of one search query (models like nomic-embed-text embed queries differently). */
  embedQuery(text: string, signal?: AbortSignal): Promise<number[]>;
  /** Never throws: reachability, model presence and version. */
  probe(): Promise<EmbedderHealth>;
  /** Downloads the model, reporting progress; throws EmbedderError on failure. */
  pull?(onProgress: (p: PullProgress) => void, signal?: AbortSignal): Promise<void>;
}
