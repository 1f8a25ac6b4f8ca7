/**
 * Product mentions: a request that names a server's product ("in Sentry", "on GitHub", "the
 * Supabase project") is about that server's tools. Pure: built once per catalog from the
 * servers' names and their tools' words, read once per request.
 */
import type { CatalogTool } from '../catalog';
import { camelCaseParts, splitRequestWords, splitWords, STOP_WORDS } from './tokenize';
import type { TermSet } from './docTokens';
import { UNSPACED_SCRIPTS } from './wordRuns';

/** A server-name word used by more than this share of other servers' tools is not a product mention. */
const SERVER_WORD_ELSEWHERE = 0.01;

/** What serverNames needs of each indexed tool: its server and its (stemmed) words. */
export interface ToolWords {
  server: string;
  terms: TermSet;
}

export interface ServerName {
  server: string;
  stems: string[];
  /** No other server's tool uses any of these words. */
  ownWords: boolean;
}

/** Words after which a name is what a request is about, not what it should use. */
const TOPIC_MARKERS: ReadonlySet<string> = new Set([
  'about',
  'regarding',
  'concerning',
  'mentioning',
  'mention',
  'mentions',
  're',
]);

/**
 * Stems of the words that follow a topic marker within three words ("news about the GitHub
 * outage", "anything regarding Sentry"): their names are the subject, not the server to use.
 */
function topicStems(words: readonly string[], stem: (w: string) => string): Set<string> {
  const out = new Set<string>();
  words.forEach((w, i) => {
    if (!TOPIC_MARKERS.has(w)) return;
    for (let j = i + 1; j <= i + 3 && j < words.length; j++) out.add(stem(words[j]!));
  });
  return out;
}

/**
 * A word written with a capital letter, after a space, an opening mark, a sentence's end, or a
 * character of an unspaced script ("在GitHub上", "GitHubのリポジトリ"); it ends where such a
 * script starts again.
 */
const CAPITALISED = new RegExp(
  `(^|[.!?]\\s+|\\s|[("'\`]|[${UNSPACED_SCRIPTS}])(\\p{Lu}(?:(?![${UNSPACED_SCRIPTS}])[\\p{L}\\p{N}])*)`,
  'gu',
);

/**
 * Stems of the words a request writes with a capital letter, other than a sentence's first
 * word: how people write product names ("in Sentry", "on GitHub", "the Supabase project").
 */
function capitalisedStems(text: string, stem: (w: string) => string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(CAPITALISED)) {
    if (m.index === 0 || /[.!?]\s+$/.test(m[1] ?? '')) {
      // A sentence's first word is capitalised whatever it is; count it only when the rest of
      // it is capitalised too (GitHub, SQL), which ordinary words are not.
      if (!/\p{Lu}/u.test((m[2] ?? '').slice(1))) continue;
    }
    for (const w of splitRequestWords(m[2] ?? '')) out.add(stem(w));
  }
  return out;
}

/**
 * How a request names each server (a product): every word of its configured name
 * (`chrome-devtools` → chrome + devtools, `Domain Checker` → domain + checker), or the prefix
 * most of its tool names share (`linear_createIssue` → linear). A single word counts only when
 * it is the server's own: a word many other servers' tools use ("weather", "email", "search")
 * says what a request is about, not which server it names. One-tool servers are left out:
 * their name is their tool's name, which the ranking already weighs.
 */
