/**
 * A value per document of the catalog, computed the first time a search asks for it and kept.
 * A re-rank signal reads only the candidates of a search (at most RERANK_DEPTH, keywordIndex.ts):
 * reading every tool when the catalog is indexed made each sync pay for the whole catalog —
 * a warm start's first find_tools among them, while twenty servers were spawning.
 */
export function perDocument<T>(size: number, compute: (doc: number) => T): (doc: number) => T {
  const values: T[] = new Array<T>(size);
  const known = new Uint8Array(size);
  return (doc) => {
    if (known[doc] === 1) return values[doc]!;
    const value = compute(doc);
    values[doc] = value;
    known[doc] = 1;
    return value;
  };
}
