/**
 * The words a set of tools is about, without a model: the words that occur in the most of
 * their names and descriptions, minus filler. Used for list_servers' one-line summaries and for
 * the "no matches" hint, which shows people the words a server's tools actually use. Pure.
 */
import type { CatalogTool } from './catalog';

const STOP = new Set(
  (
    'a an and any are as at be by can for from get gets has have if in into is it its list lists of on or ' +
    'return returns set sets the this to tool tools use used uses using via when which will with without you your ' +
    'all each new one more than that these those not no only also may must should specified given provided based ' +
    'optional required default true false null string number object array value values id ids name names data ' +
    'current specific whether within about after before other such e g eg etc do does ' +
    // Filler of tool descriptions: says how much, never what about.
    'comprehensive detailed information various multiple several including provides allows enables'
  ).split(' '),
);

/**
 * Up to `max` words, ranked by how many of the tools use them (ties alphabetical). A plural and
 * its singular ("file", "files") count as one word, shown in the form the tools use most: two
 * forms of one word tell a reader nothing more and cost twice the space.
 */
export function topWords(tools: readonly CatalogTool[], max: number): string[] {
  const docFreq = new Map<string, number>();
  const forms = new Map<string, Map<string, number>>();
  for (const t of tools) {
    const words = new Set(wordsOf(`${t.originalName} ${t.title ?? ''} ${firstSentence(t.description)}`));
    const stems = new Set<string>();
    for (const w of words) {
      const stem = singular(w);
      stems.add(stem);
      const f = forms.get(stem) ?? new Map<string, number>();
      f.set(w, (f.get(w) ?? 0) + 1);
      forms.set(stem, f);
    }
    for (const stem of stems) docFreq.set(stem, (docFreq.get(stem) ?? 0) + 1);
  }
  const shown = (stem: string) =>
    [...forms.get(stem)!.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]![0];
  return [...docFreq.entries()]
    .map(([stem, n]) => [shown(stem), n] as const)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, max)
    .map(([w]) => w);
}

/** An English plural's singular, by its ending alone ("directories" → "directory", "files" → "file"); other words as they are. */
function singular(word: string): string {
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith('s') && !/(ss|us|is)$/.test(word) && word.length > 3) return word.slice(0, -1);
  return word;
}

function firstSentence(text: string): string {
  const s = text.split(/(?<=[.!?])\s/)[0] ?? '';
  return s.slice(0, 300);
}

/** Lower-case words of a name or text: camelCase, snake_case and kebab-case split; no digits-only words. */
function wordsOf(text: string): string[] {
  return text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 2 && !/^\d+$/.test(w) && !STOP.has(w));
}
