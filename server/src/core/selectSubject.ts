/**
 * What `select` (call_tool's JMESPath projection) runs on: what the agent reads. A result's
 * text, when every text block holds JSON, is that JSON (several blocks become an array): a tool
 * with an output schema sends the same JSON as text, and the filesystem server's
 * read_text_file sends the file there while it wraps it as `structuredContent: {content:
 * "<the file>"}`, so `items[3].name` on a JSON file reaches into the file. Otherwise the
 * structuredContent, with every string in it that holds a JSON object or array parsed in place
 * (so `content.items[3].name` works on such a wrapper too). Undefined for plain text.
 *
 * Every value parsed here is cleaned as an upstream's reply is (protocol/untrustedText.ts): the
 * reply was cleaned as text in the one call path, but JSON writes `\u001b`, `\u202e` or a tag
 * character as six ASCII characters, which only parsing turns into the character. What is
 * parsed here reaches the agent through select and through run_code's call_tool() and
 * read_result() (core/resultShaping.ts resultJson).
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { cleanReplyInPlace } from '../../../protocol/untrustedText';

/** How deep JSON inside a string inside JSON is opened. */
const MAX_NESTING = 3;

/**
 * What a result gives select, as it crosses to the process that evaluates it
 * (adapters/select/): its text items unparsed (they are parsed there, off the gateway's thread)
 * and its structuredContent.
 */
export interface SelectInput {
  texts: string[];
  structured?: unknown;
}

/** A result's select input; undefined when it plainly carries no JSON (nothing is parsed here). */
export function selectInput(result: CallToolResult): SelectInput | undefined {
  const texts = (result.content ?? []).filter((c) => c.type === 'text').map((c) => (c as { text: string }).text);
  const textsLookLikeJson = texts.length > 0 && texts.every((t) => /^\s*[[{]/.test(t));
  if (!textsLookLikeJson && result.structuredContent === undefined) return undefined;
  return result.structuredContent === undefined ? { texts } : { texts, structured: result.structuredContent };
}

export function selectSubject(input: SelectInput): { value: unknown } | undefined {
  const values: unknown[] = [];
  for (const text of input.texts) {
    const parsed = parseJson(text);
    if (!parsed) {
      values.length = 0;
      break;
    }
    values.push(parsed.value);
  }
  if (values.length) return { value: values.length === 1 ? values[0] : values };
  if (input.structured !== undefined) return { value: openJsonStrings(input.structured, MAX_NESTING) };
  return undefined;
}

/** A copy of `value` with strings that hold a JSON object or array replaced by what they hold. */
export function openJsonStrings(value: unknown, depth: number): unknown {
  if (typeof value === 'string') {
    const parsed = depth > 0 ? parseJson(value) : undefined;
    return parsed ? openJsonStrings(parsed.value, depth - 1) : value;
  }
  if (Array.isArray(value)) return value.map((v) => openJsonStrings(v, depth));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, openJsonStrings(v, depth)]));
  return value;
}

/** Only objects and arrays: "42" or "true" as a whole text is prose more often than data. Cleaned as it is decoded. */
function parseJson(text: string): { value: unknown } | undefined {
  const t = text.trim();
  if (!(t.startsWith('{') || t.startsWith('['))) return undefined;
  try {
    return { value: cleanReplyInPlace(JSON.parse(t) as unknown) };
  } catch {
    return undefined;
  }
}
