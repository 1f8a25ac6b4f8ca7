/**
 * What the index currently believes about its embedder, and the search-mode label the user
 * sees for it. The labels are part of the product (shown in the dashboard and in find_tools
 * results), so they are built in one place:
 *   hybrid (ollama: nomic-embed-text)
 *   keyword only: Ollama unreachable at http://127.0.0.1:11434
 *   keyword only: model "nomic-embed-text" missing — run `ollama pull nomic-embed-text`
 *   keyword only: embeddings disabled
 *   keyword only: no LanceDB native module for darwin-x64
 */
import type { SearchModeInfo } from '../../../protocol/model';
import { EmbedderError, type Embedder } from '../adapters/embed/embedder';
import { errorMessage } from '../core/errorMessage';

export type HealthState =
  | { kind: 'unknown' }
  | { kind: 'ok' }
  | { kind: 'unreachable'; message: string }
  | { kind: 'slow'; message: string }
  | { kind: 'model-missing'; message: string }
  | { kind: 'error'; message: string };

/** The health an embedding failure implies. */
export function healthFromError(err: unknown): HealthState {
  if (!(err instanceof EmbedderError)) return { kind: 'error', message: errorMessage(err) };
  switch (err.kind) {
    case 'unreachable':
      return { kind: 'unreachable', message: err.message };
    case 'timeout':
      return { kind: 'slow', message: err.message };
    case 'model-missing':
      return { kind: 'model-missing', message: err.message };
    default:
      return { kind: 'error', message: err.message };
  }
}

/** True when a search should not even try the embedder (the background loop will find out when it is back). */
export function skipsQueries(health: HealthState): boolean {
  return health.kind !== 'ok' && health.kind !== 'unknown';
}

/**
 * `hasVectors`: some tools have vectors of this embedder's model, so a query can be answered
 * by meaning. `storeProblem`: why vectors cannot be kept at all here (LanceDB does not load).
 */
export function searchMode(
  embedder: Embedder | undefined,
  health: HealthState,
  hasVectors: boolean,
  storeProblem?: string,
): SearchModeInfo {
  if (!embedder) return keyword('embeddings disabled');
  if (storeProblem !== undefined) return keyword(storeProblem);
  const provider = embedder.id.split(':')[0];
  const host = embedder.host ?? provider;
  switch (health.kind) {
    case 'unreachable':
      return keyword(`Ollama unreachable at ${host}`);
    case 'slow':
      return keyword(`Ollama too slow at ${host}`);
    case 'model-missing':
      return keyword(`model "${embedder.model}" missing — run \`ollama pull ${embedder.model}\``);
    case 'error':
      return keyword(`embedding failed: ${health.message}`);
    default:
      return hasVectors
        ? { kind: 'hybrid', label: `hybrid (${provider}: ${embedder.model})` }
        : keyword(`indexing embeddings with ${embedder.model}`);
  }
}

function keyword(reason: string): SearchModeInfo {
  return { kind: 'keyword', label: `keyword only: ${reason}` };
}
