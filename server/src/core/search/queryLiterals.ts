/**
 * Literal values in a request: the arguments an agent will pass, not the task. In "click
 * #search-input" the selector names a field, not a search; in "attach screenshot.png" the file
 * name is not a screenshot request; in "comment on https://github.com/acme/api/pull/77" the URL
 * is not a pull-request tool. Their words should not decide the tool; their *kind* (a URL, a
 * path, a selector) says which parameter the right tool takes.
 *
 * Recognised from the shape of the text only (no list of products or tools): URLs and host
 * names, e-mail addresses, paths and file names, globs, CSS selectors, command-line flags,
 * quoted text, and identifiers that mix letters with digits (ENG-482, rec123, dpl_7Hx2, #412).
 * Plain numbers stay words: "14 days", "3 web dynos", "top 100" are often the request itself.
 */

export type LiteralKind = 'url' | 'email' | 'path' | 'glob' | 'selector' | 'tag' | 'flag' | 'quoted' | 'id';

export interface Literal {
  kind: LiteralKind;
  text: string;
}

export interface QuerySplit {
  /** The request with every literal replaced by a space: the words that say what to do. */
  intent: string;
  literals: Literal[];
}

/**
 * Words after a quoted name that make it the name of the thing to use, not a value: "the
 * 'Get Content' API", "the `search_files` tool". Quoted text followed by one of these stays
 * intent.
 */
const NAMING_NOUNS =
  /^\s*(api|apis|tool|tools|endpoint|endpoints|function|functions|command|commands|method|methods|action|feature|service|operation)\b/i;