export function serverNames(
  tools: readonly CatalogTool[],
  stem: (w: string) => string,
  docs: readonly ToolWords[],
): ServerName[] {
  const byServer = new Map<string, CatalogTool[]>();
  for (const t of tools) {
    let list = byServer.get(t.server);
    if (!list) byServer.set(t.server, (list = []));
    list.push(t);
  }
  const stemsOf = (text: string) => [
    ...new Set(
      splitWords(text)
        .filter((w) => w.length > 1 && !STOP_WORDS.has(w) && !/^\d+$/.test(w))
        .map(stem),
    ),
  ];
  // How many tools of other servers use a word: every tool's count, less its own server's.
  const total = new Map<string, number>();
  const byServerCount = new Map<string, Map<string, number>>();
  for (const d of docs) {
    let own = byServerCount.get(d.server);
    if (!own) byServerCount.set(d.server, (own = new Map()));
    d.terms.forEach((t) => {
      total.set(t, (total.get(t) ?? 0) + 1);
      own!.set(t, (own!.get(t) ?? 0) + 1);
    });
  }
  const elsewhere = (word: string, server: string) =>
    (total.get(word) ?? 0) - (byServerCount.get(server)?.get(word) ?? 0);
  const limit = Math.max(2, docs.length * SERVER_WORD_ELSEWHERE);
  const out: ServerName[] = [];
  for (const [server, list] of byServer) {
    if (list.length < 2) continue;
    const candidates: string[][] = [stemsOf(server)];
    const firsts = new Map<string, number>();
    for (const t of list) {
      const first = splitWords(t.originalName)[0];
      if (first) firsts.set(first, (firsts.get(first) ?? 0) + 1);
    }
    for (const [w, n] of firsts) if (list.length >= 3 && n >= list.length * 0.6) candidates.push(stemsOf(w));
    for (const stems of candidates) {
      const uses = stems.map((t) => elsewhere(t, server));
      // A name made only of words many other servers' tools use ("Finance Data", "Email
      // Validator") describes a topic; a product name has at least one word of its own.
      if (stems.length === 0 || uses.every((n) => n > limit)) continue;
      if (!out.some((n) => n.server === server && n.stems.join(' ') === stems.join(' ')))
        out.push({ server, stems, ownWords: uses.every((n) => n === 0) });
    }
  }
  return out;
}

/**
 * The servers a request names: every word of one of a server's names is in the request, not
 * as the topic ("news about the GitHub outage"), and either the name is the server's own (no
 * other server's tools use it: "in linear") or the request writes it as a name ("in Memory").
 * `words` are the request's words in order, stop words kept (splitRequestWords).
 */
export function mentionedServers(
  names: readonly ServerName[],
  text: string,
  words: readonly string[],
  stem: (w: string) => string,
): Set<string> {
  const servers = new Set<string>();
  // A name written in camel case counts whole and as its parts ("YouTube" names both
  // `youtube-api` and `Simple YouTube Search`, whose name splits as you + tube).
  const present = new Set([...words, ...camelCaseParts(text)].map(stem));
  const capitalised = capitalisedStems(text, stem);
  const topics = topicStems(words, stem);
  // Only the names whose first word the request holds, in the list's order: an organisation's
  // catalog has thousands of names, a request a few words.
  const byFirst = firstStemIndex(names);
  const candidates: number[] = [];
  for (const t of present) for (const i of byFirst.get(t) ?? []) candidates.push(i);
  candidates.sort((a, b) => a - b);
  for (const i of candidates) {
    const n = names[i]!;
    if (!n.stems.every((t) => present.has(t))) continue;
    if (n.stems.every((t) => topics.has(t))) continue;
    if (n.ownWords || n.stems.some((t) => capitalised.has(t))) servers.add(n.server);
  }
  return servers;
}

/** Each name list's positions by the first stem of each name, built once per list (a catalog's lifetime). */
const FIRST_STEM_INDEX = new WeakMap<readonly ServerName[], Map<string, number[]>>();

function firstStemIndex(names: readonly ServerName[]): Map<string, number[]> {
  let index = FIRST_STEM_INDEX.get(names);
  if (!index) {
    index = new Map();
    names.forEach((n, i) => {
      const first = n.stems[0];
      if (first === undefined) return;
      const list = index!.get(first);
      if (list) list.push(i);
      else index!.set(first, [i]);
    });
    FIRST_STEM_INDEX.set(names, index);
  }
  return index;
}
