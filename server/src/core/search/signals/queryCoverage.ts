/**
 * Query coverage: BM25 sums per-word evidence, so one frequent word can outscore a tool that
 * matches every word once. Score × (1 + coverage × the idf-weighted share of the request's
 * typed words the tool holds) favours the tool that answers the whole request (rank-1
 * precision). A word the tool says in other words (repo ↔ repository, ticket ↔ issue) is
 * partly covered: it counts coverageSynonyms of its idf.
 */
import { rerankSignal, SAYS_NOTHING } from '../rerankSignal';
import { synonymTable } from '../synonyms';

export const queryCoverage = rerankSignal({
  name: 'query coverage',
  knobs: [
    { name: 'coverage', grid: [0, 0.5, 1, 1.5], off: { value: 0, ablation: 'query coverage' } },
    {
      name: 'coverageSynonyms',
      grid: [0, 0.45, 0.75, 1],
      off: { value: 0, ablation: 'synonyms in query coverage (coverageSynonyms 0)' },
    },
  ],
  profile(catalog, k) {
    if (k.coverage === 0) return SAYS_NOTHING;
    const synonymCredit = catalog.config.synonyms > 0 ? k.coverageSynonyms : 0;
    const table = synonymTable(catalog.stem);
    const terms = catalog.tools.map((t) => t.terms);
    return {
      analyse(request) {
        const typed = request.typed;
        const queryIdf = typed.reduce((sum, t) => sum + t.idf, 0);
        const typedSynonyms = synonymCredit > 0 ? typed.map((t) => table.get(t.term) ?? []) : [];
        return (doc) => {
          const holds = terms[doc]!;
          let held = 0;
          typed.forEach((t, i) => {
            if (holds.has(t.term)) held += t.idf;
            else if (synonymCredit > 0 && typedSynonyms[i]!.some((x) => holds.has(x))) held += synonymCredit * t.idf;
          });
          return 1 + k.coverage * (queryIdf > 0 ? held / queryIdf : 0);
        };
      },
    };
  },
});
