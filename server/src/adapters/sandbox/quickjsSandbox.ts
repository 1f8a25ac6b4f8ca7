/**
 * Runs one run_code script in QuickJS compiled to WebAssembly (quickjs-emscripten, release
 * "sync" build with the wasm embedded, so the bundle needs no native module and no file
 * beside it). Every run gets its own WebAssembly instance — its own linear memory — so
 * concurrent scripts share nothing, a script that broke its instance (a native stack
 * overflow) cannot affect the next, and all of a run's memory goes when the run ends.
 *
 * Async tools without ASYNCIFY: a host call returns a QuickJS promise that the host settles
 * later; this loop runs the VM's pending jobs after each settlement until the script's own
 * promise settles. Limits: wall time (an interrupt handler, uncatchable inside QuickJS, plus a
 * timer for time spent awaiting), memory (QuickJS's allocator limit), stack, tool calls (the
 * first call over the limit stops the script), output size; imports are refused by a module
 * loader that loads nothing. Each limit stops the run with an error that names it.
 */
import type {
  QuickJSContext,
  QuickJSHandle,
  QuickJSRuntime,
  QuickJSSyncVariant,
  QuickJSWASMModule,
} from 'quickjs-emscripten-core';
import { setMaxListeners } from 'node:events';
import { errorMessage } from '../../core/errorMessage';
import { PRELUDE, SANDBOX_API, SCRIPT_PREFIX, SCRIPT_SUFFIX, UNAVAILABLE_GLOBALS } from './prelude';

export interface SandboxHost {
  /** Tool names the script's `tools` object offers (the same names find_tools returns). */
  toolNames: readonly string[];
  /**
   * One call_tool() from the script, arguments already parsed from JSON. Resolves to the
   * value the script receives (JSON-serializable) or rejects with the Error it sees.
   */
  callTool(name: string, args: unknown, options: unknown, signal: AbortSignal): Promise<unknown>;
  /** read_result(uri): a kept result's value, or rejects with why not. */
  readResult(uri: string): Promise<unknown>;
}

export interface SandboxLimits {
  wallTimeMs: number;
  memoryBytes: number;
  maxCalls: number;
  /** Largest return value, as JSON characters. */
  maxOutputChars: number;
  /** Logs kept, in characters; later lines are dropped with a note. */
  maxLogChars: number;
}

export type SandboxErrorKind =
  'syntax' | 'runtime' | 'wall-time' | 'memory' | 'stack' | 'calls' | 'output' | 'never-settles' | 'cancelled';

export interface SandboxError {
  kind: SandboxErrorKind;
  message: string;
  /** Where in the script (1-based), when known. */
  line?: number;
  column?: number;
}

export interface SandboxRun {
  ok: boolean;
  /** The script's return value (ok only; undefined when it returned nothing). */
  value?: unknown;
  error?: SandboxError;
  logs: string[];
  /** Tool calls that went out (at most the limit). */
  calls: number;
  /** Time to a sandbox ready to run the script (instance, runtime, API). */
  startMs: number;
  durationMs: number;
}

const FILE = 'run_code.js';
/**
 * QuickJS's own stack limit. Its interpreter recursion also uses the host's native stack; this
 * is low enough that QuickJS's "stack overflow" comes first in almost every case, and the
 * remaining ones (deeply nested JSON) surface as a host RangeError that ends only this run.
 */
const MAX_STACK_BYTES = 256 * 1024;
/** Longest single log line kept. */
const MAX_LOG_LINE_CHARS = 10_000;

/** Runs `code` (the body of an async function) in a fresh sandbox. Never throws. */
export async function runSandboxed(
  code: string,
  host: SandboxHost,
  limits: SandboxLimits,
  signal?: AbortSignal,
): Promise<SandboxRun> {
  const run = new ScriptRun(host, limits, signal);
  return run.execute(code);
}

/** Compiles the wasm once per process (later instances reuse the compiled module), ~20 ms. */
export async function warmSandbox(): Promise<void> {
  await newModule();
}

/**
 * A fresh WebAssembly instance of QuickJS. The engine (~800 KB of JavaScript with the wasm in
 * it) is loaded with the first script, not when MCP Lens starts: most sessions never run one.
 */
