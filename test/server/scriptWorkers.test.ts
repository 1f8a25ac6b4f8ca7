/**
 * run_code's worker threads (adapters/sandbox/scriptWorkers.ts), driven directly: the hard
 * stop behind QuickJS's own deadline (a worker that does not answer is ended at its deadline
 * and replaced), cancellation, a script's calls aborted when its run ends, and the limits a
 * script breaks inside its worker (stack, memory) ending only that run.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ScriptWorkers } from '../../server/src/adapters/sandbox/scriptWorkers';
import type { SandboxHost, SandboxLimits } from '../../server/src/adapters/sandbox/quickjsSandbox';
import { ROOT } from '../fixtures/gatewayLens';

const LIMITS: SandboxLimits = {
  wallTimeMs: 120_000,
  memoryBytes: 64 * 1024 * 1024,
  maxCalls: 100,
  maxOutputChars: 1 << 20,
  maxLogChars: 1 << 16,
  maxArgsChars: 1 << 20,
};
const HOST: SandboxHost = { toolNames: ['t'], callTool: async () => ({ sum: 3 }), readResult: async () => null };

describe('a worker that does not stop', () => {
  const pool = new ScriptWorkers({
    maxWorkers: 1,
    killGraceMs: 100,
    entry: { file: join(ROOT, 'test/fixtures/sandbox/stuckWorker.mjs'), execArgv: [] },
  });
  after(() => pool.close());

  it('is ended at its deadline with the wall-time error, and replaced: the next run has a new worker', async () => {
    const first = await pool.run('id', HOST, LIMITS);
    assert.equal(first.ok, true);
    const stuck = await pool.run('spin', HOST, { ...LIMITS, wallTimeMs: 300 });
    assert.deepEqual(stuck.error, { kind: 'wall-time', message: 'the script ran past its wall-time limit of 300 ms' });
    const next = await pool.run('id', HOST, LIMITS);
    assert.equal(next.ok, true);
    assert.notEqual(next.value, first.value, 'the same worker ran the next script');
  });

  it('is ended when the client cancels, and the next run works', async () => {
    const controller = new AbortController();
    const stuck = pool.run('spin', HOST, LIMITS, controller.signal);
    controller.abort();
    assert.deepEqual((await stuck).error, { kind: 'cancelled', message: 'the run was cancelled by the client' });
    assert.equal((await pool.run('id', HOST, LIMITS)).ok, true);
  });
});

describe('scripts on the real worker', () => {
  const pool = new ScriptWorkers({ maxWorkers: 2 });
  after(() => pool.close());

  it("a script's calls run on this thread, and the one in flight is aborted when the run ends", async () => {
    let signal: AbortSignal | undefined;
    const seen: unknown[] = [];
    let reached!: () => void;
    const waiting = new Promise<void>((resolve) => (reached = resolve));
    const host: SandboxHost = {
      toolNames: ['t', 'never'],
      callTool: (name, args, _options, s) => {
        seen.push({ name, args });
        if (name === 't') return Promise.resolve({ sum: 3 });
        signal = s;
        reached();
        return new Promise(() => undefined);
      },
      readResult: async () => null,
    };
    const controller = new AbortController();
    const run = pool.run(
      'const a = await call_tool("t", { x: 1 }); await tools.never({}); return a',
      host,
      LIMITS,
      controller.signal,
    );
    await waiting;
    assert.equal(signal?.aborted, false);
    controller.abort();
    const r = await run;
    assert.deepEqual(r.error, { kind: 'cancelled', message: 'the run was cancelled by the client' });
    assert.deepEqual(seen, [
      { name: 't', args: { x: 1 } },
      { name: 'never', args: {} },
    ]);
    assert.equal(signal?.aborted, true);
  });

  it('deep recursion and deeply nested JSON end their run with the stack limit; a memory bomb with the memory limit; the next run works', async () => {
    for (const code of ['function f(n) { return f(n + 1) + 1 } return f(0)', 'return JSON.parse("[".repeat(100000))']) {
      assert.deepEqual((await pool.run(code, HOST, LIMITS)).error, {
        kind: 'stack',
        message: 'the script nested too deeply (stack overflow)',
      });
    }
    const bomb = await pool.run(
      'const hoard = []; for (;;) hoard.push(new Array(100000).fill(hoard.length));',
      HOST,
      LIMITS,
    );
    assert.equal(bomb.error?.kind, 'memory');
    assert.match(bomb.error.message, /^the script went over its memory limit of 64 MB \(out of memory\)$/);
    const ok = await pool.run('return (await call_tool("t", {})).sum', HOST, LIMITS);
    assert.deepEqual([ok.ok, ok.value], [true, 3]);
  });

  it('what a script throws or logs reaches this thread cut to a bounded size', async () => {
    const thrown = await pool.run('throw new Error("x".repeat(20e6))', HOST, LIMITS);
    assert.equal(thrown.error?.kind, 'runtime');
    assert.ok(thrown.error.message.length < 6000, `${thrown.error.message.length} characters`);
    assert.match(thrown.error.message, /^Error: x+…\[truncated\]$/);
    const logged = await pool.run('console.log("y".repeat(20e6)); return 1', HOST, LIMITS);
    assert.equal(logged.value, 1);
    assert.equal(logged.logs[0]!.length, 10_000 + '…[truncated]'.length);
  });
});
