/**
 * Third-party text (server and tool names, descriptions, server stderr, upstream replies) made
 * safe to print or hand on, in one place. What is dangerous in it, by Unicode property:
 *  - terminal escape sequences, 7-bit (`ESC [31m`, `ESC ] … BEL`) and 8-bit (the C1 CSI
 *    U+009B, OSC U+009D, DCS…), that recolour, move the cursor or rewrite what a terminal
 *    shows: removed whole (chalk/ansi-regex, MIT, bundled), so no `[31m` stays behind;
 *  - control characters (`\p{Cc}`: C0, DEL, C1), such as a NUL or a carriage return that
 *    rewrites a line;
 *  - format characters and default-ignorables (`\p{Cf}`, `\p{Default_Ignorable_Code_Point}`):
 *    bidirectional overrides and isolates that make text read differently from what it is
 *    ("Trojan Source"), zero-width and invisible characters that make two different names look
 *    the same, the tag characters U+E0000–E007F (invisible ASCII a model reads and a person
 *    does not: "ASCII smuggling");
 *  - line and paragraph separators (U+2028/2029), which some renderers break lines on.
 * Two policies use these sets: text MCP Lens shows (names, descriptions, logs: stripControls,
 * oneLine, normalizeName, escapeForDisplay) loses all of them, but keeps the variation
 * selectors and the zero-width joiners inside an emoji (so ✔️ and 👨‍💻 stay whole) except
 * in names, which keep neither; an upstream's reply (cleanReplyText) is data and loses only
 * what can deceive or drive a terminal (see there). Letters of every script are kept.
 * Pure: no I/O (the webview uses it too).
 */
import ansiRegex from 'ansi-regex';

/** Escape sequences (ansi-regex: an OSC only with its terminator, so an unterminated one never swallows what follows), then any ESC it left with its one Fe byte. */
const ESCAPES = new RegExp(`${ansiRegex().source}|\u001b[@-_]?`, 'g');
/** `\p{Cc}` but tab and newline. */
const CONTROLS_BUT_LINES = /[^\P{Cc}\t\n]/gu;
/** Runs of controls and line separators, for text that must stay one line. */
const CONTROL_RUNS = /[\p{Cc}\u2028\u2029]+/gu;
const SEPARATORS = /[\u2028\u2029]/g;
/** Format characters and default-ignorables: invisible, or changing how text around them reads. */
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/gu;
/** Every character escapeForDisplay writes out. */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\u2028\u2029]/u;
const VARIATION_SELECTOR = /^\p{Variation_Selector}$/u;
const PICTOGRAPH = /\p{Extended_Pictographic}/u;
/** What may sit between a pictograph and a joiner in an emoji sequence: VS16 or a skin tone. */
const EMOJI_MODIFIER = /[\ufe0f\p{Emoji_Modifier}]/u;

/** Is the character at `at` (a ZWJ) inside an emoji ZWJ sequence: a pictograph (perhaps with VS16 or a skin tone) before it, one after? */
function joinsEmoji(text: string, at: number): boolean {
  const after = text.codePointAt(at + 1);
  if (after === undefined || !PICTOGRAPH.test(String.fromCodePoint(after))) return false;
  let i = at;
  for (let steps = 0; steps < 2 && i > 0; steps++) {
    const lead = text.charCodeAt(i - 1);
    const start = lead >= 0xdc00 && lead <= 0xdfff && i >= 2 ? i - 2 : i - 1;
    const ch = String.fromCodePoint(text.codePointAt(start)!);
    if (PICTOGRAPH.test(ch)) return true;
    if (!EMOJI_MODIFIER.test(ch)) return false;
    i = start;
  }
  return false;
}

/** INVISIBLE removed, but (unless `name`) the variation selectors and the joiners inside emoji. */
function dropInvisible(text: string, name: boolean): string {
  return text.replace(INVISIBLE, (ch: string, at: number, whole: string) => {
    if (name) return '';
    if (VARIATION_SELECTOR.test(ch)) return ch;
    return ch === '\u200d' && joinsEmoji(whole, at) ? ch : '';
  });
}

/** Removes escape sequences, control characters (keeping tab and newline), bidi and invisible format characters; a line separator becomes a newline. */
export function stripControls(text: string): string {
  return dropInvisible(text.replace(ESCAPES, '').replace(CONTROLS_BUT_LINES, ''), false).replace(SEPARATORS, '\n');
}

/** Like stripControls, and every run of control characters (newlines too) becomes one space. */
export function oneLine(text: string): string {
  return dropInvisible(text.replace(ESCAPES, ''), false).replace(CONTROL_RUNS, ' ').trim();
}

/**
 * A name as it is compared (include/exclude, look-alike checks): NFKC (so fullwidth `ｄｅｌｅｔｅ`,
 * mathematical `𝐝𝐞𝐥𝐞𝐭𝐞` and ligatures read as `delete`), with controls, invisible format
 * characters and variation selectors removed. The name itself is never changed: an upstream is
 * called by the name it listed.
 */
export function normalizeName(name: string): string {
  return dropInvisible(name.normalize('NFKC').replace(ESCAPES, '').replace(CONTROL_RUNS, ''), true);
}

/**
 * The text with every control, bidi and invisible character written out as a visible escape
 * (`\n`, `\e`, `\u{202e}`) and backslashes doubled, so a person sees exactly what is there and
 * nothing in it can move the cursor, hide a line or start a new one. For prompts that ask a
 * person to approve something: they must see what they approve, oddities included.
 */
export function escapeForDisplay(text: string): string {
  let out = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (cp === 0x1b) out += '\\e';
    else if (isHidden(ch)) out += `\\u{${cp.toString(16)}}`;
    else out += ch;
  }
  return out;
}

