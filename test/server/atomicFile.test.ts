// Whole-file replacement (adapters/atomicFile.ts) on a real temp folder: the new bytes and
// mode, a link at the target replaced and never written through, no temp file left on
// failure, and Windows' transient rename failures retried.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RENAME_RETRY_DELAYS_MS, renameWithRetry, writeFileAtomic } from '../../server/src/adapters/atomicFile';
import { readPrivateFile, writePrivateFile, PrivateFileError } from '../../server/src/adapters/privateFiles';

function tempDir(t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-lens-atomic-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('replaces the file whole, with the mode asked for, and leaves nothing beside it', (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'state.json');
  writeFileSync(file, 'old');
  writeFileAtomic(file, 'new text', 0o600);
  assert.equal(readFileSync(file, 'utf8'), 'new text');
  if (process.platform !== 'win32') assert.equal(lstatSync(file).mode & 0o777, 0o600);
  writeFileAtomic(file, Uint8Array.from([1, 2, 3]));
  assert.deepEqual([...readFileSync(file)], [1, 2, 3]);
  assert.deepEqual(readdirSync(dir), ['state.json']);
});

test(
  'a link at the target is replaced by a file, never written through',
  { skip: process.platform === 'win32' },
  (t) => {
    const dir = tempDir(t);
    const outside = join(dir, 'outside.txt');
    writeFileSync(outside, 'keep me');
    const file = join(dir, 'state.json');
    symlinkSync(outside, file);
    writeFileAtomic(file, 'ours', 0o600);
    assert.ok(lstatSync(file).isFile());
    assert.equal(readFileSync(file, 'utf8'), 'ours');
    assert.equal(readFileSync(outside, 'utf8'), 'keep me');
  },
);

test(
  'writePrivateFile still refuses a link first (the user hears of it) and writes 0600',
  { skip: process.platform === 'win32' },
  (t) => {
    const dir = tempDir(t);
    const outside = join(dir, 'outside.txt');
    writeFileSync(outside, 'keep me');
    const link = join(dir, 'approvals.json');
    symlinkSync(outside, link);
    assert.throws(() => writePrivateFile(link, 'x'), PrivateFileError);
    assert.equal(readFileSync(outside, 'utf8'), 'keep me');
    const file = join(dir, 'cache.json');
    writePrivateFile(file, '{"a":1}');
    assert.deepEqual(readPrivateFile(file), { text: '{"a":1}' });
  },
);

test('a failed write throws and leaves no temp file', (t) => {
  const dir = tempDir(t);
  // A folder where the file should be: the rename fails (EISDIR or EPERM), whoever runs it.
  const target = join(dir, 'taken');
  mkdirSync(join(target, 'child'), { recursive: true });
  assert.throws(() => writeFileAtomic(target, 'x', 0o600));
  assert.deepEqual(readdirSync(dir), ['taken']);
  assert.throws(() => writeFileAtomic(join(dir, 'missing-folder', 'f'), 'x'), { code: 'ENOENT' });
});

function failing(codes: string[]): { rename: (a: string, b: string) => void; calls: () => number } {
  let n = 0;
  return {
    rename: () => {
      const code = codes[n++];
      if (code) throw Object.assign(new Error(`${code}: rename`), { code });
    },
    calls: () => n,
  };
}

test('Windows: EPERM, EACCES and EBUSY on rename are retried until it succeeds', () => {
  const r = failing(['EPERM', 'EBUSY', 'EACCES']);
  renameWithRetry('a', 'b', r.rename, 'win32');
  assert.equal(r.calls(), 4);
});

test('Windows: a rename that keeps failing gives up after the retries, with its own error', () => {
  const r = failing(Array(RENAME_RETRY_DELAYS_MS.length + 5).fill('EPERM'));
  assert.throws(() => renameWithRetry('a', 'b', r.rename, 'win32'), { code: 'EPERM' });
  assert.equal(r.calls(), RENAME_RETRY_DELAYS_MS.length + 1);
});

test('elsewhere, and for other errors, a failed rename is final', () => {
  const linux = failing(['EPERM']);
  assert.throws(() => renameWithRetry('a', 'b', linux.rename, 'linux'), { code: 'EPERM' });
  assert.equal(linux.calls(), 1);
  const other = failing(['ENOENT']);
  assert.throws(() => renameWithRetry('a', 'b', other.rename, 'win32'), { code: 'ENOENT' });
  assert.equal(other.calls(), 1);
});
