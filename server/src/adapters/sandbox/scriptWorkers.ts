/**
 * run_code's scripts run on worker threads (sandboxWorker.ts), never on the gateway's thread:
 * a busy loop, a deep recursion or a memory bomb spends its worker, and every other session
 * goes on being answered. Each worker runs one script at a time, in a fresh QuickJS instance,
 * with a V8 heap limit of its own (`resourceLimits`; the script's memory is QuickJS's, bounded
 * by its allocator limit, and what crosses out of the VM is bounded in prelude.ts).
 *
 * Deadlines are kept twice: inside the worker by QuickJS's interrupt handler (the run ends
 * with its wall-time error and the worker is reused), and here by a timer KILL_GRACE_MS later
 * that ends the worker (worker.terminate) if it has not answered; a killed or crashed worker
 * is replaced. One worker is kept started and idle ahead of the first script (`warm`) and
 * after each one is taken, up to `maxWorkers`, so no script waits for a thread to start.
 * The calls a script makes run here, through the host the gateway passes, with the rules of
 * call_tool; each is aborted when its run ends, however it ends.
 */
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { errorMessage } from '../../core/errorMessage';
import { wallTimeError } from './scriptErrors';
import { parsedRun, type SandboxError, type SandboxHost, type SandboxLimits, type SandboxRun } from './quickjsSandbox';
import type { FromWorker, ToWorker } from './sandboxMessages';

/** Where run_code scripts run. */
export interface ScriptRunner {
  /** Runs one script; never throws. The caller keeps at most `maxWorkers` runs at once. */
  run(code: string, host: SandboxHost, limits: SandboxLimits, signal?: AbortSignal): Promise<SandboxRun>;
  /** Starts a worker ahead of the first script. */
  warm(): void;
  close(): void;
}

export interface ScriptWorkersOptions {
  /** Workers at once, running or idle. */
  maxWorkers: number;
  /** After a run's deadline (or a cancel), how long its worker has to answer before it is ended. */
  killGraceMs?: number;
  /** Each worker's V8 heap (old generation), in MB. */
  heapMb?: number;
  /** The worker's module and Node options (tests pass a worker that never answers). */
  entry?: { file: string; execArgv: string[] };
}

/** A worker's own interrupt ends a run within milliseconds of its deadline; this is for one that cannot. */
const KILL_GRACE_MS = 1000;
/**
 * What a worker holds on its V8 heap: QuickJS's JavaScript, a run's tool names, one answer
 * crossing in (at most a result's 10 MB) or the return value crossing out (its limit).
 */
const WORKER_HEAP_MB = 96;
/**
 * A worker whose run grew its WebAssembly memory past this is replaced, not kept: an idle
 * thread collects no garbage, and that memory (up to the run's limit) stayed resident until
 * the worker's next script.
 */
const RETIRE_PAST_BYTES = 32 * 1024 * 1024;
/** How long a second idle worker is kept for the next script before it is ended (the first stays). */
const IDLE_MS = 30_000;
/** Time for a worker to start and compile QuickJS: slow on a loaded machine. */
const START_MS = 30_000;
const STDERR_TAIL = 4096;

interface ScriptWorker {
  worker: Worker;
  ready: Promise<void>;
  stderr: string;
  idleTimer?: NodeJS.Timeout;
}

export class ScriptWorkers implements ScriptRunner {
  private readonly idle: ScriptWorker[] = [];
  private readonly all = new Set<ScriptWorker>();
  private closed = false;

  constructor(private readonly options: ScriptWorkersOptions) {}

  warm(): void {
    this.topUp();
  }

  async run(code: string, host: SandboxHost, limits: SandboxLimits, signal?: AbortSignal): Promise<SandboxRun> {
    const started = performance.now();
    if (this.closed) return failedRun(started, { kind: 'runtime', message: 'MCP Lens is shutting down' });
    const w = this.idle.pop() ?? this.spawn();
    clearTimeout(w.idleTimer);
    // The next script finds a started worker, as this one did.
    this.topUp();
    try {
      await w.ready;
    } catch (err) {
      this.discard(w);
      return failedRun(started, { kind: 'runtime', message: `the sandbox could not start: ${errorMessage(err)}` });
    }
    if (!this.all.has(w)) return failedRun(started, { kind: 'runtime', message: 'the sandbox stopped before the run' });
    w.worker.ref();
    const { run, reusable } = await new WorkerRun(w, host, limits, this.options.killGraceMs ?? KILL_GRACE_MS).start(
      code,
      signal,
    );
    if (reusable && (run.memoryBytes ?? 0) <= RETIRE_PAST_BYTES) this.park(w);
    else {
      this.discard(w);
      this.topUp();
    }
    return run;
  }

