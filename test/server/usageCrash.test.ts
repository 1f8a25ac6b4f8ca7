/**
 * kill -9 of a process that is recording calls: every call it had recorded more than a
 * second before the kill is in the log, the log parses (at most a torn tail is dropped), and
 * the next process takes over the dead writer's lock.
 * The same file is the child when USAGE_CRASH_DIR is set.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../../server/src/core/logger';
import { UsageTracker } from '../../server/src/usage/usageTracker';
import { readLog } from '../../server/src/adapters/usage/framedLog';
import { fromStored } from '../../server/src/adapters/usage/usageRecord';
import { LOG_FILE } from '../../server/src/adapters/usage/usageStore';

async function child(dir: string): Promise<void> {
  const tracker = await UsageTracker.open({ dir, enabled: true, retentionDays: 90, log: silentLogger });
  let i = 0;
  // Records a call every 2 ms and tells the parent which one, with the time it was recorded.
  setInterval(() => {
    i++;
    tracker.record({
      sessionId: 'crash',
      toolKey: `t/tool${i % 7}`,
      server: 't',
      startedAt: Date.now(),
      durationMs: i,
      outcome: 'ok',
      args: { i },
    });
    process.send!({ i, at: Date.now() });
  }, 2);
}

if (process.env.USAGE_CRASH_DIR) {
  void child(process.env.USAGE_CRASH_DIR);
} else {
  test('kill -9 while recording loses nothing older than a second', async (t) => {
    const root = await mkdtemp(join(tmpdir(), 'mcp-lens-usage-crash-'));
    t.after(() => rm(root, { recursive: true, force: true }));
    const dir = join(root, 'usage');
    const proc = spawn(process.execPath, ['--import', 'tsx', __filename], {
      env: { ...process.env, USAGE_CRASH_DIR: dir },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    t.after(() => proc.kill('SIGKILL'));
    const sent: { i: number; at: number }[] = [];
    const killedAt = await new Promise<number>((resolve, reject) => {
      proc.on('error', reject);
      proc.on('exit', (code) => reject(new Error(`child exited early (${code})`)));
      proc.on('message', (m: { i: number; at: number }) => {
        sent.push(m);
        // Kill once the child has been recording for 2.5 s (several fsync rounds).
        if (m.at - sent[0]!.at > 2500 && !proc.killed) {
          proc.removeAllListeners('exit');
          proc.kill('SIGKILL');
          resolve(Date.now());
        }
      });
    });
    await new Promise((r) => proc.once('exit', r));
    const { records, dropped } = await readLog(join(dir, LOG_FILE), fromStored);
    assert.ok(dropped <= 1, `dropped ${dropped}`);
    const have = new Set(records.map((r) => r.durationMs));
    const old = sent.filter((m) => m.at < killedAt - 1000);
    assert.ok(old.length > 100, `only ${old.length} calls old enough`);
    const missing = old.filter((m) => !have.has(m.i));
    assert.deepEqual(missing, []);
    // The dead child's lock is stale: a new tracker becomes the writer and sees the calls.
    const next = await UsageTracker.open({ dir, enabled: true, retentionDays: 90, log: silentLogger });
    next.record({
      sessionId: 'after',
      toolKey: 't/after',
      server: 't',
      startedAt: Date.now(),
      durationMs: -1,
      outcome: 'ok',
    });
    await next.close();
    const again = await readLog(join(dir, LOG_FILE), fromStored);
    assert.equal(again.dropped, 0);
    assert.ok(again.records.some((r) => r.toolKey === 't/after'));
    assert.equal(again.records.length, records.length + 1);
  });
}
