/**
 * `select` evaluated: a JMESPath expression over a result's JSON, the projection serialized
 * under a byte budget. Pure and synchronous, and for that reason never run on the gateway's
 * own thread: JMESPath functions build values far larger than their input (`pad_left` with a
 * width of 1e8, `join` of those, nested `map` over generated arrays) and the interpreter cannot
 * be interrupted, so one such expression on the gateway's thread would take every session
 * down. It runs in a child process with a deadline and a heap limit
 * (adapters/select/selectRunner.ts), and the budget
 * here stops a projection whose JSON grows past the limit before it is written out whole.
 * The projection is cleaned as an upstream's reply is before it is written out: its subject was
 * (selectSubject.ts), but JMESPath builds new strings and keys (`split` cuts a string into
 * UTF-16 halves and `join` glues halves of two harmless characters into a tag character), and
 * the expression's own JSON literals are decoded here too.
 */
import type * as Jmespath from '@jmespath-community/jmespath' with { 'resolution-mode': 'import' };
import { cleanReplyInPlace } from '../../../protocol/untrustedText';
import { errorMessage } from './errorMessage';
import { selectSubject, type SelectInput } from './selectSubject';
import { utf8Length } from './utf8Length';

// The package's "types" condition names its ESM typings although it ships a CommonJS build
// too; TypeScript would refuse a value import from this CommonJS module, so require that build,
// on first use (most sessions never select).
let jmespathModule: typeof Jmespath | undefined;
export const jmespath = (): typeof Jmespath =>
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (jmespathModule ??= require('@jmespath-community/jmespath') as typeof Jmespath);

/** A projection's JSON, or why there is none; `limit` when a bound stopped it (the model must change the expression). */
export type SelectOutcome = { ok: true; json: string } | { ok: false; problem: string; limit?: true };

/** The plain-text refusal, the same wherever it is decided. */
export const PLAIN_TEXT_PROBLEM = 'select was not applied: the result is plain text, not JSON';

/**
 * Evaluates `expression` over `input` and returns the projection as JSON text, or why not.
 * `maxBytes` bounds that text (UTF-8): serialization stops as soon as it is passed.
 */
export function evaluateSelect(input: SelectInput, expression: string, maxBytes: number): SelectOutcome {
  const subject = selectSubject(input);
  if (subject === undefined) return { ok: false, problem: PLAIN_TEXT_PROBLEM };
  const value = subject.value;
  let projected: unknown;
  try {
    projected = jmespath().search(value as Jmespath.JSONValue, expression);
  } catch (err) {
    return { ok: false, problem: `select was not applied: ${errorMessage(err)}` };
  }
  // Shared: a projection may reach one object along many paths (`{a: @, b: @}`, nested).
  const json = boundedJson(cleanReplyInPlace(projected ?? null, { shared: true }), maxBytes);
  if (json === undefined) return { ok: false, limit: true, problem: outputProblem(maxBytes) };
  return { ok: true, json };
}

function outputProblem(maxBytes: number): string {
  const mb = Math.round((maxBytes / (1024 * 1024)) * 10) / 10;
  return `select stopped: its result is larger than ${mb} MB, the limit for one projection. Select fewer fields or elements`;
}

class OverBudget extends Error {}

/**
 * JSON.stringify that gives up once the text would pass `maxBytes`. Each value is counted
 * before it is written, from its length alone, so a string of 10^8 characters (a rope V8 has
 * not flattened yet) and an object reached a million times over shared references (`{a: @,
 * b: @}` nested) are refused without being built. Counts are in UTF-16 units; the exact UTF-8
 * length is checked at the end.
 */
export function boundedJson(value: unknown, maxBytes: number): string | undefined {
  let budget = maxBytes;
  const spend = (n: number) => {
    budget -= n;
    if (budget < 0) throw new OverBudget();
  };
  let text: string;
  try {
    text = JSON.stringify(value, function (this: unknown, key: string, v: unknown) {
      // A key (quotes and colon) inside an object; an element's separator inside an array.
      spend(Array.isArray(this) ? 1 : key.length + 3);
      if (typeof v === 'string') spend(v.length + 2);
      else if (typeof v === 'number' || typeof v === 'boolean' || v === null) spend(24);
      else spend(2);
      return v;
    });
  } catch (err) {
    if (err instanceof OverBudget) return undefined;
    throw err;
  }
  return utf8Length(text) <= maxBytes ? text : undefined;
}
