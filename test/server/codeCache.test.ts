// The V8 code cache `mcp-lens` runs its bundle from (adapters/codeCache.ts), in child processes
// (the cache is made as a process exits): made once, then used; the bundle sees its own
// module, requires and folder either way; the cache is the user's private file (0600 in a
// 0700 folder), and one that is not (a link, readable by others) is never read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const RUN = join(__dirname, '..', 'fixtures', 'codeCache', 'run.ts');

function run(dir: string): { fitted: boolean; seen: unknown } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', RUN, dir], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const [seen, fitted] = r.stdout.trim().split('\n');
  return { fitted: fitted === 'fitted=true', seen: JSON.parse(seen!) };
}

const SEEN = { file: 'bundle.cjs', dir: 'codeCache', beside: 'beside', main: 'object' };

test('the bundle runs from a code cache made at the first exit, and sees the same module either way', (t) => {
  const home = mkdtempSync(join(tmpdir(), 'mcp-lens-code-cache-'));
  t.after(() => rmSync(home, { recursive: true, force: true }));
  const dir = join(home, 'mcp-lens', 'code-cache');
  assert.deepEqual(run(dir), { fitted: false, seen: SEEN });
  const files = readdirSync(dir);
  assert.equal(files.length, 1);
  assert.equal(statSync(dir).mode & 0o777, 0o700);
  assert.equal(statSync(join(dir, files[0]!)).mode & 0o777, 0o600);
  assert.deepEqual(run(dir), { fitted: true, seen: SEEN });
});

test('a code cache that is not the user private file is not read: readable by others, or a link', (t) => {
  const home = mkdtempSync(join(tmpdir(), 'mcp-lens-code-cache-'));
  t.after(() => rmSync(home, { recursive: true, force: true }));
  const dir = join(home, 'code-cache');
  run(dir);
  const file = join(dir, readdirSync(dir)[0]!);
  const good = readFileSync(file);

  chmodSync(file, 0o644);
  assert.deepEqual(run(dir), { fitted: false, seen: SEEN });
  // Made again at exit, as the user's private file.
  assert.equal(statSync(file).mode & 0o777, 0o600);
  assert.deepEqual(run(dir), { fitted: true, seen: SEEN });

  const elsewhere = join(home, 'elsewhere.v8cache');
  writeFileSync(elsewhere, good, { mode: 0o600 });
  rmSync(file);
  symlinkSync(elsewhere, file);
  assert.deepEqual(run(dir), { fitted: false, seen: SEEN });
  assert.deepEqual(readFileSync(elsewhere), good, 'the link target is left alone');
  // A folder that is a link is refused too: the bundle still runs, without a cache.
  rmSync(dir, { recursive: true });
  renameSync(join(home, 'elsewhere.v8cache'), join(home, 'kept.v8cache'));
  symlinkSync(home, dir);
  assert.deepEqual(run(dir), { fitted: false, seen: SEEN });
});
