import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFile, mkdtemp, readdir, readFile, rm, stat, symlink, mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lineLogger } from '../../server/src/core/logger';
import { UsageTracker, type CallRecord } from '../../server/src/usage/usageTracker';
import { LOG_FILE } from '../../server/src/adapters/usage/usageStore';

const DAY = 24 * 3600 * 1000;

async function world(t: {
  after(fn: () => Promise<void>): void;
}): Promise<{ dir: string; logs: string[]; log: ReturnType<typeof lineLogger> }> {
  const root = await mkdtemp(join(tmpdir(), 'mcp-lens-usage-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  const logs: string[] = [];
  return { dir: join(root, 'usage'), logs, log: lineLogger((level, line) => logs.push(`${level} ${line}`), 'debug') };
}

const call = (sessionId: string, toolKey: string, startedAt: number, extra: Partial<CallRecord> = {}): CallRecord => ({
  sessionId,
  toolKey,
  server: toolKey.split('/')[0]!,
  startedAt,
  durationMs: 5,
  outcome: 'ok',
  ...extra,
});

test('calls survive a restart, and so do the hit rates', async (t) => {
  const { dir, log } = await world(t);
  const a = await UsageTracker.open({ dir, enabled: true, retentionDays: 90, log });
  for (const s of ['s1', 's2', 's3']) {
    a.noteAnswer(s, ['k/get', 'k/logs']);
    a.record(call(s, 'k/get', Date.now(), { fromAgent: true }));
    a.record(call(s, 'k/logs', Date.now(), { fromAgent: true }));
  }
  const before = a.stats();
  await a.close();
  const b = await UsageTracker.open({ dir, enabled: true, retentionDays: 90, log });
  t.after(() => b.close());
  const after = b.stats();
  assert.equal(after.callsRecorded, 6);
  assert.deepEqual(after, before);
  // Each session picked k/get first from its answer; k/logs followed without a new search.
  assert.deepEqual(after.retrieval?.recent, {
    sessions: 3,
    calls: 6,
    picks: 3,
    top1: 3,
    top5: 3,
    missed: 0,
    unsearched: 0,
    firstAt: after.retrieval!.recent.firstAt,
    lastAt: after.retrieval!.recent.lastAt,
  });
  assert.deepEqual(after.pairs, [{ a: 'get', b: 'logs', count: 3 }]);
  assert.deepEqual(
    b
      .predict('fresh', 2)
      .map((p) => p.key)
      .sort(),
    ['k/get', 'k/logs'],
  );
  // A session with no calls of its own gets the search order untouched (cold start).
  const candidates = [
    { key: 'x/unrelated', score: 5, signals: ['keyword' as const], why: 'w' },
    { key: 'k/logs', score: 4.9, signals: ['keyword' as const], why: 'w' },
  ];
  assert.deepEqual(b.boost('fresh', candidates), candidates);
  // Once it called k/get, its history re-ranks the head and says why.
  b.record(call('s4', 'k/get', Date.now()));
  assert.equal(b.predict('s4', 1)[0]!.key, 'k/logs');
  const boosted = b.boost('s4', candidates);
  assert.equal(boosted[0]!.key, 'k/logs');
  assert.ok(boosted[0]!.signals.includes('usage'));
  assert.match(boosted[0]!.why, /k\/get/);
});

test('retention prunes old calls on open and compacts the log', async (t) => {
  const { dir, log } = await world(t);
  const now = 100 * DAY;
  const a = await UsageTracker.open({ dir, enabled: true, retentionDays: 30, log, now: () => now });
  a.record(call('old', 'k/ancient', now - 40 * DAY));
  a.record(call('new', 'k/recent', now - 1 * DAY));
  await a.close();
  const sizeBefore = (await stat(join(dir, LOG_FILE))).size;
  const b = await UsageTracker.open({ dir, enabled: true, retentionDays: 30, log, now: () => now });
  t.after(() => b.close());
  assert.equal(b.stats().callsRecorded, 1);
  assert.deepEqual(
    b.stats().topTools.map((x) => x.name),
    ['recent'],
  );
  assert.ok((await stat(join(dir, LOG_FILE))).size < sizeBefore);
  assert.ok(!(await readFile(join(dir, LOG_FILE), 'utf8')).includes('ancient'));
});

test('tracking off stores nothing and creates no file', async (t) => {
  const { dir, log } = await world(t);
  const a = await UsageTracker.open({ dir, enabled: false, retentionDays: 90, log });
  a.record(call('s', 'k/get', Date.now(), { args: { q: 1 }, fromAgent: true }));
  a.noteAnswer('s', ['k/get']);
  a.record(call('s', 'k/get', Date.now(), { fromAgent: true }));
  await a.flush();
  assert.equal(a.stats().enabled, false);
  assert.equal(a.stats().callsRecorded, 0);
  assert.deepEqual(a.predict('s', 3), []);
  await a.close();
  assert.equal(existsSync(dir), false);
});

test('no argument value reaches the store, in any obvious encoding', async (t) => {
  const { dir, log, logs } = await world(t);
  const secret = 'sk-PLANTED-secret-7f3a9c';
  const a = await UsageTracker.open({ dir, enabled: true, retentionDays: 90, log });
  a.record(call('s', 'k/get', Date.now(), { args: { token: secret, nested: [{ v: secret }] } }));
  a.record(call('s', 'k/get', Date.now(), { args: { nested: [{ v: secret }], token: secret } }));
  a.noteAnswer('s', ['k/get']);
  a.record(call('s', 'k/get', Date.now(), { args: secret, fromAgent: true }));
  await a.close();
  const forms = [
    secret,
    Buffer.from(secret).toString('base64'),
    Buffer.from(secret).toString('base64url'),
    Buffer.from(secret).toString('hex'),
    encodeURIComponent(secret),
  ];
  const files = await readdir(dir);
  assert.ok(files.includes(LOG_FILE));
  for (const f of files) {
    const text = (await readFile(join(dir, f))).toString('latin1');
    for (const form of forms) assert.ok(!text.toLowerCase().includes(form.toLowerCase()), `${f} holds ${form}`);
  }
  assert.ok(!logs.join('\n').includes(secret));
  // Same arguments in another key order hash alike (de-duplication still works).
  const lines = (await readFile(join(dir, LOG_FILE), 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l.slice(9)));
  assert.equal(lines[0].h, lines[1].h);
  assert.notEqual(lines[0].h, lines[2].h);
});

test('a torn last record is dropped and appends resume on a clean line', async (t) => {
  const { dir, log } = await world(t);
  const a = await UsageTracker.open({ dir, enabled: true, retentionDays: 90, log });
  a.record(call('s', 'k/get', Date.now()));
  a.record(call('s', 'k/logs', Date.now()));
  await a.close();
  const full = await readFile(join(dir, LOG_FILE), 'utf8');
  const lastLine = full.trim().split('\n').pop()!;
  await appendFile(join(dir, LOG_FILE), lastLine.slice(0, 30)); // a crash mid-write
  const b = await UsageTracker.open({ dir, enabled: true, retentionDays: 90, log });
  assert.equal(b.stats().callsRecorded, 2);
  b.record(call('s', 'k/describe', Date.now()));
  await b.close();
  const c = await UsageTracker.open({ dir, enabled: true, retentionDays: 90, log });
  t.after(() => c.close());
  assert.deepEqual(
    c
      .stats()
      .topTools.map((x) => x.name)
      .sort(),
    ['describe', 'get', 'logs'],
  );
});

// A link to /dev/full used to stand for a full disk; links in the store are now refused
// (test/security/state-folder-links.test.ts): the refusal is the one warning, and recording goes on in memory alike.
test('a log that cannot be written is a warning: recording goes on in memory and nothing throws', async (t) => {
  const { dir, log, logs } = await world(t);
  if (!existsSync('/dev/full')) return t.skip('no /dev/full here');
  await mkdir(dir, { recursive: true });
  await symlink('/dev/full', join(dir, LOG_FILE));
  const a = await UsageTracker.open({ dir, enabled: true, retentionDays: 90, log });
  t.after(() => a.close());
  a.record(call('s', 'k/get', Date.now()));
  await a.flush();
  a.record(call('s', 'k/logs', Date.now()));
  await a.flush();
  assert.equal(a.stats().callsRecorded, 2);
  assert.deepEqual(
    a
      .predict('s', 2)
      .map((p) => p.key)
      .sort(),
    ['k/get', 'k/logs'],
  );
  const warnings = logs.filter((l) => l.startsWith('warn') && l.includes('usage.log: it is a symbolic link'));
  assert.equal(warnings.length, 1, logs.join('\n'));
});

test('a second tracker on the same folder reads but never writes', async (t) => {
  const { dir, log, logs } = await world(t);
  const writer = await UsageTracker.open({ dir, enabled: true, retentionDays: 90, log });
  writer.record(call('w', 'k/get', Date.now()));
  await writer.flush();
  const reader = await UsageTracker.open({ dir, enabled: true, retentionDays: 90, log });
  assert.equal(reader.stats().callsRecorded, 1);
  reader.record(call('r', 'k/from-reader', Date.now()));
  await reader.close();
  await writer.close();
  assert.ok(logs.some((l) => l.includes('only reads')));
  assert.ok(!(await readFile(join(dir, LOG_FILE), 'utf8')).includes('from-reader'));
  assert.equal(existsSync(join(dir, 'lock')), false);
});

test('clear() deletes everything, setEnabled toggles recording, changes are announced', async (t) => {
  const { dir, log } = await world(t);
  const a = await UsageTracker.open({ dir, enabled: true, retentionDays: 90, log });
  t.after(() => a.close());
  let changes = 0;
  const sub = a.onDidChange(() => changes++);
  a.record(call('s', 'k/get', Date.now()));
  await a.flush();
  assert.ok(changes >= 1);
  await a.clear();
  assert.equal(a.stats().callsRecorded, 0);
  assert.deepEqual(a.predict('s', 3), []);
  assert.equal(await readFile(join(dir, LOG_FILE), 'utf8'), '');
  await a.setEnabled(false);
  a.record(call('s', 'k/get', Date.now()));
  await a.setEnabled(true);
  assert.equal(a.stats().callsRecorded, 0);
  sub.dispose();
});

test('a call is learned from after its reply, yet judged against the answer it followed and seen by every reader at once', async (t) => {
  const { dir, log } = await world(t);
  const a = await UsageTracker.open({ dir, enabled: true, retentionDays: 90, log });
  t.after(() => a.close());
  a.noteAnswer('s', ['k/get', 'k/logs']);
  a.record(call('s', 'k/logs', Date.now(), { fromAgent: true }));
  // A new answer in the same tick: the call before it still counts against the first one (rank 2).
  a.noteAnswer('s', ['k/other']);
  a.record(call('s', 'k/get', Date.now(), { fromAgent: true }));
  const stats = a.stats();
  assert.equal(stats.callsRecorded, 2);
  assert.deepEqual(
    {
      picks: stats.retrieval?.recent.picks,
      top1: stats.retrieval?.recent.top1,
      top5: stats.retrieval?.recent.top5,
      missed: stats.retrieval?.recent.missed,
    },
    { picks: 2, top1: 0, top5: 1, missed: 1 },
  );
  assert.deepEqual(
    a
      .predict('s', 5)
      .map((p) => p.key)
      .sort(),
    ['k/get', 'k/logs'],
  );
});
