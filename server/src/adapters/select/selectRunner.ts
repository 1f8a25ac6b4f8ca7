/**
 * Runs `select` (JMESPath) off the gateway's process: in a forked Node process with a heap
 * limit, stopped at a deadline. A JMESPath interpreter cannot be interrupted and its functions
 * build values far larger than their input, so one expression ran the gateway out of memory
 * and took every session with it (issue #23). A worker thread was measured first and refused:
 * its `resourceLimits` are best effort, and `map(&join('', [pad_left(@, `20000000`), @]), a)`
 * in a worker with a 128 MB heap aborted the whole process ("Reached heap limit", Node 20).
 * A process that runs out of heap ends alone. Its deadline counts the CPU it spends where that
 * can be read (SELECT_LIMITS.deadlineMs), within a wall-clock bound.
 *
 * Evaluators are started on demand, at most SELECT_LIMITS.maxConcurrent at once, kept IDLE_MS
 * for the next select, and killed when one breaks a limit. Turns are handed out round robin
 * between sessions, at most SELECT_LIMITS.perSession at once for one (core/fairQueue.ts): one
 * session's flood of slow selects leaves another session an evaluator. While one evaluates,
 * another is started and kept ready (up to the limit), so that other session's select does not
 * wait for a process to start either.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { FairQueue } from '../../core/fairQueue';
import { processCpuMs } from '../processProbe';
import { SELECT_LIMITS } from '../../core/resultShaping';
import type { SelectOutcome } from '../../core/selectEvaluation';
import type { SelectInput } from '../../core/selectSubject';
import type { SelectReplyMessage, SelectRequestMessage } from './selectMessages';

export interface SelectRunOptions {
  signal?: AbortSignal;
  /** Whose turn this is: turns go round robin between sessions. */
  session?: string;
}

export interface SelectRunner {
  /** The projection of `input`, or why not; never throws. */
  run(input: SelectInput, expression: string, options?: SelectRunOptions): Promise<SelectOutcome>;
  close(): void;
}

export interface SelectLimits {
  deadlineMs: number;
  wallDeadlineMs: number;
  memoryMb: number;
  maxConcurrent: number;
  perSession: number;
  maxOutputBytes: number;
}

const SHUTTING_DOWN: SelectOutcome = { ok: false, problem: 'select was not applied: MCP Lens is shutting down' };

/** How long an idle evaluator waits for the next select before it is ended. */
const IDLE_MS = 30_000;
/** Time for an evaluator to start: Node's own start-up, slow on a loaded machine. */
const START_MS = 30_000;
/** Lines of an evaluator's stderr kept to tell an out-of-memory end from another. */
const STDERR_TAIL = 4096;

interface Evaluator {
  child: ChildProcess;
  ready: Promise<void>;
  stderr: string;
  idleTimer?: NodeJS.Timeout;
}

export class ChildSelectRunner implements SelectRunner {
  private readonly idle: Evaluator[] = [];
  private readonly all = new Set<Evaluator>();
  private readonly turns: FairQueue;
  private nextId = 1;
  private closed = false;

  constructor(private readonly limits: SelectLimits = SELECT_LIMITS) {
    this.turns = new FairQueue({ slots: limits.maxConcurrent, perKey: limits.perSession });
  }

  async run(input: SelectInput, expression: string, options: SelectRunOptions = {}): Promise<SelectOutcome> {
    const { signal } = options;
    if (this.closed) return SHUTTING_DOWN;
    const release = await this.turns.acquire(options.session ?? '', signal);
    if (!release) return { ok: false, problem: 'select was cancelled' };
    try {
      if (this.closed) return SHUTTING_DOWN;
      const evaluator = this.idle.pop() ?? this.spawn();
      clearTimeout(evaluator.idleTimer);
      // The next select (another session's) finds an evaluator started, as this one did.
      if (this.idle.length === 0 && this.all.size < this.limits.maxConcurrent) this.park(this.spawn());
      return await this.evaluate(evaluator, input, expression, signal);
    } finally {
      release();
    }
  }

  close(): void {
    this.closed = true;
    for (const e of this.all) e.child.kill('SIGKILL');
    this.all.clear();
    this.idle.length = 0;
  }

