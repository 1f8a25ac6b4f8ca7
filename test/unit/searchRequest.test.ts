/**
 * What a request says, apart from its words: literal values (queryLiterals.ts), the action it
 * asks for and the action a tool performs (actions.ts). Requests written for these tests.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { actionAgreement, actionLexicon, requestAction, toolAction } from '../../server/src/core/search/actions';
import { idShapes, splitLiterals } from '../../server/src/core/search/queryLiterals';
import { splitRequestWords, splitWords, STOP_WORDS, stemWord } from '../../server/src/core/search/tokenize';
import { mentionedServers, serverNames } from '../../server/src/core/search/productMentions';

const literals = (q: string) => splitLiterals(q).literals.map((l) => `${l.kind}:${l.text}`);
const intent = (q: string) => splitLiterals(q).intent.replace(/\s+/g, ' ').trim();

test('literal values: selectors, paths, globs, URLs, e-mails, ids and quoted text are values, not intent', () => {
  const cases: [string, string[], string][] = [
    ['click #search-input on the page', ['tag:#search-input'], 'click on the page'],
    ['click .btn.btn-primary > span', ['selector:.btn.btn-primary'], 'click > span'],
    ['find every *.test.ts under src/components', ['glob:*.test.ts', 'path:src/components'], 'find every under'],
    ['open https://example.com/search?q=1 in a new tab', ['url:https://example.com/search?q=1'], 'open in a new tab'],
    ['invite ana@example.org to the workspace', ['email:ana@example.org'], 'invite to the workspace'],
    ['close ticket OPS-1182 and PR #77', ['id:OPS-1182', 'id:#77'], 'close ticket and PR'],
    ['rename the branch to "search results page"', ['quoted:search results page'], 'rename the branch to'],
    ['read ./config/settings.yaml and ~/.npmrc', ['path:./config/settings.yaml', 'path:~/.npmrc'], 'read and'],
    ['restart the job with --no-cache', ['flag:--no-cache'], 'restart the job with'],
    [
      'show record rec8Hx2kQ9 and deployment dpl_7Hx2Lm',
      ['id:rec8Hx2kQ9', 'id:dpl_7Hx2Lm'],
      'show record and deployment',
    ],
  ];
  for (const [q, lits, rest] of cases) {
    assert.deepEqual(literals(q).sort(), lits.sort(), q);
    assert.equal(intent(q), rest, q);
  }
});

test('literal values: names that contain digits, numbers, apostrophes and named quotes stay words', () => {
  for (const q of [
    'encode the image as base64',
    'upgrade to oauth2',
    'scale the k8s deployment to 3 replicas',
    'a 14 day forecast',
    "don't delete it, it's mine",
  ]) {
    assert.deepEqual(literals(q), [], q);
  }
  // A quoted name followed by what it names is the thing to use.
  assert.deepEqual(literals("use the 'Get Content' API"), []);
  assert.match(intent("use the 'Get Content' API"), /Get Content/);
  // A tool-like identifier someone typed is a name, not a generated id.
  assert.deepEqual(literals('call delete_webhook_v2 now'), []);
});

const stem = stemWord;
const action = (q: string) => requestAction(splitLiterals(q).intent, stem);

test('request action: the leading verb of the first asking clause', () => {
  const cases: [string, string | undefined][] = [
    ['List the pods in namespace shop', 'list'],
    ['please delete the staging bucket', 'delete'],
    ['can you create a branch for the fix', 'create'],
    ['I need to update the README', 'update'],
    ['Which pods are crash looping?', 'read'],
    ['how many rows does the orders table have', 'read'],
    ['show me the failing tests', 'read'],
    ['In the browser, type hello into #q', 'fill'],
    ['use Firecrawl to search the web for pricing pages', 'search'],
    ["I'm planning a trip. Can you find flights to Lisbon?", 'search'],
    ['the dev server is stuck — shut it down', 'stop'],
    ['spin up a new preview environment', 'create'],
    ['roll back the last deploy', 'restore'],
    ['check off the two groceries items', 'complete'],
    ['coffee shops near the office', undefined],
  ];
  for (const [q, want] of cases) assert.equal(action(q), want, q);
});

const lex = actionLexicon(stem);
const words = (text: string) =>
  splitWords(text)
    .filter((w) => !STOP_WORDS.has(w))
    .map(stem);
const tAction = (name: string, description = '') => toolAction(words(name), words(description), lex, stem);

test('tool action: a verb in the name, else the description lead; HTTP methods yield to either', () => {
  assert.equal(tAction('get_pull_request_reviews'), 'get');
  assert.equal(tAction('create_pull_request_review'), 'create');
  assert.equal(tAction('kubectl_get'), 'get');
  assert.equal(tAction('exec_in_pod'), 'run');
  assert.equal(tAction('search_issues'), 'search');
  assert.equal(tAction('update_issue'), 'update');
  // The object a tool handles is not its action: pg_backups reads backups.
  assert.equal(tAction('pg_backups', 'Lists the backups of a database'), 'list');
  // An HTTP method in a generated name says how, not what.
  assert.equal(tAction('API-post-search', 'Search by title'), 'search');
  assert.equal(tAction('API-post-page', 'Notion | Create a page'), 'create');
  assert.equal(tAction('API-patch-block', 'Notion | Update a block'), 'update');
  assert.equal(tAction('jira_post'), 'create');
  assert.equal(tAction('weather', 'Current conditions for a city'), undefined);
});

test('action agreement: same action, both reads, read against write, unknown', () => {
  assert.equal(actionAgreement('list', 'list'), 1);
  assert.equal(actionAgreement('list', 'get'), 0.5);
  assert.equal(actionAgreement('get', 'create'), -1);
  assert.equal(actionAgreement('create', 'search'), -1);
  assert.equal(actionAgreement('create', 'update'), 0);
  assert.equal(actionAgreement('complete', 'update'), 0.5, 'resolving an issue is updating it');
  assert.equal(actionAgreement('read', 'search'), 1, 'a question takes any read');
  assert.equal(actionAgreement('read', 'delete'), -1);
  assert.equal(actionAgreement(undefined, 'get'), 0);
  assert.equal(actionAgreement('delete', undefined), 0);
});

// --- Ranking behaviours on a small catalog shaped like a real workspace (tools written here).

import type { CatalogTool } from '../../server/src/core/catalog';
import { DEFAULT_KEYWORD_CONFIG } from '../../server/src/core/search/keywordConfig';
import { KeywordIndex } from '../../server/src/core/search/keywordIndex';

function tool(server: string, name: string, description: string, props: Record<string, string> = {}): CatalogTool {
  const properties = Object.fromEntries(Object.entries(props).map(([k, d]) => [k, { type: 'string', description: d }]));
  return {
    key: `${server}/${name}`,
    name: `${server}_${name}`,
    server,
    originalName: name,
    description,
    inputSchema: { type: 'object', properties },
  };
}

/** Enough tools per server that each is a platform (more than contextMaxTools), as real ones are. */
function padded(server: string, tools: CatalogTool[]): CatalogTool[] {
  const extra = Array.from({ length: DEFAULT_KEYWORD_CONFIG.contextMaxTools + 1 - tools.length }, (_, i) =>
    tool(server, `admin_task_${i}`, `Administrative task number ${i} of ${server}`),
  );
  return [...tools, ...extra];
}

