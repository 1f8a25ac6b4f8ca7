// LanceToolStore on a real LanceDB in a temp dir: rows, serialized writes, dimension change,
// damage repair and the one-writer lock across instances and real processes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { LanceToolStore } from '../../server/src/adapters/store/lanceToolStore';
import type { StoredTool } from '../../server/src/adapters/store/toolStore';
import { silentLogger } from '../../server/src/core/logger';
import { recordingLogger, tempDir } from './indexHelpers';
import { corruptFiles } from './toolStoreDamage';

function row(id: string, dim = 4, seed = 1): StoredTool {
  const [server, tool] = id.split('/');
  return {
    id,
    server,
    tool,
    text: `text of ${id}`,
    inputSchemaJson: '{"type":"object"}',
    contentHash: `h${seed}`,
    model: 'ollama:test',
    vector: Float32Array.from({ length: dim }, (_, i) => (i + seed) / 10),
  };
}

test('rows round-trip; concurrent upserts of the same ids leave one row each', async (t) => {
  const store = await LanceToolStore.open({ dir: tempDir(t), log: silentLogger });
  const ids = ['a/one', "b/it's", 'c/three', 'd/x y'];
  await Promise.all([1, 2, 3, 4, 5].map((seed) => store.upsert(ids.map((id) => row(id, 4, seed)))));
  const rows = await store.readAll();
  assert.deepEqual(rows.map((r) => r.id).sort(), [...ids].sort());
  assert.ok(
    rows.every((r) => r.contentHash === 'h5'),
    'the last queued write wins',
  );
  assert.deepEqual(Array.from(rows.find((r) => r.id === 'a/one')!.vector!), Array.from(row('a/one', 4, 5).vector));
  await store.delete(["b/it's", 'd/x y']);
  assert.deepEqual((await store.readAll()).map((r) => r.id).sort(), ['a/one', 'c/three']);
  await store.close();
});

test('a new vector dimension recreates the table', async (t) => {
  const store = await LanceToolStore.open({ dir: tempDir(t), log: silentLogger });
  await store.upsert([row('a/one', 4), row('a/two', 4)]);
  await store.upsert([row('a/one', 8)]);
  const rows = await store.readAll();
  assert.equal(rows.length, 1);
  assert.equal(rows[0].vector?.length, 8);
  await store.close();
});

test('a damaged store is dropped and rebuilt on open, and says so', async (t) => {
  const dir = tempDir(t);
  const first = await LanceToolStore.open({ dir, log: silentLogger });
  await first.upsert([row('a/one'), row('a/two')]);
  await first.close();
  assert.ok(corruptFiles(dir) > 0);
  const log = recordingLogger();
  const store = await LanceToolStore.open({ dir, log });
  assert.deepEqual(await store.readAll(), []);
  assert.ok(
    log.lines.some((l) => l.startsWith('warn: rebuilding tool store')),
    log.lines.join('\n'),
  );
  await store.upsert([row('a/three')]);
  assert.deepEqual(
    (await store.readAll()).map((r) => r.id),
    ['a/three'],
  );
  await store.close();
});

test("a second instance is read-only, sees the writer's commits, and cannot write", async (t) => {
  const dir = tempDir(t);
  const writer = await LanceToolStore.open({ dir, log: silentLogger });
  const reader = await LanceToolStore.open({ dir, log: silentLogger });
  assert.equal(writer.readOnly, false);
  assert.equal(reader.readOnly, true);
  await writer.upsert([row('a/one')]);
  assert.deepEqual(
    (await reader.readAll()).map((r) => r.id),
    ['a/one'],
  );
  await writer.upsert([row('a/two')]);
  assert.equal((await reader.readAll()).length, 2, 'the reader checks for new versions on every read');
  await assert.rejects(reader.upsert([row('a/three')]), /read-only/);
  await reader.close();
  await writer.close();
  const next = await LanceToolStore.open({ dir, log: silentLogger });
  assert.equal(next.readOnly, false, 'the lock is released on close');
  await next.close();
});

test('a lock held by a dead process is stale and taken over', async (t) => {
  const dir = tempDir(t);
  const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  writeFileSync(join(dir, 'toolStore.lock'), `${dead.stdout}\n`);
  const store = await LanceToolStore.open({ dir, log: silentLogger });
  assert.equal(store.readOnly, false);
  await store.close();
});

test('a store locked by another live process opens read-only there, and the other way round', async (t) => {
  const dir = tempDir(t);
  const root = resolve(__dirname, '../..');
  const code = `(async () => {
    const { LanceToolStore } = require(${JSON.stringify(resolve(root, 'server/src/adapters/store/lanceToolStore.ts'))});
    const { silentLogger } = require(${JSON.stringify(resolve(root, 'server/src/core/logger.ts'))});
    const store = await LanceToolStore.open({ dir: ${JSON.stringify(dir)}, log: silentLogger });
    process.stdout.write(JSON.stringify({ readOnly: store.readOnly, rows: (await store.readAll()).length }) + '\\n');
    process.stdin.on('end', async () => { await store.close(); process.exit(0); });
    process.stdin.resume();
  })()`;
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', code], {
    cwd: root,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  t.after(() => child.kill());
  const first = await new Promise<{ readOnly: boolean }>((done) =>
    child.stdout.once('data', (d: Buffer) => done(JSON.parse(d.toString()))),
  );
  assert.equal(first.readOnly, false, 'the child was first: it writes');
  const here = await LanceToolStore.open({ dir, log: silentLogger });
  assert.equal(here.readOnly, true, "this process found the child's live lock");
  await here.close();
  child.stdin.end();
  await new Promise((done) => child.once('exit', done));
  const after = await LanceToolStore.open({ dir, log: silentLogger });
  assert.equal(after.readOnly, false, 'the child released the lock when it closed');
  await after.close();
});
