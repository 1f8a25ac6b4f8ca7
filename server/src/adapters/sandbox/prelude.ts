/**
 * The JavaScript that runs inside the sandbox before a script: it takes the host's raw
 * functions as arguments (they never become globals), builds the script's whole API —
 * `call_tool`, `tools`, `read_result`, `console` — and returns the runner that calls the
 * script and turns its return value into JSON. Values cross the boundary only as JSON
 * strings, so no host object, prototype or function is ever reachable from a script.
 */

/** Globals a script might reach for, each answered with an error that says what there is instead. */
export const UNAVAILABLE_GLOBALS = [
  'process',
  'require',
  'module',
  'exports',
  'Buffer',
  '__dirname',
  '__filename',
  'fetch',
  'XMLHttpRequest',
  'WebSocket',
  'setTimeout',
  'setInterval',
  'setImmediate',
  'clearTimeout',
  'clearInterval',
  'Deno',
  'Bun',
  'std',
  'os',
] as const;

/** What a script is told when it reaches for something the sandbox does not have. */
export const SANDBOX_API =
  'call_tool(name, args, options?), tools.<name>(args, options?), read_result(uri) and console.log';

/**
 * Bounds on what crosses out of the sandbox, applied inside it (with functions taken before the
 * script runs, so a script that replaces String.prototype.slice or JSON.stringify cannot widen
 * them): the host never has to copy a string larger than these, whatever a script builds.
 */
export interface PreludeBounds {
  /** A console.log line, in characters; longer ones are cut with a mark. */
  maxLogLineChars: number;
  /** call_tool's arguments (and options) as JSON, in characters. */
  maxArgsChars: number;
  /** The name, message and stack of an error a script throws, each, in characters. */
  maxErrorChars: number;
}

export const PRELUDE = `(function (hostCall, hostRead, hostLog, toolNamesJson, unavailableJson, apiText, boundsJson) {
  'use strict';
  const bounds = JSON.parse(boundsJson);
  const apply = Reflect.apply;
  const slice = String.prototype.slice;
  const stringify = JSON.stringify;
  const toText = String;
  const clip = (text, max) => (text.length > max ? apply(slice, text, [0, max]) + '…[truncated]' : text);
  const parse = (json) => (json === undefined ? undefined : JSON.parse(json));
  const toJson = (value, what) => {
    if (value === undefined) return undefined;
    const json = stringify(value);
    if (json === undefined) throw new TypeError(what + ' must be JSON (an object, array, string, number, boolean or null)');
    if (json.length > bounds.maxArgsChars) throw new TypeError(what + ' is ' + json.length + ' characters as JSON; the limit is ' + bounds.maxArgsChars);
    return json;
  };
  // What a thrown value becomes before the host reads it: plain own strings of bounded length,
  // so neither a getter nor a 50 MB message makes the host copy more than the bounds.
  const describe = (e) => {
    const text = (v) => (typeof v === 'string' ? clip(v, bounds.maxErrorChars) : undefined);
    try {
      if (e !== null && typeof e === 'object') {
        const name = text(e.name);
        let message = text(e.message);
        if (message === undefined) {
          let json;
          try { json = stringify(e); } catch (_) { json = undefined; }
          message = text(typeof json === 'string' ? json : toText(e));
        }
        return { name, message, stack: text(e.stack) };
      }
      return { name: undefined, message: text(toText(e)), stack: undefined };
    } catch (_) {
      return { name: undefined, message: 'the script threw a value that could not be read', stack: undefined };
    }
  };
  const call_tool = async (name, args, options) => {
    if (typeof name !== 'string' || name === '' || name.length > 1000) throw new TypeError('call_tool(name, args): name must be a tool name from find_tools');
    return parse(await hostCall(name, toJson(args === undefined ? {} : args, 'args'), toJson(options === undefined ? {} : options, 'options')));
  };
  const read_result = async (uri) => {
    if (typeof uri !== 'string' || uri.length > 1000) throw new TypeError('read_result(uri): uri must be an mcp-lens://results/<id> string');
    return parse(await hostRead(uri));
  };
  const format = (value) => {
    if (typeof value === 'string') return value;
    if (value instanceof Error) return String(value);
    try {
      const json = JSON.stringify(value);
      return json === undefined ? String(value) : json;
    } catch (e) {
      return String(value);
    }
  };
  const log = (...items) => { hostLog(clip(items.map(format).join(' '), bounds.maxLogLineChars)); };
  const console = Object.freeze({ log, info: log, warn: log, error: log, debug: log });
  // A proxy over the name set: a workspace may have thousands of tools, and building one
  // function per tool would cost every run milliseconds before the script starts.
  const names = new Set(JSON.parse(toolNamesJson));
  const bound = new Map();
  const refuseChange = () => { throw new TypeError('tools is read-only'); };
  const tools = new Proxy(Object.create(null), {
    get: (_, name) => {
      if (typeof name !== 'string' || !names.has(name)) return undefined;
      let fn = bound.get(name);
      if (!fn) bound.set(name, (fn = (args, options) => call_tool(name, args, options)));
      return fn;
    },
    has: (_, name) => typeof name === 'string' && names.has(name),
    ownKeys: () => [...names],
    getOwnPropertyDescriptor: (_, name) =>
      typeof name === 'string' && names.has(name) ? { value: tools[name], writable: false, enumerable: true, configurable: true } : undefined,
    set: refuseChange,
    defineProperty: refuseChange,
    deleteProperty: refuseChange,
    setPrototypeOf: refuseChange,
  });
  const fixed = (value) => ({ value, writable: false, enumerable: false, configurable: false });
  Object.defineProperties(globalThis, { call_tool: fixed(call_tool), read_result: fixed(read_result), tools: fixed(tools), console: fixed(console) });
  for (const name of JSON.parse(unavailableJson)) {
    const refuse = () => { throw new ReferenceError(name + ' is not available in run_code: a script has only ' + apiText); };
    Object.defineProperty(globalThis, name, { get: refuse, set: refuse, enumerable: false, configurable: false });
  }
  // The runner: calls the script's async function and hands back its value as JSON text.
  return async (script) => {
    try {
      const value = await script();
      if (value === undefined) return undefined;
      const json = stringify(value);
      if (json === undefined) throw new TypeError('the return value must be JSON (an object, array, string, number, boolean or null)');
      return json;
    } catch (e) {
      throw describe(e);
    }
  };
})`;

/** The script is the body of an async function; this prefix and suffix make it one. */
export const SCRIPT_PREFIX = '(async () => {';
export const SCRIPT_SUFFIX = '\n})';
