/**
 * What a request asks to *do*, and what a tool does: the action, held against each other so
 * "list the pods" prefers a list/get tool over `exec_in_pod`, and "approve the PR with a
 * review" prefers `create_pull_request_review` over `get_pull_request_reviews`. The words of
 * each action, and where they come from, are in actionVocabulary.ts.
 */
import { ACTION_VOCABULARY, type ActionClass, type ActionWords } from './actionVocabulary';
import { splitWords } from './tokenize';

export type { ActionClass } from './actionVocabulary';

/** Actions that only read: a question asks for one of these. */
export const READ_ACTIONS: ReadonlySet<ActionClass> = new Set(['list', 'get', 'search']);

/** Actions that change an existing thing's state (resolving an issue is updating it). */
const CHANGE_ACTIONS: ReadonlySet<ActionClass> = new Set(['update', 'complete', 'restore', 'approve']);

/**
 * What a request asks to do: an action, or `read` when it asks a question ("which pods are
 * failing?") — some read, without saying list, get or search.
 */
export type RequestAction = ActionClass | 'read';

/** Words that open a question: the request asks to read something ("which tags are on…"). */
const QUESTION_WORDS: ReadonlySet<string> = new Set([
  'what',
  'which',
  'who',
  'whom',
  'whose',
  'when',
  'where',
  'why',
  'how',
  'is',
  'are',
  'was',
  'were',
  'does',
  'do',
  'did',
  'has',
  'have',
  'any',
]);

/**
 * Words that open a request without saying the action ("please", "can you", "I want to",
 * "go ahead and") and are skipped when looking for the leading verb.
 */
const OPENERS: ReadonlySet<string> = new Set([
  'please',
  'can',
  'could',
  'would',
  'will',
  'you',
  'i',
  'we',
  'me',
  'us',
  'let',
  'lets',
  'want',
  'need',
  'like',
  'to',
  'should',
  'must',
  'd',
  'just',
  'now',
  'also',
  'then',
  'quickly',
  'kindly',
  'and',
  'ahead',
  'try',
  'help',
  'hey',
  'hi',
  'ok',
  'okay',
  'so',
  'first',
  'next',
  'finally',
]);

/** Words that open a clause saying where or with what, not what to do ("in the browser, …", "use Tavily to …"). */
const SETTING_WORDS: ReadonlySet<string> = new Set([
  'in',
  'on',
  'at',
  'from',
  'with',
  'within',
  'inside',
  'for',
  'use',
  'using',
  'via',
  'through',
]);

/** Sentences that describe the situation rather than ask ("I'm planning a trip", "My app crashes", "We have…"). */
function isStatement(words: readonly string[]): boolean {
  const [a, b] = words;
  if (a === 'i' && (b === 'm' || b === 'am' || b === 've' || b === 'have' || b === 'was' || b === 'had')) return true;
  if (a === 'we' && (b === 're' || b === 'are' || b === 've' || b === 'have' || b === 'had')) return true;
  return a === 'my' || a === 'our' || a === 'this' || a === 'it' || a === 'there';
}

/**
 * The action a request asks for: the leading verb of its first asking sentence or clause,
 * after openers ("please", "can you", "I need to"), or a read when that is a question.
 * Sentences that only set the scene ("I'm planning a trip.") and clauses that only say where
 * ("In the Puppeteer browser, type…", "Use Tavily to crawl…") are passed over. Undefined when
 * no asking clause starts with an action (a noun phrase: "coffee shops near the office").
 *
 * `text` is the request with its literal values removed (queryLiterals.ts).
 */
export function requestAction(text: string, stem: (word: string) => string): RequestAction | undefined {
  const lex = actionLexicon(stem);
  for (const clause of text.split(/[.!?;:,\n\u2013\u2014]+|\s-\s/)) {
    let words = splitWords(clause);
    if (words.length === 0 || isStatement(words)) continue;
    if (SETTING_WORDS.has(words[0])) {
      // "use X to VERB …" / "with X, VERB": the verb after "to", else the next clause.
      const to = words.indexOf('to');
      if ((words[0] === 'use' || words[0] === 'using') && to > 0) words = words.slice(to + 1);
      else continue;
    }
    let i = 0;
    while (i < words.length && OPENERS.has(words[i])) i++;
    if (i >= words.length) continue;
    if (QUESTION_WORDS.has(words[i]!)) return 'read';
    // "show me all…", "give me…", "tell me…": a read.
    if ((words[i] === 'give' || words[i] === 'tell' || words[i] === 'show') && words[i + 1] === 'me') return 'read';
    // A clause that opens with no action ("the dev server is stuck — shut it down") leaves it
    // to the next one.
    const lead = actionAt(words.map(stem), i, lex);
    if (lead) return lead;
  }
  return undefined;
}

/**
 * Action words that are as often the object a tool handles as what it does (`pg_backups`,
 * `get_pull_request_reviews` has its verb first anyway, `slack_post_message`): in a tool name
 * they do not decide the action.
 */
const NOUNISH_IN_NAMES = [
  'message',
  'messages',
  'comment',
  'comments',
  'review',
  'reviews',
  'backup',
  'backups',
  'release',
  'releases',
  'build',
  'builds',
  'type',
  'types',
  'input',
  'mail',
  'email',
  'emails',
  'new',
  'open',
  'end',
  'call',
  'calls',
  'filter',
  'filters',
  'export',
  'exports',
  'import',
  'imports',
  'share',
  'detail',
  'store',
  'stores',
  'record',
  'records',
];

