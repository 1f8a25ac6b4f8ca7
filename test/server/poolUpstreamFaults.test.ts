/**
 * The upstream pool against fixture servers that misbehave: missing command, hanging
 * initialize, garbage on stdout, crashes, list_changed storms, slow tools, bad schemas. What
 * a client sees of the same faults through the gateway is test/faults/gatewayUpstreamFaults.test.ts.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { UpstreamCallError, UpstreamPool } from '../../server/src/adapters/upstream/pool';
import { isProcessAlive as isAlive } from '../../server/src/adapters/processProbe';
import { lineLogger, type LogLevel } from '../../server/src/core/logger';
import { fixture, nodeConfig, statusOf, stdioConfig, until } from '../fixtures/servers/poolWorld';

const pools: UpstreamPool[] = [];
after(async () => {
  await Promise.all(pools.map((p) => p.close()));
});

function makePool(overrides: Partial<ConstructorParameters<typeof UpstreamPool>[0]> = {}) {
  const lines: { level: LogLevel; line: string }[] = [];
  const pool = new UpstreamPool({
    log: lineLogger((level, line) => lines.push({ level, line }), 'debug'),
    connectTimeoutMs: 5000,
    requestTimeoutMs: 5000,
    restart: { initialDelayMs: 50, maxDelayMs: 200, maxAttempts: 3 },
    ...overrides,
  });
  pools.push(pool);
  return { pool, lines };
}

const text = (r: { content?: unknown }) =>
  (r.content as { type: string; text?: string }[]).map((c) => c.text ?? '').join('');

describe('upstream pool: faults', () => {
  test('a command that does not exist is an error in clear text', async () => {
    const { pool } = makePool();
    await pool.setServers([stdioConfig('ghost', 'mcp-lens-no-such-command-xyz')]);
    const s = statusOf(pool, 'ghost');
    assert.equal(s.state, 'error');
    assert.equal(s.error, 'command not found: mcp-lens-no-such-command-xyz');
    await assert.rejects(
      pool.callTool('ghost', 't', {}, { timeoutMs: 1000 }),
      (e: unknown) => e instanceof UpstreamCallError && e.kind === 'not-ready',
    );
  });

  test('a server that hangs on initialize errors after the connect timeout and its process is killed', async () => {
    const { pool } = makePool({ connectTimeoutMs: 1500 });
    let pid: number | undefined;
    const sub = pool.onDidChange(() => (pid ??= pool.statuses().find((s) => s.name === 'hang')?.pid));
    await pool.setServers([nodeConfig('hang', fixture('hang-init.mjs'), ['--ignore-sigterm'])]);
    sub.dispose();
    const s = statusOf(pool, 'hang');
    assert.equal(s.state, 'error');
    assert.match(s.error ?? '', /initialize|timed out/);
    assert.ok(pid, 'pid seen while starting');
    assert.equal(isAlive(pid), false, 'hung process is gone (even ignoring SIGTERM)');
    assert.ok(
      s.stderrTail.some((l) => l.includes('never answering')),
      'stderr tail kept for the user',
    );
  });

  test('garbage on stdout is tolerated and a stderr flood stays bounded', async () => {
    const { pool, lines } = makePool();
    await pool.setServers([nodeConfig('garbage', fixture('garbage-stdout.mjs'), ['--stderr-mb', '8'])]);
    assert.equal(statusOf(pool, 'garbage').state, 'ready');
    const result = await pool.callTool('garbage', 'echo', { text: 'hi' }, { timeoutMs: 5000 });
    assert.equal(text(result), 'echo: hi');
    // Ask the server until its whole flood is in the pipe (a signal, not a sleep).
    let flood = '';
    for (let i = 0; i < 500 && flood !== 'done'; i++) {
      flood = text(await pool.callTool('garbage', 'flood_status', {}, { timeoutMs: 5000 }));
    }
    assert.equal(flood, 'done');
    const tail = statusOf(pool, 'garbage').stderrTail;
    assert.ok(tail.length > 0, 'stderr captured');
    assert.ok(tail.length <= 20, `tail bounded: ${tail.length} lines`);
    assert.ok(tail.every((l) => l.length <= 1001));
    assert.ok(
      lines.some((l) => l.level === 'debug' && l.line.includes('[garbage]')),
      'garbage reported at debug',
    );
    assert.equal(statusOf(pool, 'garbage').state, 'ready');
  });

  test('a crash mid-call rejects promptly as disconnected, then the server restarts with backoff', async () => {
    const { pool } = makePool();
    await pool.setServers([nodeConfig('crashy', fixture('crash.mjs'))]);
    const first = statusOf(pool, 'crashy');
    assert.equal(first.state, 'ready');
    // Disconnected, not timed out: it did not wait for the call timeout.
    await assert.rejects(pool.callTool('crashy', 'crash', {}, { timeoutMs: 30_000 }), (e: unknown) => {
      assert.ok(e instanceof UpstreamCallError);
      assert.equal(e.kind, 'disconnected');
      assert.equal(e.server, 'crashy');
      assert.equal(e.tool, 'crash');
      return true;
    });
    const back = await until(
      pool,
      () => {
        const s = statusOf(pool, 'crashy');
        return s.state === 'ready' && s.restarts >= 1 && s;
      },
      'restart to ready',
    );
    assert.notEqual(back.pid, first.pid);
    assert.equal(isAlive(first.pid!), false);
    assert.equal(text(await pool.callTool('crashy', 'ping', {}, { timeoutMs: 5000 })), 'pong');
  });

  test('a server that keeps dying is given up after maxAttempts, with the reason and stderr', async () => {
    const { pool } = makePool();
    await pool.setServers([nodeConfig('dies', fixture('crash.mjs'), ['--after-ms', '400'])]);
    const s = await until(
      pool,
      () => {
        const x = statusOf(pool, 'dies');
        return x.state === 'error' && x;
      },
      'giving up',
      15_000,
    );
    assert.match(s.error ?? '', /gave up after 3 restart attempts/);
    assert.match(s.error ?? '', /crash fixture exiting/);
    assert.equal(s.restarts, 3);
    assert.equal(s.toolCount, 0);
  });

  test('list_changed adds the new tool; a storm of 100 notifications causes only a few re-lists', async () => {
    const { pool } = makePool();
    const changes: string[] = [];
    pool.onDidChange((c) => changes.push(c.kind));
    await pool.setServers([nodeConfig('lc', fixture('list-changed.mjs'), ['--page-size', '2'])]);
    assert.deepEqual(
      pool
        .tools()
        .map((t) => t.name)
        .sort(),
      ['add_tool', 'list_count', 'storm'],
    );
    const added = text(await pool.callTool('lc', 'add_tool', {}, { timeoutMs: 5000 }));
    await until(pool, () => pool.tools().some((t) => t.name === added), `tool ${added} listed`);
    assert.ok(changes.includes('tools'));
    const before = Number(text(await pool.callTool('lc', 'list_count', {}, { timeoutMs: 5000 })));
    await pool.callTool('lc', 'storm', { count: 100 }, { timeoutMs: 5000 });
    // Add a tool after the storm: once it is listed, the storm's re-lists are over too.
    const marker = text(await pool.callTool('lc', 'add_tool', {}, { timeoutMs: 5000 }));
    await until(pool, () => pool.tools().some((t) => t.name === marker), 'marker tool listed');
    const after = Number(text(await pool.callTool('lc', 'list_count', {}, { timeoutMs: 5000 })));
    // Page size 2 → each re-list of 5 tools is 3 tools/list requests.
    const relists = (after - before) / 3;
    assert.ok(relists >= 1 && relists <= 6, `re-lists after a storm of 100: ${relists}`);
  });

  test('a tool whose inputSchema is not an object is kept with {type:"object"} and a warning', async () => {
    const { pool, lines } = makePool();
    await pool.setServers([nodeConfig('bad', fixture('list-changed.mjs'), ['--bad-schema'])]);
    const bad = pool.tools().find((t) => t.name === 'bad_schema');
    assert.deepEqual(bad?.inputSchema, { type: 'object' });
    assert.ok(lines.some((l) => l.level === 'warn' && l.line.includes('bad') && l.line.includes('bad_schema')));
  });

  test('slow tool: progress is reported, timeouts and cancellation throw their kinds', async () => {
    const { pool } = makePool();
    await pool.setServers([nodeConfig('slow', fixture('slow.mjs'))]);
    const progress: number[] = [];
    const ok = await pool.callTool(
      'slow',
      'sleep',
      { ms: 300, steps: 3 },
      { timeoutMs: 5000, onProgress: (p) => progress.push(p.progress) },
    );
    assert.equal(text(ok), 'slept 300 ms');
    // The SDK runs notification handlers a microtask late, so the last one may lose the race
    // with the response; the earlier ones must arrive in order.
    assert.deepEqual(progress.slice(0, 2), [1, 2]);

    await assert.rejects(
      pool.callTool('slow', 'sleep', { ms: 3000 }, { timeoutMs: 200 }),
      (e: unknown) => e instanceof UpstreamCallError && e.kind === 'timeout' && e.message.includes('slow/sleep'),
    );

    const abort = new AbortController();
    const call = pool.callTool(
      'slow',
      'sleep',
      { ms: 5000, steps: 50 },
      { timeoutMs: 10_000, signal: abort.signal, onProgress: () => abort.abort() },
    );
    await assert.rejects(call, (e: unknown) => e instanceof UpstreamCallError && e.kind === 'cancelled');
    // The server saw the cancellation (both the timed-out and the aborted call were cancelled).
    let seen = { cancelled: 0 };
    for (let i = 0; i < 50 && seen.cancelled < 2; i++) {
      seen = JSON.parse(text(await pool.callTool('slow', 'stats', {}, { timeoutMs: 5000 })));
    }
    assert.equal(seen.cancelled, 2);
    assert.equal(statusOf(pool, 'slow').state, 'ready', 'a timeout on a live server does not restart it');
  });

  test('an answer over the 10 MB limit fails only its own call; calls sent while it streams are answered; the server stays up', async () => {
    const { pool, lines } = makePool();
    await pool.setServers([nodeConfig('huge', fixture('faulty/faulty.mjs'), ['--mode', 'huge'])]);
    const before = statusOf(pool, 'huge');
    // huge_split writes the start of a 12 MB answer and the rest only once the next call arrives,
    // so that call is in flight while the oversized answer is read (and sent after it began).
    const started = (n: number) => () =>
      statusOf(pool, 'huge').stderrTail.filter((l) => l.includes('huge_split: answer started')).length >= n;
    const big = pool.callTool('huge', 'huge_split', { mb: 12 }, { timeoutMs: 120_000 });
    const bigRefused = assert.rejects(big, (e: unknown) => {
      assert.ok(e instanceof UpstreamCallError, String(e));
      assert.equal(e.kind, 'upstream-error');
      assert.equal(e.server, 'huge');
      assert.equal(e.tool, 'huge_split');
      assert.match(
        e.message,
        /^huge\/huge_split: the reply was 12\.0 MB, larger than MCP Lens's 10 MB limit for one message, so it was dropped; the server stays connected/,
      );
      return true;
    });
    await until(pool, started(1), 'the 12 MB answer started');
    const [pong] = await Promise.all([pool.callTool('huge', 'ping', {}, { timeoutMs: 120_000 }), bigRefused]);
    assert.equal(text(pong), 'pong');

    // The call an oversized answer belongs to has already ended (here cancelled; a timeout alike):
    // nothing else fails, and a 9 MB answer right after it is read whole.
    const abort = new AbortController();
    const gone = pool.callTool('huge', 'huge_split', { mb: 12 }, { timeoutMs: 120_000, signal: abort.signal });
    await until(pool, started(2), 'the second 12 MB answer started');
    abort.abort();
    await assert.rejects(gone, (e: unknown) => e instanceof UpstreamCallError && e.kind === 'cancelled');
    const nine = await pool.callTool('huge', 'huge', { mb: 9 }, { timeoutMs: 120_000 });
    assert.equal(text(nine).length, 9 * 1024 * 1024);

    const after = statusOf(pool, 'huge');
    assert.equal(after.state, 'ready');
    assert.equal(after.pid, before.pid, 'the connection was kept: same process');
    assert.equal(after.restarts, before.restarts);
    const warnings = lines
      .filter((l) => l.level === 'warn' && l.line.startsWith('[huge] dropped a 12.0 MB message'))
      .map((l) => l.line);
    assert.deepEqual(warnings, [
      '[huge] dropped a 12.0 MB message (over the 10 MB limit): the reply to a call, which failed',
      '[huge] dropped a 12.0 MB message (over the 10 MB limit): the reply to a call that had already ended',
    ]);
  });

  test('a server that stops answering is detected after a timeout, killed and restarted', async () => {
    const { pool } = makePool({ requestTimeoutMs: 500 });
    await pool.setServers([nodeConfig('frozen', fixture('slow.mjs'))]);
    const before = statusOf(pool, 'frozen');
    await assert.rejects(
      pool.callTool('frozen', 'freeze', {}, { timeoutMs: 300 }),
      (e: unknown) => e instanceof UpstreamCallError && e.kind === 'timeout',
    );
    const back = await until(
      pool,
      () => {
        const s = statusOf(pool, 'frozen');
        return s.state === 'ready' && s.pid !== before.pid && s;
      },
      'frozen server restarted',
    );
    assert.equal(back.restarts, 1);
    assert.equal(isAlive(before.pid!), false, 'the frozen process was killed');
  });

  test('restart(server) replaces the process and counts the restart', async () => {
    const { pool } = makePool();
    await pool.setServers([nodeConfig('r', fixture('crash.mjs'))]);
    const before = statusOf(pool, 'r');
    await pool.restart('r');
    const after = statusOf(pool, 'r');
    assert.equal(after.state, 'ready');
    assert.equal(after.restarts, before.restarts + 1);
    assert.notEqual(after.pid, before.pid);
    assert.equal(isAlive(before.pid!), false);
    await assert.rejects(
      pool.restart('unknown'),
      (e: unknown) => e instanceof UpstreamCallError && e.kind === 'not-ready',
    );
  });

  test('setServers reconciles: removed servers stop (process gone), changed ones restart', async () => {
    const { pool } = makePool();
    await pool.setServers([nodeConfig('a', fixture('crash.mjs')), nodeConfig('b', fixture('slow.mjs'))]);
    const pidA = statusOf(pool, 'a').pid!;
    const pidB = statusOf(pool, 'b').pid!;
    await pool.setServers([nodeConfig('b', fixture('slow.mjs')), nodeConfig('c', fixture('list-changed.mjs'))]);
    assert.deepEqual(
      pool
        .statuses()
        .map((s) => s.name)
        .sort(),
      ['b', 'c'],
    );
    assert.equal(isAlive(pidA), false);
    assert.equal(statusOf(pool, 'b').pid, pidB, 'unchanged server kept running');
    await pool.setServers([
      nodeConfig('b', fixture('slow.mjs'), ['--changed']),
      nodeConfig('c', fixture('list-changed.mjs')),
    ]);
    assert.notEqual(statusOf(pool, 'b').pid, pidB, 'changed fingerprint restarts');
    assert.equal(isAlive(pidB), false);
    const pids = pool.statuses().map((s) => s.pid!);
    await pool.close();
    assert.deepEqual(pids.filter(isAlive), []);
  });

  test('when our process exits, its upstream children are killed (exit hook)', async () => {
    const out = execFileSync(process.execPath, ['--import', 'tsx', fixture('poolExit.ts')], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    const pid = Number(out.trim());
    assert.ok(pid > 0, `pid printed: ${out}`);
    // SIGKILL is delivered at once; reaping the orphan is up to init, so a zombie counts as gone.
    const gone = () => !isAlive(pid) || /\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
    for (let i = 0; i < 100 && !gone(); i++) await new Promise((r) => setTimeout(r, 20));
    assert.ok(gone(), `child ${pid} outlived its parent`);
  });
});