const WORKSPACE: CatalogTool[] = [
  ...padded('browser', [
    tool('browser', 'browser_click', 'Click an element on the page', { selector: 'CSS selector of the element' }),
    tool('browser', 'browser_type', 'Type text into an editable element', {
      selector: 'CSS selector',
      text: 'Text to type',
    }),
    tool('browser', 'browser_fill_form', 'Fill several form fields at once', { fields: 'Field names and values' }),
    tool('browser', 'browser_navigate', 'Navigate to a URL', { url: 'The URL' }),
  ]),
  ...padded('files', [
    tool('files', 'search_files', 'Recursively search for files matching a pattern', {
      path: 'Folder to search',
      pattern: 'Glob pattern',
    }),
    tool('files', 'read_file', 'Read the contents of a file', { path: 'Path of the file' }),
  ]),
  ...padded('tracker', [
    tool('tracker', 'whoami', 'Show the name and email of the signed-in user'),
    tool('tracker', 'search_issues', 'Search issues by text, status or assignee', { query: 'Search text' }),
    tool('tracker', 'update_issue', 'Update an issue: status, assignee, resolution', {
      issueId: 'Issue id',
      status: 'New status',
    }),
    tool('tracker', 'add_comment', 'Add a comment to an issue', { issueId: 'Issue id', body: 'Comment text' }),
  ]),
  ...padded('github', [
    tool('github', 'search_issues', 'Search issues and pull requests in GitHub repositories', { q: 'Search query' }),
    tool('github', 'update_issue', 'Update an existing issue in a GitHub repository', {
      issue_number: 'Issue number',
      state: 'open or closed',
    }),
    tool('github', 'add_issue_comment', 'Add a comment to a GitHub issue', {
      issue_number: 'Issue number',
      body: 'Comment text',
    }),
    tool('github', 'get_pull_request_reviews', 'Get the reviews on a pull request', {
      pull_number: 'Pull request number',
    }),
    tool(
      'github',
      'create_pull_request_review',
      'Create a review on a pull request: approve, request changes or comment',
      {
        pull_number: 'Pull request number',
        event: 'APPROVE, REQUEST_CHANGES or COMMENT',
      },
    ),
  ]),
  ...padded('kubernetes', [
    tool('kubernetes', 'kubectl_get', 'Get or list Kubernetes resources such as pods, deployments and services', {
      resourceType: 'pods, deployments…',
      namespace: 'Namespace',
    }),
    tool('kubernetes', 'exec_in_pod', 'Execute a command in a pod', { pod: 'Pod name', command: 'Command to run' }),
    tool('kubernetes', 'kubectl_logs', 'Get the logs of a pod', { pod: 'Pod name' }),
  ]),
];

