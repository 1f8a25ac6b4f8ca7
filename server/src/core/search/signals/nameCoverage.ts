/**
 * Name coverage: a tool whose name words the request says is very likely the one meant
 * (`take screenshot` → browser_take_screenshot). Score × (1 + nameBonus × the idf-weighted share
 * of the tool's name terms the request holds); a name word the request says only as a synonym
 * (synonyms.ts, when the candidate stage expands them) counts nameSynonyms of its idf.
 */
import { rerankSignal, SAYS_NOTHING } from '../rerankSignal';
import { synonymTable } from '../synonyms';

export const nameCoverage = rerankSignal({
  name: 'name coverage',
  knobs: [
    { name: 'nameBonus', grid: [0, 0.25, 0.5, 0.75, 1], off: { value: 0, ablation: 'name coverage' } },
    {
      name: 'nameSynonyms',
      grid: [0, 0.45, 1],
      off: { value: 0, ablation: 'synonyms in name coverage (nameSynonyms 0)' },
    },
  ],
  profile(catalog, k) {
    if (k.nameBonus === 0) return SAYS_NOTHING;
    const synonymCredit = catalog.config.synonyms > 0 ? k.nameSynonyms : 0;
    const table = synonymTable(catalog.stem);
    const idf = catalog.idf;
    // Each tool's distinct name terms and their idfs, which hold for the catalog's lifetime;
    // tools of the same name share them (an organisation's catalog repeats names across servers).
    const byName = new Map<string, { terms: string[]; idfs: number[] }>();
    const named = catalog.tools.map((t) => {
      const key = t.nameTerms.join(' ');
      let entry = byName.get(key);
      if (!entry) {
        const terms = [...new Set(t.nameTerms)];
        byName.set(key, (entry = { terms, idfs: terms.map(idf) }));
      }
      return entry;
    });
    byName.clear();
    const names = named.map((e) => e.terms);
    const idfs = named.map((e) => e.idfs);
    return {
      analyse(request) {
        const inQuery = new Set(request.typed.map((t) => t.term));
        const synonymsInQuery = new Set(synonymCredit > 0 ? request.typed.flatMap((t) => table.get(t.term) ?? []) : []);
        return (doc) => {
          const terms = names[doc]!;
          const idf = idfs[doc]!;
          let have = 0;
          let all = 0;
          for (let i = 0; i < terms.length; i++) {
            all += idf[i]!;
            if (inQuery.has(terms[i]!)) have += idf[i]!;
            else if (synonymsInQuery.has(terms[i]!)) have += synonymCredit * idf[i]!;
          }
          return 1 + k.nameBonus * (all > 0 ? have / all : 0);
        };
      },
    };
  },
});
