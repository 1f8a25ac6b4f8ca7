/**
 * What search learning has learned, per tool, as the dashboard shows it (protocol/model.ts
 * LearnedToolSummary): its past requests for and against, its net weight, and its words by
 * weight, each word as a request wrote it (`spell`: learnedSpellings.ts), not its stem. Pure.
 */
import type { LearnedToolSummary } from '../../../../protocol/model';
import type { LearnedExample } from './learnedExamples';

/** Tools listed, most weight first. */
export const MAX_SUMMARY_TOOLS = 100;
/** Words listed per tool, most weight first. */
export const MAX_SUMMARY_WORDS = 12;

export function learnedSummary(
  examples: Iterable<LearnedExample>,
  nameOf: (key: string) => string | undefined,
  spell: (term: string) => string = (term) => term,
): LearnedToolSummary[] {
  const byTool = new Map<
    string,
    { summary: LearnedToolSummary; words: Map<string, { weight: number; requests: number }> }
  >();
  for (const e of examples) {
    let t = byTool.get(e.key);
    if (!t) {
      const summary: LearnedToolSummary = {
        name: nameOf(e.key) ?? e.key,
        server: e.server,
        requests: 0,
        against: 0,
        weight: 0,
        words: [],
        lastAt: 0,
      };
      byTool.set(e.key, (t = { summary, words: new Map() }));
    }
    const s = t.summary;
    if (e.weight > 0) s.requests++;
    else s.against++;
    s.weight += e.weight;
    s.lastAt = Math.max(s.lastAt, e.at);
    for (const term of e.terms) {
      const w = t.words.get(term) ?? { weight: 0, requests: 0 };
      w.weight += e.weight;
      w.requests++;
      t.words.set(term, w);
    }
  }
  const out = [...byTool.values()].map(({ summary, words }) => ({
    ...summary,
    weight: round(summary.weight),
    words: [...words]
      .filter(([, w]) => w.weight > 0)
      .sort((a, b) => b[1].weight - a[1].weight || b[1].requests - a[1].requests || (a[0] < b[0] ? -1 : 1))
      .slice(0, MAX_SUMMARY_WORDS)
      .map(([term, w]) => ({ word: spell(term), weight: round(w.weight), requests: w.requests })),
  }));
  out.sort((a, b) => b.weight - a.weight || b.lastAt - a.lastAt || (a.name < b.name ? -1 : 1));
  return out.slice(0, MAX_SUMMARY_TOOLS);
}

function round(x: number): number {
  return Math.round(x * 100) / 100;
}