const first = (index: KeywordIndex, q: string) => index.searchSync(q, { limit: 5 })[0]?.key;

test('ranking: literal values do not count as the task', () => {
  const index = new KeywordIndex(WORKSPACE);
  // The selector's words ("search", "input") are not a file search.
  assert.equal(first(index, 'click #search-input'), 'browser/browser_click');
  // Field names the request fills are not a request for the user's name and e-mail.
  assert.equal(first(index, "fill the form: name 'Ana Lima', email ana@example.org"), 'browser/browser_fill_form');
  // A glob is what to search for, not a reason to read a file.
  assert.equal(first(index, 'find every *.test.ts under src'), 'files/search_files');
});

test('ranking: the tool whose action answers the request comes first', () => {
  const index = new KeywordIndex(WORKSPACE);
  assert.equal(first(index, 'List the pods in namespace shop'), 'kubernetes/kubectl_get');
  assert.equal(first(index, 'approve GitHub PR 412 with a short review'), 'github/create_pull_request_review');
  assert.equal(first(index, 'which reviews does GitHub PR 412 have?'), 'github/get_pull_request_reviews');
  assert.equal(first(index, 'resolve issue OPS-77 in the tracker'), 'tracker/update_issue');
});

test('ranking: a product the request names pulls the ranking to its server', () => {
  const index = new KeywordIndex(WORKSPACE);
  assert.equal(first(index, 'comment on GitHub issue 12 that the fix is merged'), 'github/add_issue_comment');
  assert.equal(first(index, 'comment on tracker issue OPS-12 that the fix is merged'), 'tracker/add_comment');
  assert.equal(first(index, 'search GitHub for issues about flaky login'), 'github/search_issues');
  // Without a product mention the two comment tools are close, and neither is boosted.
  const plain = index
    .searchSync('add a comment to an issue', { limit: 2 })
    .map((h) => h.key)
    .sort();
  assert.deepEqual(plain, ['github/add_issue_comment', 'tracker/add_comment']);
});

test('ranking: each step can be switched off (the ablation measures them)', () => {
  const off = new KeywordIndex(WORKSPACE, {
    ...DEFAULT_KEYWORD_CONFIG,
    literal: 1,
    action: 0,
    serverMention: 0,
    slots: 0,
  });
  const on = new KeywordIndex(WORKSPACE);
  const rank = (index: KeywordIndex, q: string, key: string) =>
    index.searchSync(q, { limit: 50 }).findIndex((h) => h.key === key);
  // With everything off the PR-review pair is decided by words alone; with it on, by action.
  assert.ok(
    rank(on, 'approve GitHub PR 412 with a short review', 'github/create_pull_request_review') <=
      rank(off, 'approve GitHub PR 412 with a short review', 'github/create_pull_request_review'),
  );
  assert.ok(
    rank(on, 'List the pods in namespace shop', 'kubernetes/kubectl_get') <=
      rank(off, 'List the pods in namespace shop', 'kubernetes/kubectl_get'),
  );
});

test('ranking: a memory server is found by what people say to it (remember, store, memorize)', () => {
  // Tools shaped like a knowledge-graph memory server: they speak of entities and observations.
  const memory = padded('memory', [
    tool('memory', 'create_entities', 'Create multiple new entities in the knowledge graph', {
      entities: 'Entities to create',
    }),
    tool('memory', 'add_observations', 'Add new observations to existing entities in the knowledge graph', {
      observations: 'Observations to add',
    }),
    tool('memory', 'delete_observations', 'Delete specific observations from entities in the knowledge graph', {
      deletions: 'Observations to delete',
    }),
    tool('memory', 'search_nodes', 'Search for nodes in the knowledge graph based on a query', {
      query: 'Search text',
    }),
  ]);
  const index = new KeywordIndex([...WORKSPACE, ...memory]);
  for (const q of [
    'remember a fact',
    'store a fact',
    'memorize',
    'remember that the staging DB moved to Postgres 16',
  ]) {
    const top = index.searchSync(q, { limit: 3 }).map((h) => h.key);
    assert.ok(top[0] === 'memory/add_observations' || top[0] === 'memory/create_entities', `${q}: ${top.join(', ')}`);
  }
  assert.equal(first(index, 'forget the observation about Redis'), 'memory/delete_observations');
});

