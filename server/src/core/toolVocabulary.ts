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
    'current specific whether within about after before other such e g eg etc do does'
  ).split(' '),
);

/** Up to `max` words, ranked by how many of the tools use them (ties alphabetical). */
export function topWords(tools: readonly CatalogTool[], max: number): string[] {
  const docFreq = new Map<string, number>();
  for (const t of tools) {
    const words = new Set(wordsOf(`${t.originalName} ${t.title ?? ''} ${firstSentence(t.description)}`));
    for (const w of words) docFreq.set(w, (docFreq.get(w) ?? 0) + 1);
  }
  return [...docFreq.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, max)
    .map(([w]) => w);
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
