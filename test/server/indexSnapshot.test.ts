// The tool store's vector snapshot on a real LanceDB in a temp dir: an unchanged store starts
// without loading LanceDB, the snapshot never disagrees with the table, damage falls back to
// the table, and a reader follows the writer's commits through both.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { LanceToolStore } from '../../server/src/adapters/store/lanceToolStore';
import type { StoredTool } from '../../server/src/adapters/store/toolStore';
import { readSnapshot } from '../../server/src/adapters/store/vectorSnapshot';
import { silentLogger } from '../../server/src/core/logger';
import { tempDir } from './indexHelpers';

const root = resolve(__dirname, '../..');
const snapshotOf = (dir: string) => join(dir, 'lancedb', 'tools.vectors');

function row(id: string, seed = 1, dim = 8): StoredTool {
  const [server, tool] = id.split('/');
  return {
    id,
    server,
    tool,
    text: `text of ${id}`,
    inputSchemaJson: '{}',
    contentHash: `h${seed}`,
    model: 'ollama:test',
    vector: Float32Array.from({ length: dim }, (_, i) => i + seed / 10),
  };
}

async function filledStore(dir: string, ids: string[]): Promise<void> {
  const store = await LanceToolStore.open({ dir, log: silentLogger });
  await store.readAll();
  await store.upsert(ids.map((id) => row(id)));
  await store.close();
}

/** Opens the store in a fresh process and reports its rows and whether LanceDB's native library got loaded. */
function readInFreshProcess(dir: string): Promise<{ rows: string[]; lanceLoaded: boolean; readOnly: boolean }> {
  const code = `(async () => {
    const { LanceToolStore } = require(${JSON.stringify(join(root, 'server/src/adapters/store/lanceToolStore.ts'))});
    const { silentLogger } = require(${JSON.stringify(join(root, 'server/src/core/logger.ts'))});
    const store = await LanceToolStore.open({ dir: ${JSON.stringify(dir)}, log: silentLogger });
    const rows = (await store.readAll()).map((r) => r.id).sort();
    const lanceLoaded = require('node:fs').readFileSync('/proc/self/maps', 'utf8').includes('lancedb');
    const readOnly = store.readOnly;
    await store.close();
    process.stdout.write(JSON.stringify({ rows, lanceLoaded, readOnly }) + '\\n');
  })()`;
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '-e', code], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.on('error', fail);
    child.on('close', (status) =>
      status === 0 ? done(JSON.parse(out)) : fail(new Error(`child exited ${status}: ${out}`)),
    );
  });
}

test('a closed writer leaves a snapshot; the next start reads it without loading LanceDB', async (t) => {
  const dir = tempDir(t);
  await filledStore(dir, ['a/one', 'a/two', "b/it's"]);
  assert.deepEqual(
    readSnapshot(snapshotOf(dir))
      ?.rows.map((r) => r.id)
      .sort(),
    ['a/one', 'a/two', "b/it's"],
  );
  const fresh = await readInFreshProcess(dir);
  assert.deepEqual(fresh, { rows: ['a/one', 'a/two', "b/it's"], lanceLoaded: false, readOnly: false });
});

test('without a snapshot the table is read (LanceDB loaded), and the writer writes the snapshot back', async (t) => {
  const dir = tempDir(t);
  await filledStore(dir, ['a/one', 'a/two']);
  writeFileSync(snapshotOf(dir), 'garbage, not a snapshot\n');
  const fresh = await readInFreshProcess(dir);
  assert.deepEqual(fresh, { rows: ['a/one', 'a/two'], lanceLoaded: true, readOnly: false });
  const again = readSnapshot(snapshotOf(dir));
  assert.deepEqual(again?.rows.map((r) => r.id).sort(), ['a/one', 'a/two'], 'rewritten when that writer closed');
  assert.deepEqual(Array.from(again!.rows[0].vector!), Array.from(row(again!.rows[0].id).vector));
});

test('a flipped byte makes the snapshot invalid, not wrong vectors', async (t) => {
  const dir = tempDir(t);
  await filledStore(dir, ['a/one']);
  const bytes = readFileSync(snapshotOf(dir));
  bytes[bytes.length - 3] ^= 0xff;
  writeFileSync(snapshotOf(dir), bytes);
  assert.equal(readSnapshot(snapshotOf(dir)), undefined);
  const store = await LanceToolStore.open({ dir, log: silentLogger });
  const rows = await store.readAll();
  assert.deepEqual(
    Array.from(rows[0].vector!),
    Array.from(row('a/one').vector),
    "the table's vector, not the damaged one",
  );
  await store.close();
});

test('the snapshot never disagrees with the table; a reader follows the writer through both', async (t) => {
  const dir = tempDir(t);
  await filledStore(dir, ['a/one', 'a/two']);
  const writer = await LanceToolStore.open({ dir, log: silentLogger });
  const reader = await LanceToolStore.open({ dir, log: silentLogger });
  t.after(async () => {
    await reader.close();
    await writer.close();
  });
  assert.equal(reader.readOnly, true);
  assert.deepEqual((await writer.readAll()).map((r) => r.id).sort(), ['a/one', 'a/two']);
  assert.deepEqual((await reader.readAll()).map((r) => r.id).sort(), ['a/one', 'a/two']);
  assert.equal(await reader.readChanged(), undefined, 'nothing committed since the last read');

  await writer.upsert([row('a/three'), row('a/one', 2)]);
  assert.equal(existsSync(snapshotOf(dir)), false, 'a commit removes the snapshot until writes go quiet');
  const changed = await reader.readChanged();
  assert.deepEqual(changed?.map((r) => r.id).sort(), ['a/one', 'a/three', 'a/two'], 'read from the table');
  assert.equal(changed?.find((r) => r.id === 'a/one')?.contentHash, 'h2');
  assert.equal(await reader.readChanged(), undefined);

  await writer.delete(['a/two']);
  await writer.close();
  assert.deepEqual(
    readSnapshot(snapshotOf(dir))
      ?.rows.map((r) => `${r.id} ${r.contentHash}`)
      .sort(),
    ['a/one h2', 'a/three h1'],
  );
  assert.deepEqual(
    (await reader.readChanged())?.map((r) => r.id).sort(),
    ['a/one', 'a/three'],
    'the new snapshot counts as a change',
  );
});
