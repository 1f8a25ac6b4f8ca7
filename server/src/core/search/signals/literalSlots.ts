/**
 * Literal kind ↔ parameter: a request holding a URL, a path or a selector (queryLiterals.ts)
 * wants a tool with a parameter for it. Score × (1 + slots × the share of the request's
 * literal kinds the tool has a parameter for, by the words of its parameters' names).
 */
import { LITERAL_SLOTS } from '../queryLiterals';
import { perDocument } from '../perDocument';
import { rerankSignal, SAYS_NOTHING } from '../rerankSignal';
import { splitWords } from '../tokenize';
import { propertiesOf } from '../toolFields';

export const literalSlots = rerankSignal({
  name: 'literal kind ↔ parameter',
  knobs: [{ name: 'slots', grid: [0, 0.2, 0.5], off: { value: 0, ablation: 'literal kind ↔ parameter' } }],
  profile(catalog, k) {
    if (k.slots === 0) return SAYS_NOTHING;
    const stem = catalog.stem;
    // One Set per distinct parameter list: an organisation's catalog repeats the same schemas
    // across servers, and a Set per tool would hold each of them many times.
    const shared = new Map<string, ReadonlySet<string>>();
    const schemas = catalog.tools.map((t) => t.tool.inputSchema);
    // Read when a request with a literal first has the tool as a candidate (perDocument.ts).
    const paramStems = perDocument(schemas.length, (doc) => {
      const names = Object.keys(propertiesOf(schemas[doc]));
      const key = names.join('\n');
      let set = shared.get(key);
      if (!set) shared.set(key, (set = new Set(names.flatMap((p) => splitWords(p).map((w) => stem(w))))));
      return set;
    });
    return {
      analyse(request) {
        const kinds = [...new Set(request.split.literals.map((l) => l.kind))].filter(
          (kind) => LITERAL_SLOTS[kind] !== undefined,
        );
        if (kinds.length === 0) return undefined;
        return (doc) => {
          const params = paramStems(doc);
          const filled = kinds.filter((kind) => LITERAL_SLOTS[kind]!.some((w) => params.has(stem(w)))).length;
          return 1 + (k.slots * filled) / kinds.length;
        };
      },
    };
  },
});
