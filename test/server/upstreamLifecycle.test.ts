// The pool's lifecycle: servers start in parallel and a hanging one holds up nobody (not the
// other servers, not the next reconciliation); a deferred server starts on its first call and
// an idle one stops and starts again on the next call. Waits are on pool events.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UpstreamPool } from '../../server/src/adapters/upstream/pool';
import { silentLogger } from '../../server/src/core/logger';
import { fixture, nodeConfig, statusOf, until } from '../fixtures/servers/poolWorld';

const gated = (name: string) => nodeConfig(name, fixture('gated.mjs'), ['--prefix', name]);
const hang = () => nodeConfig('hang', fixture('hang-init.mjs'));

test('a hanging server delays neither the other servers nor the next reconciliation', async () => {
  const pool = new UpstreamPool({ log: silentLogger, connectTimeoutMs: 60_000 });
  try {
    void pool.setServers([hang(), gated('a')]);
    await until(pool, () => pool.statuses().find((s) => s.name === 'a')?.state === 'ready', 'a ready');
    assert.equal(statusOf(pool, 'hang').state, 'starting');
    // Adding a server while `hang` is still starting: b comes up, hang is left alone.
    void pool.setServers([hang(), gated('a'), gated('b')]);
    await until(pool, () => pool.statuses().find((s) => s.name === 'b')?.state === 'ready', 'b ready');
    assert.equal(statusOf(pool, 'hang').state, 'starting');
    assert.deepEqual(
      pool.toolsOf('b').map((t) => t.name),
      ['b_ping'],
    );
  } finally {
    await pool.close();
  }
});

test('a deferred server starts on its first call; an idle one stops and starts again on the next', async () => {
  const pool = new UpstreamPool({ log: silentLogger, connectTimeoutMs: 30_000 });
  try {
    await pool.setServers([gated('lazy')], { deferred: new Set(['lazy']), idleTimeoutMs: 300 });
    assert.equal(statusOf(pool, 'lazy').state, 'stopped');
    assert.equal(statusOf(pool, 'lazy').pid, undefined, 'no process before the first call');

    const first = await pool.callTool('lazy', 'lazy_ping', {}, { timeoutMs: 10_000 });
    assert.match(JSON.stringify(first.content), /pong from lazy \(pid (\d+)\)/);
    const pid1 = Number(/pid (\d+)/.exec(JSON.stringify(first.content))![1]);

    await until(pool, () => statusOf(pool, 'lazy').state === 'stopped', 'the idle stop', 10_000);
    assert.throws(() => process.kill(pid1, 0), /ESRCH/, 'the idle process is gone');

    const second = await pool.callTool('lazy', 'lazy_ping', {}, { timeoutMs: 10_000 });
    const pid2 = Number(/pid (\d+)/.exec(JSON.stringify(second.content))![1]);
    assert.notEqual(pid2, pid1, 'started again');
  } finally {
    await pool.close();
  }
});

test('a call waiting for a start gives up with the reason when the start fails', async () => {
  const pool = new UpstreamPool({ log: silentLogger, connectTimeoutMs: 500 });
  try {
    await pool.setServers([hang()], { deferred: new Set(['hang']) });
    await assert.rejects(
      pool.callTool('hang', 'anything', {}, { timeoutMs: 10_000 }),
      /hang\/anything: not ready \(error: no answer to initialize within 500 ms/,
    );
  } finally {
    await pool.close();
  }
});

test('switching lazy start off starts the servers it had left stopped', async () => {
  const pool = new UpstreamPool({ log: silentLogger, connectTimeoutMs: 30_000 });
  try {
    await pool.setServers([gated('waiting')], { deferred: new Set(['waiting']), idleTimeoutMs: 60_000 });
    assert.equal(statusOf(pool, 'waiting').state, 'stopped');
    await pool.setServers([gated('waiting')]);
    assert.equal(statusOf(pool, 'waiting').state, 'ready');
  } finally {
    await pool.close();
  }
});
