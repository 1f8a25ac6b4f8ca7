/**
 * Deprecation: a tool whose description says it is deprecated and names its replacement
 * ("DEPRECATED: use read_text_file instead", negationScope.ts deprecatedFor) yields to that
 * tool when both answer a request: score × (1 − deprecatedYield) while the replacement is a
 * candidate too. A replacement is a tool of the same server, by its own name or its catalog
 * name; a deprecation that names no tool of the catalog changes nothing (a server that calls
 * itself deprecated still has the only tools for its product).
 */
import { deprecatedFor } from '../negationScope';
import { rerankSignal, SAYS_NOTHING } from '../rerankSignal';

export const deprecation = rerankSignal({
  name: 'deprecated tools yield',
  knobs: [
    {
      name: 'deprecatedYield',
      grid: [0, 0.25, 0.5, 0.75],
      off: { value: 0, ablation: 'deprecated tools yield to their replacement' },
    },
  ],
  profile(catalog, k) {
    if (k.deprecatedYield === 0) return SAYS_NOTHING;
    const byName = new Map<string, number>();
    const nameKey = (server: string, name: string) => `${server}\0${name.toLowerCase()}`;
    catalog.tools.forEach((t, doc) => {
      byName.set(nameKey(t.server, t.tool.originalName), doc);
      byName.set(nameKey(t.server, t.tool.name), doc);
    });
    /** Deprecated document → the documents it names as its replacement. */
    const replacedBy = new Map<number, number[]>();
    catalog.tools.forEach((t, doc) => {
      const named = deprecatedFor(t.tool.description)
        .map((name) => byName.get(nameKey(t.server, name)))
        .filter((d): d is number => d !== undefined && d !== doc);
      if (named.length > 0) replacedBy.set(doc, named);
    });
    byName.clear();
    if (replacedBy.size === 0) return SAYS_NOTHING;
    const factor = 1 - k.deprecatedYield;
    return {
      analyse(_request, candidates) {
        const yielding = new Set<number>();
        const present = new Set(candidates);
        for (const [doc, named] of replacedBy)
          if (present.has(doc) && named.some((d) => present.has(d))) yielding.add(doc);
        if (yielding.size === 0) return undefined;
        return (doc) => (yielding.has(doc) ? factor : 1);
      },
    };
  },
});
