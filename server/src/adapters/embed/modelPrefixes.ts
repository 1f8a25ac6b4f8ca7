/**
 * Task prefixes some embedding models were trained with. nomic-embed-text expects
 * `search_query: ` before a query and `search_document: ` before a document; without them its
 * retrieval quality drops. Every other model gets no prefix: adding a prefix a model was not
 * trained with only adds noise. Add a row here when adopting another prefixed model.
 */
export interface ModelPrefixes {
  query: string;
  document: string;
}

const PREFIXES: Readonly<Record<string, ModelPrefixes>> = {
  'nomic-embed-text': { query: 'search_query: ', document: 'search_document: ' },
};

const NONE: ModelPrefixes = { query: '', document: '' };

/** The prefixes for a model name as Ollama spells it (`nomic-embed-text`, `nomic-embed-text:latest`, `library/x:v1.5`). */
export function prefixesFor(model: string): ModelPrefixes {
  return PREFIXES[baseModelName(model)] ?? NONE;
}

/** `registry/library/nomic-embed-text:v1.5` → `nomic-embed-text`. */
function baseModelName(model: string): string {
  const lastSegment = model.trim().toLowerCase().split('/').pop() ?? '';
  return lastSegment.split(':')[0];
}

/** True when `listed` (a name from `/api/tags`) is the model `wanted`; a bare name means `:latest`. */
export function sameModel(wanted: string, listed: string): boolean {
  const norm = (m: string) => (m.includes(':') ? m.toLowerCase() : `${m.toLowerCase()}:latest`);
  return norm(wanted) === norm(listed);
}