/**
 * True when the text holds a character escapeForDisplay writes out as an escape: a control
 * character (newline and tab included), a bidi control, an invisible format character or
 * variation selector, a line or paragraph separator. A name with one cannot be shown as it is.
 */
export function hasHiddenCharacters(text: string): boolean {
  for (const ch of text) if (isHidden(ch)) return true;
  return false;
}

function isHidden(ch: string): boolean {
  return HIDDEN.test(ch);
}

/** escapeForDisplay in double quotes (inner quotes escaped): shows leading and trailing spaces and an empty string. */
export function quotedForDisplay(text: string): string {
  return `"${escapeForDisplay(text).replace(/"/g, '\\"')}"`;
}

/**
 * What an upstream's reply (a tool result, an error, a prompt, a resource) may not carry to an
 * agent or a person: escape sequences (ESCAPES), controls (`\p{Cc}`) other than tab, newline
 * and carriage return, the bidi embeddings, overrides and isolates (LRE RLE PDF LRO RLO,
 * LRI RLI FSI PDI: "Trojan Source") and the tag characters U+E0000–E007F ("ASCII
 * smuggling"). Replies are data, so the other format characters stay: zero-width joiners and
 * non-joiners (emoji, Indic and Persian scripts), LRM/RLM marks (right-to-left text),
 * variation selectors (emoji, ideographic variants), line separators. A lone surrogate (half
 * of a UTF-16 pair, which only a JSON escape such as `\udb40` can carry) becomes U+FFFD, as
 * any UTF-8 encoder makes it: left as it is, removing a control between two of them would join
 * them into a character, a tag among others (`\udb40\u0007\udc41` → U+E0041).
 */
const REPLY_HIDDEN_CLASS = String.raw`[^\P{Cc}\t\n\r]|[\u202a-\u202e\u2066-\u2069\u{e0000}-\u{e007f}]`;
const REPLY_HIDDEN = new RegExp(REPLY_HIDDEN_CLASS, 'gu');
/** With the `u` flag `\p{Cs}` matches only a surrogate that is not half of a pair. */
const LONE_SURROGATE = /\p{Cs}/gu;
/** Every escape sequence starts with a control character (ESC or a C1), so most replies match nothing here and are returned as they are. */
const REPLY_NEEDS_CLEANING = new RegExp(String.raw`${REPLY_HIDDEN_CLASS}|\p{Cs}`, 'u');

/** An upstream's reply text without escape sequences, controls (but tab, newline, CR), bidi controls and tag characters; lone surrogates become U+FFFD. */
export function cleanReplyText(text: string): string {
  if (!REPLY_NEEDS_CLEANING.test(text)) return text;
  // Surrogates first, so that what the later passes remove cannot join two halves into a character.
  return text.replace(LONE_SURROGATE, '\ufffd').replace(ESCAPES, '').replace(REPLY_HIDDEN, '');
}

/**
 * Cleans every string of a reply as parsed from JSON (values and object keys, at any depth)
 * with cleanReplyText, IN PLACE, and returns it (a string cannot change in place: its cleaned
 * copy). Nothing else changes: numbers, booleans, nulls, the shape, and strings that need no
 * cleaning (base64 data, URIs) stay as they are. Iterative, so no nesting depth escapes it.
 * For values no one else holds: a reply as it arrived, and whatever a decoding step made of
 * one (JSON parsed out of a reply's strings, a `select` projection, a run_code script's
 * output), since decoding `\u001b` makes a character the text did not hold.
 * `shared`: the value may reach one object along several paths (a JMESPath projection such as
 * `{a: @, b: @}`, nested); each object is then cleaned once, where a walk would visit it once
 * per path (2^n paths for n levels). Off by default: what JSON.parse returns is a tree, and
 * the visited set triples the walk's time.
 */
export function cleanReplyInPlace<T>(reply: T, options: { shared?: boolean } = {}): T {
  if (typeof reply === 'string') return cleanReplyText(reply) as T;
  const stack: unknown[] = [reply];
  const visited = options.shared ? new Set<object>() : undefined;
  while (stack.length > 0) {
    const v = stack.pop();
    if (visited && v !== null && typeof v === 'object') {
      if (visited.has(v)) continue;
      visited.add(v);
    }
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const x: unknown = v[i];
        if (typeof x === 'string') v[i] = cleanReplyText(x);
        else if (x !== null && typeof x === 'object') stack.push(x);
      }
    } else if (v !== null && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      for (const key of Object.keys(o)) {
        const x = o[key];
        const value = typeof x === 'string' ? cleanReplyText(x) : x;
        if (x !== null && typeof x === 'object') stack.push(x);
        const cleanKey = cleanReplyText(key);
        if (cleanKey !== key) {
          delete o[key];
          // defineProperty: a key that cleans to `__proto__` stays a key, never a prototype.
          Object.defineProperty(o, cleanKey, { value, writable: true, enumerable: true, configurable: true });
        } else if (value !== x) o[key] = value;
      }
    }
  }
  return reply;
}

/**
 * Text for a person to read in `max` characters at most: whole if it fits, else cut at the last
 * word that fits (mid-word only when a single word is longer than half of `max`) and ended with
 * an ellipsis, so a cut never passes for the whole text.
 */
export function cutAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const room = text.slice(0, Math.max(1, max - 1));
  const lastSpace = room.search(/\s\S*$/);
  const cut = lastSpace > max / 2 ? room.slice(0, lastSpace) : room;
  return `${cut.replace(/[\s.,;:!?-]+$/, '')}…`;
}

/** Appended where third-party text was cut short. */
export const TRUNCATED_MARK = '…[truncated]';

/** The text if it fits in `max` characters, else its first `max` characters and the mark. */
export function capLength(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, max).trimEnd() + TRUNCATED_MARK;
}