async function newModule(): Promise<QuickJSWASMModule> {
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded here, on first use (CommonJS builds) */
  const { newQuickJSWASMModuleFromVariant } =
    require('quickjs-emscripten-core') as typeof import('quickjs-emscripten-core');
  const releaseSync = (require('@jitl/quickjs-singlefile-cjs-release-sync') as { default: QuickJSSyncVariant }).default;
  /* eslint-enable @typescript-eslint/no-require-imports */
  return newQuickJSWASMModuleFromVariant(releaseSync);
}

class StopRun extends Error {
  constructor(readonly reason: SandboxError) {
    super(reason.message);
  }
}

class ScriptRun {
  private readonly started = performance.now();
  private readonly deadline: number;
  private readonly controller = new AbortController();
  private stop: SandboxError | undefined;
  private calls = 0;
  private inFlight = 0;
  private readonly logs: string[] = [];
  private logChars = 0;
  private droppedLogs = 0;
  private waiter: (() => void) | undefined;
  private finished = false;
  /** Set when the instance may be inconsistent (a host exception out of wasm): never touched again. */
  private broken = false;
  private rt: QuickJSRuntime | undefined;
  private ctx: QuickJSContext | undefined;

  constructor(
    private readonly host: SandboxHost,
    private readonly limits: SandboxLimits,
    private readonly signal: AbortSignal | undefined,
  ) {
    this.deadline = Date.now() + limits.wallTimeMs;
    // Each call in flight listens on the run's signal, and a script may have all its calls in
    // flight at once: that many listeners are expected, not a leak.
    setMaxListeners(limits.maxCalls + 10, this.controller.signal);
  }

