/**
 * The hint a search with no results comes with (pure): tools whose names are close to a word
 * of the query, the servers whose tools cannot be found right now and why (apart from those
 * searched from the tools they listed last), and the words each searchable server's tools use.
 * "memorize" finds nothing in a catalog that says "entities" and "observations"; showing those
 * words is how a person learns what to type instead.
 */
import type { NoMatchHint, SearchHit, ServerStatus } from '../../../protocol/model';
import type { CatalogTool } from './catalog';
import { closestNames, normalizeName } from './nameSuggestions';
import { topWords } from './toolVocabulary';

/** Close names offered at most. */
const MAX_CLOSE = 3;
/** Words per server: enough to see what it is about, short enough for one palette line. */
const WORDS_PER_SERVER = 8;
/** Query words shorter than this are too short to compare with names. */
const MIN_WORD = 4;

export function noMatchHint(
  query: string,
  tools: readonly CatalogTool[],
  servers: readonly ServerStatus[],
): NoMatchHint {
  const notReady = servers.filter((s) => s.state !== 'ready');
  const hint: NoMatchHint = {
    closeNames: closeNames(query, tools),
    // A server answering from its last known tools was searched: it is not "unavailable".
    unavailable: notReady
      .filter((s) => !s.fromCache)
      .map((s) => (s.error ? { name: s.name, state: s.state, error: s.error } : { name: s.name, state: s.state })),
    servers: catalogHints(tools).servers,
  };
  const lastKnown = notReady.filter((s) => s.fromCache).map((s) => ({ name: s.name, state: s.state }));
  if (lastKnown.length) hint.lastKnown = lastKnown;
  return hint;
}

/**
 * What a catalog's hints are read from, built once per catalog (the Lens hands out a new tools
 * array when it changes): at 100,000 tools, building them per query took seconds.
 */
interface CatalogHints {
  byName: Map<string, CatalogTool[]>;
  names: string[];
  /** `names` normalized for closestNames. */
  normalized: string[];
  servers: NoMatchHint['servers'];
}

const hintsOf = new WeakMap<readonly CatalogTool[], CatalogHints>();

function catalogHints(tools: readonly CatalogTool[]): CatalogHints {
  let hints = hintsOf.get(tools);
  if (!hints) {
    const byName = new Map<string, CatalogTool[]>();
    for (const t of tools) {
      for (const n of new Set([t.originalName, t.name])) {
        const list = byName.get(n);
        if (list) list.push(t);
        else byName.set(n, [t]);
      }
    }
    const names = [...byName.keys()];
    hints = { byName, names, normalized: names.map(normalizeName), servers: serverWords(tools) };
    hintsOf.set(tools, hints);
  }
  return hints;
}

/** Tools whose original or client-safe name is closest to the whole query or one of its words. */
function closeNames(query: string, tools: readonly CatalogTool[]): SearchHit[] {
  const { byName, names, normalized } = catalogHints(tools);
  // Single words first: the reason shown names the word that was close.
  const words = [...query.split(/[^\p{L}\p{N}_-]+/u).filter((w) => w.length >= MIN_WORD), query];
  const found = new Map<string, { tool: CatalogTool; word: string }>();
  for (const word of words) {
    for (const n of closestNames(word, names, MAX_CLOSE, normalized)) {
      for (const tool of byName.get(n)!) if (!found.has(tool.name)) found.set(tool.name, { tool, word });
    }
  }
  return [...found.values()].slice(0, MAX_CLOSE).map(({ tool, word }) => ({
    name: tool.name,
    server: tool.server,
    originalName: tool.originalName,
    description: tool.description,
    score: 0,
    signals: [],
    why: `name close to "${word}"`,
    // "Try it" in the dashboard needs it, as it does for a found tool.
    inputSchema: tool.inputSchema,
  }));
}

function serverWords(tools: readonly CatalogTool[]): NoMatchHint['servers'] {
  const byServer = new Map<string, CatalogTool[]>();
  for (const t of tools) {
    const list = byServer.get(t.server);
    if (list) list.push(t);
    else byServer.set(t.server, [t]);
  }
  return [...byServer]
    .sort((a, b) => a[0].localeCompare(b[0]))
    .map(([name, list]) => ({ name, tools: list.length, words: topWords(list, WORDS_PER_SERVER) }));
}