const nounishCache = new Map<(w: string) => string, ReadonlySet<string>>();
function nounishStems(stem: (w: string) => string): ReadonlySet<string> {
  let s = nounishCache.get(stem);
  if (!s) nounishCache.set(stem, (s = new Set(NOUNISH_IN_NAMES.map(stem))));
  return s;
}

/** Lookup tables from stemmed words and phrases to action classes, built once per stemmer. */
export interface ActionLexicon {
  word: ReadonlyMap<string, ActionClass>;
  phrase: ReadonlyMap<string, ActionClass>;
  /** Every stem of an action's words and phrases, for synonym expansion within an action. */
  members: ReadonlyMap<ActionClass, readonly string[]>;
}

const lexicons = new Map<(w: string) => string, ActionLexicon>();

export function actionLexicon(stem: (word: string) => string): ActionLexicon {
  const cached = lexicons.get(stem);
  if (cached) return cached;
  const word = new Map<string, ActionClass>();
  const phrase = new Map<string, ActionClass>();
  const members = new Map<ActionClass, string[]>();
  for (const [action, v] of Object.entries(ACTION_VOCABULARY) as [ActionClass, ActionWords][]) {
    const stems = new Set<string>();
    for (const w of v.words) {
      const s = stem(w);
      stems.add(s);
      // The first class that claims a word keeps it (list before get before search …).
      if (!word.has(s)) word.set(s, action);
    }
    for (const p of v.phrases ?? []) {
      const key = p.split(' ').map(stem).join(' ');
      if (!phrase.has(key)) phrase.set(key, action);
    }
    members.set(action, [...stems]);
  }
  const lex = { word, phrase, members };
  lexicons.set(stem, lex);
  return lex;
}

/** The action of a word sequence (stems) at position i: a phrase first, then the word. */
function actionAt(stems: readonly string[], i: number, lex: ActionLexicon): ActionClass | undefined {
  if (i + 1 < stems.length) {
    const p = lex.phrase.get(`${stems[i]} ${stems[i + 1]}`);
    if (p) return p;
  }
  // A phrasal verb split by its object: "shut it down", "turn them off", "check that off".
  if (i + 2 < stems.length && PHRASE_GAP.has(stems[i + 1]!)) {
    const p = lex.phrase.get(`${stems[i]} ${stems[i + 2]}`);
    if (p) return p;
  }
  return lex.word.get(stems[i]!);
}

/** Words that may sit inside a phrasal verb. */
const PHRASE_GAP: ReadonlySet<string> = new Set([
  'it',
  'them',
  'this',
  'that',
  'these',
  'those',
  'everyth',
  'everything',
  'all',
  'one',
]);

/**
 * The action a tool performs: the first action word of its name (`get_pull_request_reviews`
 * → get, `kubectl_get` → get, `exec_in_pod` → run), else the first word of its description
 * when that is an action ("Lists all…", "Creates a…"). Undefined when neither says.
 */
export function toolAction(
  nameStems: readonly string[],
  descriptionStems: readonly string[],
  lex: ActionLexicon,
  stem: (w: string) => string,
): ActionClass | undefined {
  const nounish = nounishStems(stem);
  const http = httpMethodStems(stem);
  let method: ActionClass | undefined;
  for (let i = 0; i < nameStems.length; i++) {
    if (nounish.has(nameStems[i]!)) continue;
    const a = actionAt(nameStems, i, lex);
    if (!a) continue;
    // `API-post-search`, `patch_page`: an HTTP method says how the call travels; a later action
    // word, or else the description, says what it does.
    if (http.has(nameStems[i]!)) {
      method ??= HTTP_ACTION[nameStems[i]!];
      continue;
    }
    return a;
  }
  for (let i = 0; i < Math.min(descriptionStems.length, DESCRIPTION_LEAD); i++) {
    const a = actionAt(descriptionStems, i, lex);
    if (a) return a;
  }
  return method;
}

/** How many of a description's first words may hold its verb ("Notion | Create a page"). */
const DESCRIPTION_LEAD = 3;

/** What each HTTP method does (RFC 9110), by its stem (Porter2 leaves these words whole). */
const HTTP_ACTION: Readonly<Record<string, ActionClass>> = {
  get: 'get',
  post: 'create',
  put: 'update',
  patch: 'update',
  delet: 'delete',
  delete: 'delete',
};
const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const httpCache = new Map<(w: string) => string, ReadonlySet<string>>();
function httpMethodStems(stem: (w: string) => string): ReadonlySet<string> {
  let s = httpCache.get(stem);
  if (!s) httpCache.set(stem, (s = new Set(HTTP_METHODS.map(stem))));
  return s;
}

/**
 * How well a tool's action answers a request's: 1 the same action, or any read for a question;
 * 0.5 two different reads (list vs get vs search) or two state changes (resolve vs update);
 * -1 a read asked for and the tool writes or runs (or the reverse); 0 when either is unknown or
 * they differ otherwise.
 */
export function actionAgreement(request: RequestAction | undefined, tool: ActionClass | undefined): number {
  if (!request || !tool) return 0;
  const readTool = READ_ACTIONS.has(tool);
  if (request === 'read') return readTool ? 1 : -1;
  if (request === tool) return 1;
  const readRequest = READ_ACTIONS.has(request);
  if (readRequest && readTool) return 0.5;
  if (readRequest !== readTool) return -1;
  return CHANGE_ACTIONS.has(request) && CHANGE_ACTIONS.has(tool) ? 0.5 : 0;
}