  async execute(code: string): Promise<SandboxRun> {
    let startMs = 0;
    const timer = setTimeout(
      () =>
        this.halt({
          kind: 'wall-time',
          message: `the script ran past its wall-time limit of ${this.limits.wallTimeMs} ms`,
        }),
      this.limits.wallTimeMs,
    );
    const onAbort = () => this.halt({ kind: 'cancelled', message: 'the run was cancelled by the client' });
    if (this.signal?.aborted) onAbort();
    else this.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const runner = await this.boot();
      startMs = performance.now() - this.started;
      const value = await this.runScript(runner, code);
      return this.result(startMs, { ok: true, value });
    } catch (err) {
      return this.result(startMs, { ok: false, error: this.describeFailure(err) });
    } finally {
      clearTimeout(timer);
      this.signal?.removeEventListener('abort', onAbort);
      this.finished = true;
      this.controller.abort();
      // No dispose: QuickJS asserts (and prints) when freeing a runtime that still holds
      // objects, and the whole instance is garbage once this run lets go of it anyway.
      this.rt = undefined;
      this.ctx = undefined;
    }
  }

  private result(startMs: number, outcome: { ok: boolean; value?: unknown; error?: SandboxError }): SandboxRun {
    const logs = this.droppedLogs
      ? [
          ...this.logs,
          `…[${this.droppedLogs} more log lines dropped: the log limit is ${this.limits.maxLogChars} characters]`,
        ]
      : this.logs;
    // A limit hit while the script went on (it caught the error) still ends the run as that limit.
    const error = this.stop ?? outcome.error;
    const run: SandboxRun = {
      ok: error === undefined,
      logs,
      calls: this.calls,
      startMs,
      durationMs: performance.now() - this.started,
    };
    if (error) run.error = error;
    else if (outcome.value !== undefined) run.value = outcome.value;
    return run;
  }

  /** A fresh instance, runtime and context with the script API installed; returns the runner. */
  private async boot(): Promise<QuickJSHandle> {
    const module = await newModule();
    const rt = (this.rt = module.newRuntime());
    rt.setMemoryLimit(this.limits.memoryBytes);
    rt.setMaxStackSize(MAX_STACK_BYTES);
    rt.setInterruptHandler(() => this.shouldInterrupt());
    rt.setModuleLoader(() => ({
      error: new Error(`import is not available in run_code: a script has only ${SANDBOX_API}`),
    }));
    const ctx = (this.ctx = rt.newContext());
    const prelude = this.vm(() =>
      ctx.unwrapResult(ctx.evalCode(PRELUDE, 'mcp-lens-prelude.js', { type: 'global', strict: true })),
    );
    const args = [
      ctx.newFunction('hostCall', (name, args, options) => this.hostCall(name, args, options)),
      ctx.newFunction('hostRead', (uri) => this.hostRead(uri)),
      ctx.newFunction('hostLog', (line) => this.hostLog(line)),
      ctx.newString(JSON.stringify(this.host.toolNames)),
      ctx.newString(JSON.stringify(UNAVAILABLE_GLOBALS)),
      ctx.newString(SANDBOX_API),
    ];
    try {
      return this.vm(() => ctx.unwrapResult(ctx.callFunction(prelude, ctx.undefined, ...args)));
    } finally {
      for (const a of args) a.dispose();
      prelude.dispose();
    }
  }

  /** Compiles and runs the script, driving its promise to the end. */
  private async runScript(runner: QuickJSHandle, code: string): Promise<unknown> {
    const ctx = this.ctx!;
    const compiled = this.vm(() => ctx.evalCode(SCRIPT_PREFIX + code + SCRIPT_SUFFIX, FILE, { type: 'global' }));
    if (compiled.error) throw new StopRun(this.scriptError(compiled.error, 'syntax'));
    const fn = compiled.value;
    const started = this.vm(() => ctx.callFunction(runner, ctx.undefined, fn));
    fn.dispose();
    runner.dispose();
    if (started.error) throw new StopRun(this.scriptError(started.error, 'runtime'));
    const promise = started.value;
    try {
      for (;;) {
        const jobs = this.vm(() => this.rt!.executePendingJobs());
        if (jobs.error) throw new StopRun(this.scriptError(jobs.error, 'runtime'));
        jobs.dispose();
        if (this.stop) throw new StopRun(this.stop);
        const state = this.vm(() => ctx.getPromiseState(promise));
        if (state.type === 'fulfilled') return this.output(state.value);
        if (state.type === 'rejected') throw new StopRun(this.scriptError(state.error, 'runtime'));
        if (this.inFlight === 0 && !this.rt!.hasPendingJob()) {
          throw new StopRun({
            kind: 'never-settles',
            message:
              'the script is waiting for a promise that nothing will ever settle (no tool call is running and there are no timers)',
          });
        }
        await new Promise<void>((resolve) => (this.waiter = resolve));
      }
    } finally {
      if (promise.alive) promise.dispose();
    }
  }

  /** The runner's JSON text, checked against the output limit, parsed. */
  private output(handle: QuickJSHandle): unknown {
    const ctx = this.ctx!;
    try {
      if (ctx.typeof(handle) !== 'string') return undefined;
      const length = ctx.getNumber(ctx.getProp(handle, 'length'));
      if (length > this.limits.maxOutputChars) {
        throw new StopRun({
          kind: 'output',
          message: `the return value is ${length.toLocaleString('en-US')} characters as JSON; the output limit is ${this.limits.maxOutputChars.toLocaleString('en-US')}. Return less: filter, count or summarize inside the script`,
        });
      }
      return JSON.parse(ctx.getString(handle));
    } finally {
      handle.dispose();
    }
  }

  private hostCall(nameHandle: QuickJSHandle, argsHandle: QuickJSHandle, optionsHandle: QuickJSHandle): QuickJSHandle {
    const ctx = this.ctx!;
    const name = ctx.getString(nameHandle);
    const args = parseOptional(ctx, argsHandle);
    const options = parseOptional(ctx, optionsHandle);
    if (this.calls >= this.limits.maxCalls) {
      this.stop ??= {
        kind: 'calls',
        message: `the script tried more than ${this.limits.maxCalls} tool calls, the limit for one run`,
      };
      return this.rejected(`call limit reached: at most ${this.limits.maxCalls} tool calls per run_code script`);
    }
    this.calls++;
    return this.settleLater(this.host.callTool(name, args, options, this.controller.signal));
  }

  private hostRead(uriHandle: QuickJSHandle): QuickJSHandle {
    return this.settleLater(this.host.readResult(this.ctx!.getString(uriHandle)));
  }

  private hostLog(lineHandle: QuickJSHandle): void {
    const line = this.ctx!.getString(lineHandle);
    const kept = line.length > MAX_LOG_LINE_CHARS ? `${line.slice(0, MAX_LOG_LINE_CHARS)}…[truncated]` : line;
    if (this.logChars + kept.length > this.limits.maxLogChars) {
      this.droppedLogs++;
      return;
    }
    this.logChars += kept.length;
    this.logs.push(kept);
  }

  /** A QuickJS promise settled when `work` does: with its value as JSON, or with an Error. */
  private settleLater(work: Promise<unknown>): QuickJSHandle {
    const ctx = this.ctx!;
    const deferred = ctx.newPromise();
    this.inFlight++;
    work
      .then(
        (value) => {
          if (this.finished || this.broken) return;
          const json = value === undefined ? undefined : JSON.stringify(value);
          const handle = json === undefined ? ctx.undefined : ctx.newString(json);
          deferred.resolve(handle);
          if (handle !== ctx.undefined) handle.dispose();
        },
        (err: unknown) => {
          if (this.finished || this.broken) return;
          const error = ctx.newError(errorMessage(err));
          deferred.reject(error);
          error.dispose();
        },
      )
      .catch((err: unknown) => this.halt(this.describeFailure(err)))
      .finally(() => {
        this.inFlight--;
        if (!this.finished && !this.broken) deferred.dispose();
        this.wake();
      });
    return deferred.handle;
  }

  private rejected(message: string): QuickJSHandle {
    const ctx = this.ctx!;
    const deferred = ctx.newPromise();
    const error = ctx.newError(message);
    deferred.reject(error);
    error.dispose();
    // The library frees a host function's return value; the resolvers went with reject().
    return deferred.handle;
  }

  private shouldInterrupt(): boolean {
    if (this.stop) return true;
    if (Date.now() <= this.deadline) return false;
    this.stop = {
      kind: 'wall-time',
      message: `the script ran past its wall-time limit of ${this.limits.wallTimeMs} ms`,
    };
    return true;
  }

  /** Ends the run from outside the VM (deadline, cancel): in-flight tool calls are aborted too. */
  private halt(reason: SandboxError): void {
    if (this.finished) return;
    this.stop ??= reason;
    this.controller.abort();
    this.wake();
  }

  private wake(): void {
    const w = this.waiter;
    this.waiter = undefined;
    w?.();
  }

  /** Enters the VM; a host exception out of wasm (native stack overflow) marks the instance broken. */
  private vm<T>(enter: () => T): T {
    try {
      return enter();
    } catch (err) {
      if (err instanceof StopRun) throw err;
      this.broken = true;
      if (err instanceof RangeError)
        throw new StopRun({ kind: 'stack', message: 'the script nested too deeply (stack overflow)' });
      throw new StopRun({ kind: 'runtime', message: `the sandbox failed: ${errorMessage(err)}` });
    }
  }

  /** A script's error handle as a SandboxError with its place in the script. */
  private scriptError(handle: QuickJSHandle, kind: 'syntax' | 'runtime'): SandboxError {
    const ctx = this.ctx!;
    let dumped: unknown;
    try {
      dumped = ctx.dump(handle);
    } finally {
      handle.dispose();
    }
    if (this.stop) return this.stop;
    const e = (typeof dumped === 'object' && dumped !== null ? dumped : { message: String(dumped) }) as {
      name?: string;
      message?: string;
      stack?: string;
    };
    const name = e.name ?? (kind === 'syntax' ? 'SyntaxError' : 'Error');
    const message = e.message ?? JSON.stringify(dumped);
    if (name === 'InternalError' && /out of memory|string too long|invalid array length/i.test(message)) {
      return {
        kind: 'memory',
        message: `the script went over its memory limit of ${Math.round(this.limits.memoryBytes / (1024 * 1024))} MB (${message})`,
      };
    }
    if (name === 'InternalError' && /stack overflow/.test(message))
      return { kind: 'stack', message: 'the script nested too deeply (stack overflow)' };
    const error: SandboxError = { kind: name === 'SyntaxError' ? 'syntax' : 'runtime', message: `${name}: ${message}` };
    const place = placeInScript(e.stack);
    if (place) Object.assign(error, place);
    return error;
  }

  private describeFailure(err: unknown): SandboxError {
    if (err instanceof StopRun) return err.reason;
    return { kind: 'runtime', message: `the sandbox failed: ${errorMessage(err)}` };
  }
}

function parseOptional(ctx: QuickJSContext, handle: QuickJSHandle | undefined): unknown {
  if (!handle || ctx.typeof(handle) !== 'string') return undefined;
  return JSON.parse(ctx.getString(handle));
}

/** Line and column in the script from a QuickJS stack, the prefix that wraps line 1 taken off. */
function placeInScript(stack: string | undefined): { line: number; column: number } | undefined {
  const m = stack ? new RegExp(`${FILE.replace('.', '\\.')}:(\\d+):(\\d+)`).exec(stack) : null;
  if (!m) return undefined;
  const line = Number(m[1]);
  const column = Number(m[2]);
  return { line, column: line === 1 ? Math.max(1, column - SCRIPT_PREFIX.length) : column };
}
