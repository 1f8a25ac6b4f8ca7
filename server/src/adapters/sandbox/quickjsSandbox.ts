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
 * timer for time spent awaiting), memory (the instance's linear memory has a maximum), stack, tool calls (the
 * first call over the limit stops the script), output size; imports are refused by a module
 * loader that loads nothing. Each limit stops the run with an error that names it.
 */
import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from 'quickjs-emscripten-core';
import { setMaxListeners } from 'node:events';
import { errorMessage } from '../../core/errorMessage';
import { PRELUDE, SANDBOX_API, SCRIPT_PREFIX, SCRIPT_SUFFIX, UNAVAILABLE_GLOBALS, type PreludeBounds } from './prelude';
import {
  MAX_ERROR_TEXT,
  SCRIPT_FILE,
  STACK_OVERFLOW,
  scriptError,
  shortString,
  textLength,
  wallTimeError,
  type SandboxError,
} from './scriptErrors';

import { newModule } from './quickjsModule';
import type { SandboxHost, SandboxLimits, SandboxRun, ScriptHost, ScriptOutcome } from './sandboxTypes';

export type { SandboxError, SandboxErrorKind } from './scriptErrors';
export type { SandboxHost, SandboxLimits, SandboxRun, ScriptHost, ScriptOutcome } from './sandboxTypes';

/**
 * QuickJS's own stack limit. Its interpreter recursion also uses the host's native stack; this
 * is low enough that QuickJS's "stack overflow" comes first in almost every case, and the
 * remaining ones (deeply nested JSON) surface as a host RangeError that ends only this run.
 */
const MAX_STACK_BYTES = 256 * 1024;
/** Longest single log line kept (cut inside the VM, prelude.ts). */
const MAX_LOG_LINE_CHARS = 10_000;
/** Longest tool name or result URI a script may pass (the prelude refuses longer ones first). */
const MAX_NAME_CHARS = 1000;

/** Runs `code` (the body of an async function) in a fresh sandbox on this thread. Never throws. */
export async function runSandboxed(
  code: string,
  host: SandboxHost,
  limits: SandboxLimits,
  signal?: AbortSignal,
): Promise<SandboxRun> {
  return parsedRun(await runScript(code, jsonHost(host), limits, signal));
}

/** Runs `code` with a host that answers in JSON text (a worker's, sandboxWorker.ts). Never throws. */
export function runScript(
  code: string,
  host: ScriptHost,
  limits: SandboxLimits,
  signal?: AbortSignal,
): Promise<ScriptOutcome> {
  return new ScriptRun(host, limits, signal).execute(code);
}

/** The run with its return value parsed. */
export function parsedRun(outcome: ScriptOutcome): SandboxRun {
  const { json, ...run } = outcome;
  return json === undefined ? run : { ...run, value: JSON.parse(json) as unknown };
}