  close(): void {
    this.closed = true;
    for (const w of this.all) void w.worker.terminate();
    this.all.clear();
    this.idle.length = 0;
  }

  /** One started worker waiting, unless `maxWorkers` are already there. */
  private topUp(): void {
    if (!this.closed && this.idle.length === 0 && this.all.size < this.options.maxWorkers) this.park(this.spawn());
  }

  /** Idle workers past the first are ended after IDLE_MS; the first waits for the next script. */
  private park(w: ScriptWorker): void {
    if (this.closed || !this.all.has(w)) return;
    w.worker.unref();
    if (this.idle.length > 0) {
      w.idleTimer = setTimeout(() => this.discard(w), IDLE_MS);
      w.idleTimer.unref();
    }
    this.idle.push(w);
  }

  private discard(w: ScriptWorker): void {
    clearTimeout(w.idleTimer);
    this.all.delete(w);
    const i = this.idle.indexOf(w);
    if (i >= 0) this.idle.splice(i, 1);
    void w.worker.terminate();
  }

  private spawn(): ScriptWorker {
    const { file, execArgv } = this.options.entry ?? workerModule();
    const worker = new Worker(file, {
      execArgv,
      // Nothing of the gateway's environment (tokens, secrets) is in a script's thread.
      env: {},
      stdout: true,
      stderr: true,
      resourceLimits: { maxOldGenerationSizeMb: this.options.heapMb ?? WORKER_HEAP_MB, stackSizeMb: 4 },
    });
    worker.unref();
    const w: ScriptWorker = { worker, stderr: '', ready: Promise.resolve() };
    worker.stdout.resume();
    worker.stderr.setEncoding('utf8').on('data', (c: string) => (w.stderr = (w.stderr + c).slice(-STDERR_TAIL)));
    w.ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`it did not start within ${START_MS / 1000} s`)), START_MS);
      const onMessage = (m: FromWorker) => {
        if (m.type !== 'ready') return;
        clearTimeout(timer);
        worker.off('message', onMessage);
        resolve();
      };
      worker.on('message', onMessage);
      worker.on('error', (err) => (clearTimeout(timer), reject(err)));
      worker.once('exit', (code) => (clearTimeout(timer), reject(new Error(`it exited (${code}) ${w.stderr.trim()}`))));
    });
    // Settled by whichever run waits on it; an idle worker that fails is simply dropped.
    w.ready.catch(() => undefined);
    worker.once('exit', () => {
      if (this.all.has(w)) this.discard(w);
    });
    this.all.add(w);
    return w;
  }
}

/** One script on one worker: its messages, its calls, its deadline and how it ended. */
class WorkerRun {
  private readonly started = performance.now();
  private readonly calls = new Map<number, AbortController>();
  private callsMade = 0;
  private settle: ((ended: { run: SandboxRun; reusable: boolean }) => void) | undefined;
  private killTimer: NodeJS.Timeout | undefined;
  private signal: AbortSignal | undefined;

  constructor(
    private readonly w: ScriptWorker,
    private readonly host: SandboxHost,
    private readonly limits: SandboxLimits,
    private readonly killGraceMs: number,
  ) {}

  start(code: string, signal: AbortSignal | undefined): Promise<{ run: SandboxRun; reusable: boolean }> {
    const { worker } = this.w;
    const ended = new Promise<{ run: SandboxRun; reusable: boolean }>((resolve) => (this.settle = resolve));
    worker.on('message', this.onMessage);
    worker.on('error', this.onError);
    worker.on('exit', this.onExit);
    this.signal = signal;
    signal?.addEventListener('abort', this.onAbort, { once: true });
    this.killTimer = setTimeout(
      () => this.kill(wallTimeError(this.limits.wallTimeMs)),
      this.limits.wallTimeMs + this.killGraceMs,
    );
    this.post({ type: 'run', code, toolNames: this.host.toolNames, limits: this.limits });
    if (signal?.aborted) this.onAbort();
    return ended;
  }