test('ranking: a product named as the subject of a web search does not outrank the search', () => {
  const web = padded('websearch', [
    tool('websearch', 'web_search', 'Search the web and return the top results', { query: 'Search query' }),
  ]);
  const index = new KeywordIndex([...WORKSPACE, ...web]);
  assert.equal(first(index, 'search the web for news about the GitHub outage'), 'websearch/web_search');
});

test('id shapes: exact (digit runs as #) and coarse (letter runs by case)', () => {
  assert.deepEqual(idShapes('tt1234567'), ['@tt#', '%a#']);
  assert.deepEqual(idShapes('ENG-482'), ['@eng-#', '%A-#']);
  // Two ids of one tracker share the coarse shape, whatever their prefix.
  assert.equal(idShapes('ENG-482')[1], idShapes('ABC-123')[1]);
});

test('ranking: an id shaped like the example a tool documents is a value that tool takes', () => {
  const tracker = padded('issues', [
    tool('issues', 'getIssueById', 'Get a specific issue by ID', { id: 'Issue identifier (e.g., ABC-123)' }),
    tool('issues', 'getIssueDocuments', 'Get the documents attached to an issue', { issue: 'Issue' }),
    tool('issues', 'getIssueTemplates', 'Get the issue templates of a team', { team: 'Team' }),
  ]);
  const index = new KeywordIndex(tracker);
  assert.equal(first(index, 'get issue ENG-482'), 'issues/getIssueById');
  // Switched off, the request's words alone do not single it out.
  const off = new KeywordIndex(tracker, { ...DEFAULT_KEYWORD_CONFIG, shapes: 0 });
  assert.notEqual(first(off, 'get issue ENG-482'), 'issues/getIssueById');
});

test('product mentions: a name written in camel case names a server whose name splits it ("YouTube" → Simple YouTube Search)', () => {
  const video = padded('Simple YouTube Search', [
    tool('Simple YouTube Search', 'playlist', 'Get the videos of a playlist', { id: 'Playlist id' }),
  ]);
  const music = padded('music', [
    tool('music', 'get_playlist', 'Get a music playlist with its tracks', { id: 'Playlist id' }),
  ]);
  const tools = [...video, ...music];
  const docs = tools.map((t) => ({
    server: t.server,
    terms: new Set(splitWords(`${t.originalName} ${t.description}`).map(stem)),
  }));
  const q = 'Fetch a playlist from Simple YouTube Search with upbeat songs';
  const servers = mentionedServers(serverNames(tools, stem, docs), q, splitRequestWords(q), stem);
  assert.deepEqual([...servers], ['Simple YouTube Search']);
});

test('ranking: a one-tool server (a plugin) is not held to the action of its description lead', () => {
  // Each plugin is its server's only tool. The question would be an implied read, which the
  // Get plugin's lead verb answers and the Create plugin's does not; neither says what the
  // plugin is for as a whole, so the words decide.
  const plugins = [
    tool('ChartMaker', 'ChartMaker', 'Create charts from your data'),
    tool('DataViewer', 'DataViewer', 'Get data and charts from your spreadsheets'),
  ];
  assert.equal(first(new KeywordIndex(plugins), 'what charts can I draw from my data?'), 'ChartMaker/ChartMaker');
  assert.equal(
    first(
      new KeywordIndex(plugins, { ...DEFAULT_KEYWORD_CONFIG, soloAction: 1 }),
      'what charts can I draw from my data?',
    ),
    'DataViewer/DataViewer',
  );
});

test('ranking: a request word the tool says as a synonym counts toward coverage', () => {
  const tracker = padded('tracker', [
    tool('tracker', 'get_issue', 'Get an issue with its history', { id: 'Issue id' }),
    tool('tracker', 'get_ticket_history_export', 'Export the history of every ticket as a file', { id: 'Export id' }),
  ]);
  const on = new KeywordIndex(tracker, { ...DEFAULT_KEYWORD_CONFIG, coverageSynonyms: 1, nameSynonyms: 1 });
  const off = new KeywordIndex(tracker, { ...DEFAULT_KEYWORD_CONFIG, coverageSynonyms: 0, nameSynonyms: 0 });
  assert.equal(first(on, 'get the ticket history'), 'tracker/get_issue');
  assert.equal(first(off, 'get the ticket history'), 'tracker/get_ticket_history_export');
});