function jsonHost(host: SandboxHost): ScriptHost {
  const json = (value: unknown) => (value === undefined ? undefined : JSON.stringify(value));
  return {
    toolNames: host.toolNames,
    callTool: async (name, args, options, signal) => json(await host.callTool(name, args, options, signal)),
    readResult: async (uri) => json(await host.readResult(uri)),
  };
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
  private module: QuickJSWASMModule | undefined;
  private rt: QuickJSRuntime | undefined;
  private ctx: QuickJSContext | undefined;

  constructor(
    private readonly host: ScriptHost,
    private readonly limits: SandboxLimits,
    private readonly signal: AbortSignal | undefined,
  ) {
    this.deadline = Date.now() + limits.wallTimeMs;
    // Each call in flight listens on the run's signal, and a script may have all its calls in
    // flight at once: that many listeners are expected, not a leak.
    setMaxListeners(limits.maxCalls + 10, this.controller.signal);
  }

  async execute(code: string): Promise<ScriptOutcome> {
    let startMs = 0;
    const timer = setTimeout(() => this.halt(wallTimeError(this.limits.wallTimeMs)), this.limits.wallTimeMs);
    const onAbort = () => this.halt({ kind: 'cancelled', message: 'the run was cancelled by the client' });
    if (this.signal?.aborted) onAbort();
    else this.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const runner = await this.boot();
      startMs = performance.now() - this.started;
      const json = await this.runScript(runner, code);
      return this.result(startMs, json === undefined ? { ok: true } : { ok: true, json });
    } catch (err) {
      return this.result(startMs, { ok: false, error: this.describeFailure(err) });
    } finally {
      clearTimeout(timer);
      this.signal?.removeEventListener('abort', onAbort);
      this.finished = true;
      this.controller.abort();
      // No dispose: QuickJS asserts (and prints) when freeing a runtime that still holds
      // objects, and the whole instance is garbage once this run lets go of it anyway.
      this.module = undefined;
      this.rt = undefined;
      this.ctx = undefined;
    }
  }

  private result(startMs: number, outcome: { ok: boolean; json?: string; error?: SandboxError }): ScriptOutcome {
    const logs = this.droppedLogs
      ? [
          ...this.logs,
          `…[${this.droppedLogs} more log lines dropped: the log limit is ${this.limits.maxLogChars} characters]`,
        ]
      : this.logs;
    // A limit hit while the script went on (it caught the error) still ends the run as that limit.
    const error = this.stop ?? outcome.error;
    const run: ScriptOutcome = {
      ok: error === undefined,
      logs,
      calls: this.calls,
      startMs,
      durationMs: performance.now() - this.started,
    };
    const memory = this.module?.getWasmMemory().buffer.byteLength;
    if (memory !== undefined) run.memoryBytes = memory;
    if (error) run.error = error;
    else if (outcome.json !== undefined) run.json = outcome.json;
    return run;
  }

  /** A fresh instance, runtime and context with the script API installed; returns the runner. */
  private async boot(): Promise<QuickJSHandle> {
    const module = (this.module = await newModule(this.limits.memoryBytes));
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
    const bounds: PreludeBounds = {
      maxLogLineChars: MAX_LOG_LINE_CHARS,
      maxArgsChars: this.limits.maxArgsChars,
      maxErrorChars: MAX_ERROR_TEXT / 4,
    };
    const args = [
      ctx.newFunction('hostCall', (name, args, options) => this.hostCall(name, args, options)),
      ctx.newFunction('hostRead', (uri) => this.hostRead(uri)),
      ctx.newFunction('hostLog', (line) => this.hostLog(line)),
      ctx.newString(JSON.stringify(this.host.toolNames)),
      ctx.newString(JSON.stringify(UNAVAILABLE_GLOBALS)),
      ctx.newString(SANDBOX_API),
      ctx.newString(JSON.stringify(bounds)),
    ];
    try {
      return this.vm(() => ctx.unwrapResult(ctx.callFunction(prelude, ctx.undefined, ...args)));
    } finally {
      for (const a of args) a.dispose();
      prelude.dispose();
    }
  }

  /** Compiles and runs the script, driving its promise to the end; its return value as JSON text. */
  private async runScript(runner: QuickJSHandle, code: string): Promise<string | undefined> {
    const ctx = this.ctx!;
    const compiled = this.vm(() => ctx.evalCode(SCRIPT_PREFIX + code + SCRIPT_SUFFIX, SCRIPT_FILE, { type: 'global' }));
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

  /** The runner's JSON text, checked against the output limit before it is copied out. */
  private output(handle: QuickJSHandle): string | undefined {
    const ctx = this.ctx!;
    try {
      if (ctx.typeof(handle) !== 'string') return undefined;
      const length = textLength(ctx, handle);
      if (length > this.limits.maxOutputChars) {
        throw new StopRun({
          kind: 'output',
          message: `the return value is ${length.toLocaleString('en-US')} characters as JSON; the output limit is ${this.limits.maxOutputChars.toLocaleString('en-US')}. Return less: filter, count or summarize inside the script`,
        });
      }
      return ctx.getString(handle);
    } finally {
      handle.dispose();
    }
  }

  private hostCall(nameHandle: QuickJSHandle, argsHandle: QuickJSHandle, optionsHandle: QuickJSHandle): QuickJSHandle {
    const ctx = this.ctx!;
    const name = shortString(ctx, nameHandle, MAX_NAME_CHARS);
    if (name === undefined) return this.rejected('call_tool(name, args): name must be a tool name from find_tools');
    if (this.calls >= this.limits.maxCalls) {
      this.stop ??= {
        kind: 'calls',
        message: `the script tried more than ${this.limits.maxCalls} tool calls, the limit for one run`,
      };
      return this.rejected(`call limit reached: at most ${this.limits.maxCalls} tool calls per run_code script`);
    }
    const args = this.jsonArgument(argsHandle);
    const options = this.jsonArgument(optionsHandle);
    if (args === TOO_LONG || options === TOO_LONG) {
      return this.rejected(
        `call_tool("${name}"): its arguments are over ${this.limits.maxArgsChars.toLocaleString('en-US')} characters as JSON, the limit`,
      );
    }
    this.calls++;
    return this.settleLater(this.host.callTool(name, args, options, this.controller.signal));
  }

  private hostRead(uriHandle: QuickJSHandle): QuickJSHandle {
    const uri = shortString(this.ctx!, uriHandle, MAX_NAME_CHARS);
    if (uri === undefined) return this.rejected('read_result(uri): uri must be an mcp-lens://results/<id> string');
    return this.settleLater(this.host.readResult(uri));
  }

  private hostLog(lineHandle: QuickJSHandle): void {
    // The prelude cut the line already; one that is still longer is not copied at all.
    const kept = shortString(this.ctx!, lineHandle, MAX_LOG_LINE_CHARS + 20) ?? '…[a log line too long to keep]';
    if (this.logChars + kept.length > this.limits.maxLogChars) {
      this.droppedLogs++;
      return;
    }
    this.logChars += kept.length;
    this.logs.push(kept);
  }

  /** A JSON text argument from the prelude, parsed; TOO_LONG past the limit (never copied then). */
  private jsonArgument(handle: QuickJSHandle | undefined): unknown {
    if (!handle || this.ctx!.typeof(handle) !== 'string') return undefined;
    const json = shortString(this.ctx!, handle, this.limits.maxArgsChars);
    return json === undefined ? TOO_LONG : JSON.parse(json);
  }

  /** A QuickJS promise settled when `work` does: with its JSON text, or with an Error. */
  private settleLater(work: Promise<string | undefined>): QuickJSHandle {
    const ctx = this.ctx!;
    const deferred = ctx.newPromise();
    this.inFlight++;
    work
      .then(
        (json) => {
          if (this.finished || this.broken) return;
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
    this.stop = wallTimeError(this.limits.wallTimeMs);
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
      if (err instanceof RangeError) throw new StopRun(STACK_OVERFLOW);
      throw new StopRun({ kind: 'runtime', message: `the sandbox failed: ${errorMessage(err)}` });
    }
  }

  /** A script's error handle as a SandboxError; a limit that stopped the run wins over what it threw. */
  private scriptError(handle: QuickJSHandle, kind: 'syntax' | 'runtime'): SandboxError {
    if (this.stop) {
      handle.dispose();
      return this.stop;
    }
    return scriptError(this.ctx!, handle, kind, this.limits.memoryBytes);
  }

  private describeFailure(err: unknown): SandboxError {
    if (err instanceof StopRun) return err.reason;
    return { kind: 'runtime', message: `the sandbox failed: ${errorMessage(err)}` };
  }
}

/** An argument longer than the limit: refused without being read. */
const TOO_LONG = Symbol('too long');