/** Known top-level-domain-like endings are not needed: a dotted word with a letter run after the last dot is a host or a file. */
const TOKEN_RULES: readonly [LiteralKind, RegExp][] = [
  ['url', /^(?:[a-z][a-z0-9+.-]*:\/\/|www\.)\S+$/i],
  ['email', /^[^\s@]+@[^\s@]+\.[a-z]{2,}$/i],
  ['glob', /^\S*[*?]\S*$/],
  ['flag', /^--?[a-z][\w-]*(?:=\S*)?$/i],
  // #name alone is a channel, a hashtag or an element id; with more (.btn.primary, #a > .b,
  // [type=file]) it is a CSS selector.
  ['tag', /^#[a-z_][\w-]*$/i],
  ['selector', /^(?:[#.][a-z_][\w-]*|\[[^\]]+\])(?:[\s>+~]*[#.[:][\w\-=\]"']*)*$/i],
  ['path', /^(?:~|\.{1,2})?\/\S*$|^[\w.-]+(?:[/\\][\w.*-]+)+[/\\]?$|^[a-z]:\\\S*$/i],
  ['path', /^[\w-]+(?:\.[\w-]+)*\.[a-z][a-z0-9]{0,7}$/i],
  ['id', /^#\d+$|^[a-z]{1,12}[-_#]\d+$/i],
];

/** Punctuation that can open a literal in prose: "(see #412)". */
const OPENERS = new Set('([{<"\'`');
/** Punctuation that can close one: "#412),", "index.html?". */
const CLOSERS = new Set(')]}>"\'`,;:!?');

/**
 * A token without the punctuation prose wraps around a literal: the openers it starts with,
 * then the closers it ends with, or else a sentence's full stop after a word character
 * ("see RFC-9110." → RFC-9110). Scanned by hand: the regex it replaces
 * (`^[openers]+|[closers]+$|(?<=\w)\.$`, global) re-read a run of closers from each of its
 * characters before failing at a non-closer, quadratic in a long run.
 */
export function trimProsePunctuation(token: string): string {
  let start = 0;
  while (start < token.length && OPENERS.has(token[start]!)) start++;
  let end = token.length;
  while (end > start && CLOSERS.has(token[end - 1]!)) end--;
  if (end === token.length && end - start >= 2 && token[end - 1] === '.' && /\w/.test(token[end - 2]!)) end--;
  return token.slice(start, end);
}

/**
 * Splits a request into intent text and literals. Quoted spans first (a quoted span may hold
 * spaces), then each remaining whitespace token is tested against the token rules.
 */
export function splitLiterals(text: string): QuerySplit {
  const literals: Literal[] = [];
  let intent = text.replace(
    /(["'`\u2018\u201c])([^"'`\u2019\u201d\n]{1,200}?)(["'`\u2019\u201d])(?=\W|$)/g,
    (whole, open: string, inner: string, close: string, offset: number) => {
      if (!matchingQuotes(open, close)) return whole;
      // An apostrophe inside a word (don't, it's) is not a quote.
      if (open === "'" && offset > 0 && /\w/.test(text[offset - 1])) return whole;
      if (NAMING_NOUNS.test(text.slice(offset + whole.length))) return ` ${inner} `;
      literals.push({ kind: tokenKind(inner.trim()) ?? 'quoted', text: inner });
      return ' ';
    },
  );
  intent = intent
    .split(/(\s+)/)
    .map((token) => {
      if (/^\s*$/.test(token)) return token;
      const core = trimProsePunctuation(token);
      const kind = tokenKind(core);
      if (!kind) return token;
      literals.push({ kind, text: core });
      return ' ';
    })
    .join('');
  return { intent, literals };
}

function tokenKind(token: string): LiteralKind | undefined {
  if (token.length < 2 && !/^\d$/.test(token)) return undefined;
  // A plain word is never a literal, whatever its case; nor is a hyphenated word (sign-in).
  if (/^[\p{L}]+(?:[-'][\p{L}]+)*$/u.test(token)) return undefined;
  for (const [kind, rule] of TOKEN_RULES) if (rule.test(token)) return kind;
  return isGeneratedId(token) ? 'id' : undefined;
}

/**
 * An identifier a system generated (rec123, dpl_7Hx2, NY323068698GB, 1a2b3c4d-5e6f-…): digits
 * mixed into a long token, or making up much of it. Words that merely contain a digit —
 * base64, mp3, oauth2, k8s, UUIDv4, D7SMS, Converter_v3 — are names of things, and stay words.
 */
function isGeneratedId(token: string): boolean {
  if (!/^[\w-]+$/.test(token) || !/[a-z]/i.test(token)) return false;
  // Two or more real words joined (delete_webhook_v2, order-service-123) make a name someone
  // chose, often a tool's own: not generated.
  if (token.split(/[-_]+/).filter((part) => /^[a-z]{3,}$/i.test(part)).length >= 2) return false;
  const digits = (token.match(/\d/g) ?? []).length;
  const letters = token.replace(/[^a-z]/gi, '').length;
  if (digits < 2) return false;
  return digits >= 3 && digits / (digits + letters) >= 0.4 ? true : token.length >= 8 && digits >= 2;
}

function matchingQuotes(open: string, close: string): boolean {
  if (open === '\u2018') return close === '\u2019' || close === "'";
  if (open === '\u201c') return close === '\u201d' || close === '"';
  return open === close;
}

/**
 * Parameter-name words that take a literal of each kind: a request holding a URL wants a tool
 * with a `url` parameter. Words of JSON-schema property names as MCP servers name them.
 */
export const LITERAL_SLOTS: Readonly<Partial<Record<LiteralKind, readonly string[]>>> = {
  url: ['url', 'uri', 'urls', 'link', 'href', 'domain', 'host', 'hostname', 'site', 'website', 'endpoint'],
  email: ['email', 'emails', 'mail', 'address', 'recipient', 'to'],
  path: ['path', 'paths', 'file', 'files', 'filename', 'filepath', 'directory', 'dir', 'folder'],
  glob: ['pattern', 'glob', 'patterns', 'match', 'filter', 'path', 'index'],
  selector: ['selector', 'element', 'locator', 'ref', 'css', 'xpath'],
  tag: ['channel', 'selector', 'element', 'tag', 'hashtag'],
  flag: ['args', 'arguments', 'options', 'command', 'flags'],
};

/**
 * The shapes of a generated identifier, as index terms: exact (lower-cased, each run of digits
 * one `#`: tt1234567 → @tt#, CA107308006SI → @ca#si) and coarse (each run of capitals `A`, of
 * lower-case letters `a`, of digits `#`: ENG-482 and ABC-123 → %A-#). A request's id with the
 * shape of an example a tool documents ("IMDb id, ex: tt0000002", "identifier (e.g., ABC-123)")
 * is a value that tool takes; how common a shape is in the catalog (its idf) says how much.
 */
export function idShapes(id: string): string[] {
  const digits = id.replace(/\d+/g, '#');
  return [`@${digits.toLowerCase()}`, `%${digits.replace(/[A-Z]+/g, 'A').replace(/[a-z]+/g, 'a')}`];
}
