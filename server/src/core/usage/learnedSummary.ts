/**
 * What search learning has learned, per tool, as the dashboard shows it (protocol/model.ts
 * LearnedToolSummary): its past requests for and against, its net weight, how many sessions
 * taught it, and its words by weight — each shown as people typed it (the form typed most often),
 * never as the stem the ranking compares, and whether it counts for every session or only for the
 * one that taught it (learnedDocuments.ts). Words are letters and digits only (learnedTerms.ts,
 * checked again when the file is read); a tool key the catalog does not hold is shown escaped. Pure.
 */
import type { LearnedToolSummary } from '../../../../protocol/model';
import { escapeForDisplay } from '../../../../protocol/untrustedText';
import { sharedTerms } from './learnedDocuments';
import type { LearnedExample } from './learnedExamples';

/** Tools listed, most weight first. */
export const MAX_SUMMARY_TOOLS = 100;
/** Words listed per tool, most weight first. */
export const MAX_SUMMARY_WORDS = 12;

interface WordTally {
  weight: number;
  requests: number;
  /** Typed form → how many examples typed it so. */
  typed: Map<string, number>;
}

interface ToolTally {
  summary: LearnedToolSummary;
  words: Map<string, WordTally>;
  examples: LearnedExample[];
  teachers: Set<string>;
}

export function learnedSummary(
  examples: Iterable<LearnedExample>,
  nameOf: (key: string) => string | undefined,
): LearnedToolSummary[] {
  const byTool = new Map<string, ToolTally>();
  for (const e of examples) {
    let t = byTool.get(e.key);
    if (!t) {
      const summary: LearnedToolSummary = {
        // A key the catalog does not hold now may come from a hand-edited file: shown with any oddity written out.
        name: nameOf(e.key) ?? escapeForDisplay(e.key),
        server: escapeForDisplay(e.server),
        requests: 0,
        against: 0,
        weight: 0,
        sessions: 0,
        words: [],
        lastAt: 0,
      };
      byTool.set(e.key, (t = { summary, words: new Map(), examples: [], teachers: new Set() }));
    }
    const s = t.summary;
    if (e.weight > 0) s.requests++;
    else s.against++;
    s.weight += e.weight;
    s.lastAt = Math.max(s.lastAt, e.at);
    t.examples.push(e);
    t.teachers.add(e.by);
    e.terms.forEach((term, i) => {
      let w = t.words.get(term);
      if (!w) t.words.set(term, (w = { weight: 0, requests: 0, typed: new Map() }));
      w.weight += e.weight;
      w.requests++;
      const typed = e.words[i] ?? term;
      w.typed.set(typed, (w.typed.get(typed) ?? 0) + 1);
    });
  }
  const out = [...byTool.values()].map(({ summary, words, examples: mine, teachers }) => {
    const everyone = sharedTerms(mine.filter((e) => e.weight > 0));
    return {
      ...summary,
      weight: round(summary.weight),
      sessions: teachers.size,
      words: [...words]
        .filter(([, w]) => w.weight > 0)
        .sort((a, b) => b[1].weight - a[1].weight || b[1].requests - a[1].requests || (a[0] < b[0] ? -1 : 1))
        .slice(0, MAX_SUMMARY_WORDS)
        .map(([term, w]) => ({
          word: mostTyped(w.typed),
          weight: round(w.weight),
          requests: w.requests,
          everyone: everyone.has(term),
        })),
    };
  });
  out.sort((a, b) => b.weight - a.weight || b.lastAt - a.lastAt || (a.name < b.name ? -1 : 1));
  return out.slice(0, MAX_SUMMARY_TOOLS);
}

/** The form typed most often (the first of equals, in the order they were taught). */
function mostTyped(typed: ReadonlyMap<string, number>): string {
  let best = '';
  let most = 0;
  for (const [word, n] of typed) if (n > most) [best, most] = [word, n];
  return best;
}

function round(x: number): number {
  return Math.round(x * 100) / 100;
}