  private spawn(): Evaluator {
    const { file, execArgv } = evaluatorModule(this.limits.memoryMb);
    const child = fork(file, [], {
      execArgv,
      env: evaluatorEnv(),
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'advanced',
    });
    const evaluator: Evaluator = { child, stderr: '', ready: Promise.resolve() };
    child.stderr
      ?.setEncoding('utf8')
      .on('data', (c: string) => (evaluator.stderr = (evaluator.stderr + c).slice(-STDERR_TAIL)));
    evaluator.ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`it did not start within ${START_MS / 1000} s`)), START_MS);
      child.on('message', (m: SelectReplyMessage) => 'ready' in m && (clearTimeout(timer), resolve()));
      child.once(
        'exit',
        (code, signal) => (
          clearTimeout(timer),
          reject(new Error(`it exited (${code ?? signal}) ${evaluator.stderr.trim().slice(-300)}`))
        ),
      );
      child.once('error', (err) => (clearTimeout(timer), reject(err)));
    });
    // Settled by whichever run waits on it; an idle evaluator that fails is simply dropped.
    evaluator.ready.catch(() => undefined);
    child.once('exit', () => this.forget(evaluator));
    this.all.add(evaluator);
    return evaluator;
  }

  private evaluate(
    evaluator: Evaluator,
    input: SelectInput,
    expression: string,
    signal?: AbortSignal,
  ): Promise<SelectOutcome> {
    const id = this.nextId++;
    const { child } = evaluator;
    return new Promise<SelectOutcome>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      let settled = false;
      const finish = (outcome: SelectOutcome, reusable: boolean) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
        signal?.removeEventListener('abort', onAbort);
        if (reusable) this.park(evaluator);
        else this.discard(evaluator);
        resolve(outcome);
      };
      const onMessage = (m: SelectReplyMessage) => {
        if ('id' in m && m.id === id)
          finish(
            m.ok ? { ok: true, json: m.json } : { ok: false, problem: m.problem, ...(m.limit && { limit: true }) },
            true,
          );
      };
      const onExit = (code: number | null, sig: NodeJS.Signals | null) =>
        finish(this.exitProblem(code, sig, evaluator.stderr), false);
      const onAbort = () => finish({ ok: false, problem: 'select was cancelled' }, false);
      child.on('message', onMessage);
      child.once('exit', onExit);
      signal?.addEventListener('abort', onAbort, { once: true });
      if (signal?.aborted) return onAbort();
      evaluator.ready.then(
        () => {
          if (!this.all.has(evaluator)) return;
          const spent = this.spentTime(child.pid);
          const check = () => {
            const { ms, wallMs } = spent();
            if (ms >= this.limits.deadlineMs || wallMs >= this.limits.wallDeadlineMs)
              return finish(this.deadlineProblem(), false);
            timer = setTimeout(check, Math.min(this.limits.deadlineMs - ms, this.limits.wallDeadlineMs - wallMs));
          };
          timer = setTimeout(check, this.limits.deadlineMs);
          const request: SelectRequestMessage = { id, input, expression, maxBytes: this.limits.maxOutputBytes };
          child.send(
            request,
            (err) =>
              err &&
              finish(
                { ok: false, problem: `select was not applied: its evaluator did not take the input (${err.message})` },
                false,
              ),
          );
        },
        (err: Error) =>
          finish(
            { ok: false, problem: `select was not applied: its evaluator could not start: ${err.message}` },
            false,
          ),
      );
    });
  }

  /**
   * What an evaluation has spent since now: the evaluator's CPU time where it can be read
   * (the deadline then measures the work, not the machine's load), else wall time.
   */
  private spentTime(pid: number | undefined): () => { ms: number; wallMs: number } {
    const started = Date.now();
    const cpuAtStart = pid === undefined ? undefined : processCpuMs(pid);
    return () => {
      const wallMs = Date.now() - started;
      const cpu = cpuAtStart === undefined ? undefined : processCpuMs(pid!);
      return { ms: cpu === undefined ? wallMs : cpu - cpuAtStart!, wallMs };
    };
  }

  private park(evaluator: Evaluator): void {
    if (this.closed || !this.all.has(evaluator)) return;
    evaluator.idleTimer = setTimeout(() => this.discard(evaluator), IDLE_MS);
    evaluator.idleTimer.unref();
    this.idle.push(evaluator);
  }

  private discard(evaluator: Evaluator): void {
    this.forget(evaluator);
    evaluator.child.kill('SIGKILL');
  }

  private forget(evaluator: Evaluator): void {
    clearTimeout(evaluator.idleTimer);
    this.all.delete(evaluator);
    const i = this.idle.indexOf(evaluator);
    if (i >= 0) this.idle.splice(i, 1);
  }

  private deadlineProblem(): SelectOutcome {
    return {
      ok: false,
      limit: true,
      problem: `select stopped: it ran longer than ${this.limits.deadlineMs / 1000} s, the limit for one select. Use a simpler expression (no nested map or sort over generated arrays)`,
    };
  }

  private exitProblem(code: number | null, signal: NodeJS.Signals | null, stderr: string): SelectOutcome {
    if (/heap out of memory|Allocation failed/i.test(stderr) || signal === 'SIGABRT' || code === 134) {
      return {
        ok: false,
        limit: true,
        problem: `select stopped: it needed more than ${this.limits.memoryMb} MB of memory, the limit for one select (functions such as pad_left, join and map can build values far larger than the result). Select fewer fields`,
      };
    }
    return { ok: false, problem: `select was not applied: its evaluator stopped (${code ?? signal})` };
  }
}

/** The evaluator's entry: the bundle beside this one, or the TypeScript source under tsx. */
function evaluatorModule(memoryMb: number): { file: string; execArgv: string[] } {
  const heap = [`--max-old-space-size=${memoryMb}`, '--max-semi-space-size=16'];
  // Bundled, this code is inside dist/server.js or dist/cli.js: __dirname is dist/.
  if (!__filename.endsWith('.ts')) return { file: join(__dirname, 'selectChild.js'), execArgv: heap };
  // createRequire: a bare require.resolve would make esbuild look for tsx in the bundles.
  return {
    file: join(__dirname, 'selectChild.ts'),
    execArgv: [...heap, '--require', createRequire(__filename).resolve('tsx/cjs')],
  };
}

/**
 * The evaluator needs nothing from the environment but what lets Node start: Electron's switch
 * (the sidecar runs on VS Code's Electron as Node) and Windows' system root. NODE_OPTIONS stays
 * out, so nothing overrides its heap limit.
 */
function evaluatorEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of ['ELECTRON_RUN_AS_NODE', 'SystemRoot', 'PATH'])
    if (process.env[name] !== undefined) env[name] = process.env[name];
  return env;
}
