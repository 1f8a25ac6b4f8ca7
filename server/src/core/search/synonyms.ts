/**
 * A small, hand-written table of tool-domain synonyms and abbreviations: the words tool authors
 * and users pick differently for the same action or object (remove/delete, fetch/get,
 * repo/repository). Generic on purpose — written from how MCP tools are named, not from any
 * benchmark's queries. Expansions are added to a query at a reduced weight, never replacing it.
 */

const GROUPS: readonly (readonly string[])[] = [
  ['remove', 'delete', 'erase', 'destroy'],
  ['get', 'fetch', 'retrieve', 'obtain', 'read'],
  ['create', 'add', 'new', 'make', 'insert'],
  ['update', 'modify', 'edit', 'change', 'set'],
  ['find', 'search', 'lookup', 'query', 'look'],
  ['list', 'enumerate', 'show', 'display'],
  ['send', 'post', 'publish', 'submit'],
  ['run', 'execute', 'exec', 'invoke', 'launch', 'start'],
  ['stop', 'kill', 'terminate', 'halt', 'end'],
  ['repo', 'repository'],
  ['dir', 'directory', 'folder'],
  ['doc', 'document', 'docs', 'documentation'],
  ['info', 'information', 'detail', 'details'],
  ['db', 'database'],
  ['msg', 'message'],
  ['img', 'image', 'picture', 'photo'],
  ['pic', 'picture'],
  ['screenshot', 'capture', 'snapshot'],
  ['email', 'mail'],
  ['movie', 'film'],
  ['song', 'music', 'track'],
  ['price', 'cost', 'rate', 'quote'],
  ['location', 'place', 'address'],
  ['weather', 'forecast'],
  ['url', 'link', 'website', 'web', 'page'],
  ['stat', 'stats', 'statistics', 'metrics'],
  ['config', 'configuration', 'settings'],
  ['auth', 'authentication', 'login'],
  ['pr', 'pull'],
  ['calc', 'calculate', 'compute'],
  ['convert', 'conversion', 'transform'],
  ['translate', 'translation'],
  ['recipe', 'cooking', 'food'],
  ['job', 'jobs', 'career', 'employment'],
  ['news', 'headlines', 'articles'],
];

const tables = new Map<(word: string) => string, Map<string, string[]>>();

/** Stemmed synonym map, built once per stemmer: stem → stems of the other words in its groups. */
export function synonymTable(stemWord: (word: string) => string): ReadonlyMap<string, readonly string[]> {
  const cached = tables.get(stemWord);
  if (cached) return cached;
  const t = new Map<string, Set<string>>();
  for (const group of GROUPS) {
    const stems = [...new Set(group.map(stemWord))];
    for (const s of stems) {
      const set = t.get(s) ?? new Set<string>();
      for (const other of stems) if (other !== s) set.add(other);
      t.set(s, set);
    }
  }
  const table = new Map([...t].map(([k, v]) => [k, [...v]]));
  tables.set(stemWord, table);
  return table;
}
