/**
 * Words that tool authors and users pick differently for the same software object or task
 * (repo/repository, ticket/issue, folder/directory, env var/config var, memorize/remember).
 * Expansions join a query at a reduced weight, never replacing what was typed.
 *
 * Where the words come from: the vocabulary of software tools and developer requests — object
 * names as REST APIs, CLIs and MCP servers name them (GitHub's "pull request" is GitLab's "merge
 * request"; Kubernetes "pods" and "containers"; a CRM's "contacts", "deals" and "companies"),
 * and the abbreviations developers type (repo, PR, env, db, k8s). Actions (create, delete,
 * list, run…) are in actions.ts, from PowerShell's approved verbs and HTTP's methods: a
 * request's own action is expanded from there (keywordIndex.ts), not every action-like word,
 * since "email" or "post" in a request is as often the thing as the verb. Written from that vocabulary, not from any benchmark's queries or any
 * one server's tools: a group names a kind of thing every platform of its kind has.
 */

const OBJECT_GROUPS: readonly (readonly string[])[] = [
  // Source control and code review
  ['repo', 'repository', 'repos', 'repositories', 'project'],
  ['pr', 'pull', 'mr'],
  ['issue', 'ticket', 'bug'],
  ['commit', 'revision', 'changeset'],
  ['branch', 'ref'],
  // Files and documents
  ['dir', 'directory', 'folder'],
  // Not "document": in MongoDB, Elasticsearch or Firestore a document is a record.
  ['doc', 'docs', 'documentation', 'wiki', 'manual', 'guide'],
  ['page', 'tab'],
  // Data
  ['db', 'database'],
  ['row', 'record', 'entry', 'item'],
  ['column', 'field', 'attribute', 'property'],
  ['collection', 'table'],
  ['query', 'sql', 'select'],
  // People and places to talk
  ['msg', 'message', 'chat', 'dm'],
  ['channel', 'room', 'conversation'],
  ['user', 'member', 'person', 'people', 'account', 'profile'],
  ['team', 'group', 'squad'],
  ['org', 'organization', 'organisation', 'workspace', 'tenant'],
  ['comment', 'reply', 'remark', 'note'],
  ['notification', 'alert', 'inbox'],
  ['email', 'mail', 'inbox'],
  ['calendar', 'event', 'meeting', 'appointment'],
  ['label', 'tag'],
  // Running things
  ['env', 'environment', 'config', 'configuration', 'settings', 'setting', 'var', 'variable'],
  ['secret', 'credential', 'password', 'token', 'key'],
  ['log', 'logs', 'output', 'console', 'trace'],
  ['error', 'exception', 'crash', 'failure', 'incident'],
  ['deploy', 'deployment', 'release', 'rollout'],
  ['build', 'pipeline', 'job', 'workflow', 'ci'],
  ['container', 'pod', 'docker'],
  ['k8s', 'kubernetes', 'kube', 'kubectl', 'cluster'],
  ['vm', 'instance', 'machine', 'server', 'host', 'node'],
  ['process', 'pid', 'program'],
  ['function', 'lambda', 'worker', 'serverless'],
  ['bucket', 'storage', 'blob', 'object'],
  ['metric', 'metrics', 'stat', 'stats', 'statistics', 'usage', 'analytics'],
  ['cron', 'schedule', 'timer', 'scheduled'],
  ['cost', 'price', 'pricing', 'billing', 'invoice', 'bill'],
  ['customer', 'client', 'contact', 'lead'],
  ['auth', 'authentication', 'login', 'signin', 'session', 'oauth'],
  ['permission', 'role', 'access', 'grant', 'acl'],
  // The web and the browser
  ['url', 'link', 'href', 'website', 'site', 'web'],
  ['screenshot', 'capture', 'snapshot', 'screen'],
  ['img', 'image', 'picture', 'photo'],
  ['element', 'selector', 'node', 'button', 'field'],
  ['scrape', 'crawl', 'extract', 'parse'],
  // Knowledge kept for later
  // What an agent keeps between sessions: a memory, knowledge base or knowledge graph of facts.
  ['remember', 'memorize', 'memory', 'recall', 'knowledge', 'forget'],
  ['fact', 'observation', 'knowledge', 'note', 'entity'],
  // Writing and reading
  ['summarize', 'summary', 'digest', 'tldr', 'overview'],
  ['translate', 'translation'],
  ['convert', 'conversion', 'transform'],
  ['info', 'information', 'detail', 'details', 'metadata'],
  ['monitor', 'watch', 'track', 'observe'],
  ['simulate', 'emulate', 'mock', 'fake', 'throttle'],
  ['recent', 'latest', 'last', 'newest'],
  ['count', 'many', 'number', 'total'],
  ['video', 'recording', 'screencast', 'film'],
];

const tables = new Map<(word: string) => string, Map<string, string[]>>();

/**
 * Stemmed synonym map, built once per stemmer: stem → stems of the other words of its groups.
 */
export function synonymTable(stemWord: (word: string) => string): ReadonlyMap<string, readonly string[]> {
  const cached = tables.get(stemWord);
  if (cached) return cached;
  const t = new Map<string, Set<string>>();
  const groups = OBJECT_GROUPS;
  for (const group of groups) {
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