  private readonly onMessage = (m: FromWorker): void => {
    switch (m.type) {
      case 'call': {
        // The worker counts a run's calls too; this thread does not take its word for it.
        if (++this.callsMade > this.limits.maxCalls) {
          this.answer(
            m.id,
            Promise.reject(
              new Error(`call limit reached: at most ${this.limits.maxCalls} tool calls per run_code script`),
            ),
          );
          return;
        }
        const controller = new AbortController();
        this.calls.set(m.id, controller);
        this.answer(m.id, this.host.callTool(m.name, m.args, m.options, controller.signal));
        return;
      }
      case 'read':
        this.answer(m.id, this.host.readResult(m.uri));
        return;
      case 'abort':
        this.calls.get(m.id)?.abort();
        return;
      case 'done':
        this.finish(parsedRun(m.outcome), true);
        return;
    }
  };

  private readonly onError = (err: Error & { code?: string }): void => {
    const error: SandboxError =
      err.code === 'ERR_WORKER_OUT_OF_MEMORY'
        ? { kind: 'memory', message: `the script's sandbox went over its heap limit (${errorMessage(err)})` }
        : { kind: 'runtime', message: `the sandbox failed: ${errorMessage(err)}` };
    this.finish(failedRun(this.started, error), false);
  };

  private readonly onExit = (code: number): void =>
    this.finish(failedRun(this.started, { kind: 'runtime', message: `the sandbox stopped (exit ${code})` }), false);

  /** Cancelled by the client: the worker stops the script; if it cannot, the worker is ended. */
  private readonly onAbort = (): void => {
    this.post({ type: 'cancel' });
    clearTimeout(this.killTimer);
    this.killTimer = setTimeout(
      () => this.kill({ kind: 'cancelled', message: 'the run was cancelled by the client' }),
      this.killGraceMs,
    );
  };

  private answer(id: number, work: Promise<unknown>): void {
    work
      .then(
        (value) =>
          ({ type: 'answer', id, ok: true, json: value === undefined ? undefined : JSON.stringify(value) }) as const,
        (err: unknown) => ({ type: 'answer', id, ok: false, message: errorMessage(err) }) as const,
      )
      .catch((err: unknown) => ({ type: 'answer', id, ok: false, message: errorMessage(err) }) as const)
      .then((message) => {
        this.calls.delete(id);
        if (this.settle) this.post(message);
      });
  }

  private kill(error: SandboxError): void {
    if (!this.settle) return;
    this.finish(failedRun(this.started, error), false);
  }

  private post(message: ToWorker): void {
    this.w.worker.postMessage(message);
  }

  private finish(run: SandboxRun, reusable: boolean): void {
    const settle = this.settle;
    if (!settle) return;
    this.settle = undefined;
    clearTimeout(this.killTimer);
    const { worker } = this.w;
    worker.off('message', this.onMessage);
    worker.off('error', this.onError);
    worker.off('exit', this.onExit);
    this.signal?.removeEventListener('abort', this.onAbort);
    for (const call of this.calls.values()) call.abort();
    this.calls.clear();
    settle({ run, reusable });
  }
}

function failedRun(started: number, error: SandboxError): SandboxRun {
  return { ok: false, error, logs: [], calls: 0, startMs: 0, durationMs: performance.now() - started };
}

/** The worker's entry: the bundle beside this one, or the TypeScript source under tsx. */
function workerModule(): { file: string; execArgv: string[] } {
  // Bundled, this code is inside dist/server.js or dist/cli.js: __dirname is dist/.
  if (!__filename.endsWith('.ts')) return { file: join(__dirname, 'sandboxWorker.js'), execArgv: [] };
  // createRequire: a bare require.resolve would make esbuild look for tsx in the bundles.
  return {
    file: join(__dirname, 'sandboxWorker.ts'),
    execArgv: ['--require', createRequire(__filename).resolve('tsx/cjs')],
  };
}
