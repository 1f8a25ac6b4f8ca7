/**
 * Third-party text (server and tool names, descriptions, server stderr, upstream replies) made
 * safe to print or hand on, in one place. What is dangerous in it:
 *  - terminal escape sequences (`ESC[31m`, `ESC[1A`, OSC titles) that recolour, move the cursor
 *    or rewrite what a terminal shows; removed whole, so no `[31m` stays behind;
 *  - other C0/C1 control characters (a NUL, a carriage return that rewrites a line);
 *  - bidirectional overrides and isolates that make text read differently from what it is
 *    ("Trojan Source"), and invisible format characters (zero-width space, joiner, word joiner,
 *    BOM, soft hyphen) that make two different names look the same;
 *  - line and paragraph separators (U+2028/2029), which some renderers break lines on.
 * Letters, including non-Latin ones, are kept. Pure: no I/O (the webview uses it too).
 */

/** CSI (`ESC [ … final`) and OSC (`ESC ] … BEL|ST`) sequences, and any other `ESC x` pair. */
const ESCAPE_SEQUENCES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-_]?/g;
/** C0 except tab and newline, DEL, C1. */
const CONTROLS_KEEP_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;
/**
 * Bidi controls (LRE RLE PDF LRO RLO, LRI RLI FSI PDI, LRM RLM ALM) and invisible format
 * characters: zero-width space/non-joiner/joiner, word joiner and the invisible operators,
 * BOM, soft hyphen, Mongolian vowel separator, combining grapheme joiner, Hangul fillers,
 * interlinear annotation marks and the tag characters.
 */
const INVISIBLE =
  /[\u00ad\u061c\u115f\u1160\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb]|\u034f|\u17b4|\u17b5|\udb40[\udc00-\udc7f]/g;
/**
 * Variation selectors: invisible too, but only in names do they matter (emoji in prose use them).
 * Combining characters stay out of character classes, where they would be read with what precedes.
 */
const VARIATION_SELECTORS =
  /\ufe00|\ufe01|\ufe02|\ufe03|\ufe04|\ufe05|\ufe06|\ufe07|\ufe08|\ufe09|\ufe0a|\ufe0b|\ufe0c|\ufe0d|\ufe0e|\ufe0f|\udb40[\udd00-\uddef]/g;
const SEPARATORS = /[\u2028\u2029]/g;

/** Removes escape sequences, control characters (keeping tab and newline), bidi and invisible format characters. */
export function stripControls(text: string): string {
  return text.replace(ESCAPE_SEQUENCES, '').replace(CONTROLS_KEEP_LINES, '').replace(INVISIBLE, '').replace(SEPARATORS, '\n');
}

/** Like stripControls, and every run of control characters (newlines too) becomes one space. */
export function oneLine(text: string): string {
  return text.replace(ESCAPE_SEQUENCES, '').replace(INVISIBLE, '').replace(CONTROLS, ' ').trim();
}

/**
 * A name as it is compared (include/exclude, look-alike checks): NFKC (so fullwidth `ｄｅｌｅｔｅ`,
 * mathematical `𝐝𝐞𝐥𝐞𝐭𝐞` and ligatures read as `delete`), with controls, invisible format
 * characters and variation selectors removed. The name itself is never changed: an upstream is
 * called by the name it listed.
 */
export function normalizeName(name: string): string {
  return name.normalize('NFKC').replace(ESCAPE_SEQUENCES, '').replace(CONTROLS, '').replace(INVISIBLE, '').replace(VARIATION_SELECTORS, '');
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
  const cp = ch.codePointAt(0)!;
  return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp === 0x2028 || cp === 0x2029 || isInvisible(ch);
}

/** escapeForDisplay in double quotes (inner quotes escaped): shows leading and trailing spaces and an empty string. */
export function quotedForDisplay(text: string): string {
  return `"${escapeForDisplay(text).replace(/"/g, '\\"')}"`;
}

function isInvisible(ch: string): boolean {
  return ch.replace(INVISIBLE, '').replace(VARIATION_SELECTORS, '') !== ch;
}

/**
 * What an upstream's reply (a tool result, an error, a prompt, a resource) may not carry to an
 * agent or a person: terminal escape sequences (removed whole; an OSC only with its terminator,
 * so an unterminated `ESC ]` never swallows the rest of the data), C0 controls other than tab,
 * newline and carriage return, DEL and C1; bidi embeddings, overrides and isolates (LRE RLE PDF
 * LRO RLO, LRI RLI FSI PDI: "Trojan Source"); and the tag characters U+E0000–E007F (invisible
 * ASCII look-alikes a model reads and a person does not: "ASCII smuggling"). Replies are data,
 * so everything else stays: zero-width joiners (emoji, Indic and Persian scripts), LRM/RLM marks
 * (right-to-left text), variation selectors, line separators.
 */
const REPLY_ESCAPES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-_]?/g;
const REPLY_HIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|\udb40[\udc00-\udc7f]/g;
const REPLY_NEEDS_CLEANING = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|\udb40[\udc00-\udc7f]/;

/** An upstream's reply text without escape sequences, controls (but tab, newline, CR), bidi controls and tag characters. */
export function cleanReplyText(text: string): string {
  if (!REPLY_NEEDS_CLEANING.test(text)) return text;
  return text.replace(REPLY_ESCAPES, '').replace(REPLY_HIDDEN, '');
}

/**
 * Cleans every string of a reply as parsed from JSON (values and object keys, at any depth)
 * with cleanReplyText, IN PLACE, and returns it. Nothing else changes: numbers, booleans,
 * nulls, the shape, and strings that need no cleaning (base64 data, URIs) stay as they are.
 * Iterative, so no nesting depth escapes it. For values no one else holds (a reply just parsed).
 */
export function cleanReplyInPlace<T>(reply: T): T {
  const stack: unknown[] = [reply];
  while (stack.length > 0) {
    const v = stack.pop();
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

/** Appended where third-party text was cut short. */
export const TRUNCATED_MARK = '…[truncated]';

/** The text if it fits in `max` characters, else its first `max` characters and the mark. */
export function capLength(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, max).trimEnd() + TRUNCATED_MARK;
}
