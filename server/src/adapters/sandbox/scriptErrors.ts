/**
 * What stopped a script, read out of the VM as a SandboxError: its kind (a limit, a syntax or
 * a runtime error), its message and its place in the script. Only short strings are copied
 * out: the prelude hands back what a script throws as bounded own strings (prelude.ts
 * `describe`), and anything longer than MAX_ERROR_TEXT here is named by its length, not read.
 */
import type { QuickJSContext, QuickJSHandle } from 'quickjs-emscripten-core';
import { SCRIPT_PREFIX } from './prelude';

export type SandboxErrorKind =
  'syntax' | 'runtime' | 'wall-time' | 'memory' | 'stack' | 'calls' | 'output' | 'never-settles' | 'cancelled';

export interface SandboxError {
  kind: SandboxErrorKind;
  message: string;
  /** Where in the script (1-based), when known. */
  line?: number;
  column?: number;
}

/** The name the script runs under in stacks. */
export const SCRIPT_FILE = 'run_code.js';
/** Longest error field copied out of the VM (the prelude cuts what a script throws shorter). */
export const MAX_ERROR_TEXT = 20_000;

export function wallTimeError(ms: number): SandboxError {
  return { kind: 'wall-time', message: `the script ran past its wall-time limit of ${ms} ms` };
}

export const STACK_OVERFLOW: SandboxError = { kind: 'stack', message: 'the script nested too deeply (stack overflow)' };

/** A string handle's text when it is a string of at most `max` characters; otherwise undefined, never copied. */
export function shortString(ctx: QuickJSContext, handle: QuickJSHandle, max: number): string | undefined {
  if (ctx.typeof(handle) !== 'string') return undefined;
  return textLength(ctx, handle) <= max ? ctx.getString(handle) : undefined;
}

/** An error handle (what a script threw, through the prelude, or QuickJS's own) as a SandboxError. */
export function scriptError(
  ctx: QuickJSContext,
  handle: QuickJSHandle,
  kind: 'syntax' | 'runtime',
  memoryBytes: number,
): SandboxError {
  let fields: { name?: string; message?: string; stack?: string };
  try {
    fields = errorFields(ctx, handle);
  } finally {
    handle.dispose();
  }
  const name = fields.name ?? (kind === 'syntax' ? 'SyntaxError' : 'Error');
  const message = fields.message ?? '(no message)';
  if (name === 'InternalError' && /out of memory|string too long|invalid array length/i.test(message)) {
    return {
      kind: 'memory',
      message: `the script went over its memory limit of ${Math.round(memoryBytes / (1024 * 1024))} MB (${message})`,
    };
  }
  // JSON.parse of deep nesting says it as a SyntaxError.
  if ((name === 'InternalError' || name === 'SyntaxError') && /^stack overflow/.test(message)) return STACK_OVERFLOW;
  const error: SandboxError = { kind: name === 'SyntaxError' ? 'syntax' : 'runtime', message: `${name}: ${message}` };
  const place = placeInScript(fields.stack);
  if (place) Object.assign(error, place);
  return error;
}

/** name, message and stack: own strings of a record or an Error, or the text of a primitive. */
function errorFields(ctx: QuickJSContext, handle: QuickJSHandle): { name?: string; message?: string; stack?: string } {
  const type = ctx.typeof(handle);
  if (type === 'string') return { message: readText(ctx, handle) };
  if (type !== 'object') return { message: String(ctx.dump(handle)) };
  const field = (key: string) => {
    const value = ctx.getProp(handle, key);
    try {
      return ctx.typeof(value) === 'string' ? readText(ctx, value) : undefined;
    } finally {
      value.dispose();
    }
  };
  const out: { name?: string; message?: string; stack?: string } = {};
  for (const key of ['name', 'message', 'stack'] as const) {
    const text = field(key);
    if (text !== undefined) out[key] = text;
  }
  return out;
}

function readText(ctx: QuickJSContext, handle: QuickJSHandle): string {
  const text = shortString(ctx, handle, MAX_ERROR_TEXT);
  if (text !== undefined) return text;
  return `[a text of ${textLength(ctx, handle).toLocaleString('en-US')} characters]`;
}

/** A string handle's length, read without copying the string. */
export function textLength(ctx: QuickJSContext, handle: QuickJSHandle): number {
  return ctx.getProp(handle, 'length').consume((length) => ctx.getNumber(length));
}

/** Line and column in the script from a QuickJS stack, the prefix that wraps line 1 taken off. */
function placeInScript(stack: string | undefined): { line: number; column: number } | undefined {
  const m = stack ? new RegExp(`${SCRIPT_FILE.replace('.', '\\.')}:(\\d+):(\\d+)`).exec(stack) : null;
  if (!m) return undefined;
  const line = Number(m[1]);
  const column = Number(m[2]);
  return { line, column: line === 1 ? Math.max(1, column - SCRIPT_PREFIX.length) : column };
}
