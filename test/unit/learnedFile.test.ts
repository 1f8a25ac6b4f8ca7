import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ensureLearnedFolder,
  learnedFilePath,
  readLearnedFile,
  writeLearnedFile,
} from '../../server/src/adapters/usage/learnedFile';
import type { LearnedExample } from '../../server/src/core/usage/learnedExamples';

function tempState(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-lens-learned-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const example: LearnedExample = {
  terms: ['literatur', 'protein'],
  key: 'papers/search',
  server: 'papers',
  fingerprint: '0123456789abcdef',
  weight: 1,
  count: 1,
  at: 5,
};

test('the learned file round-trips, 0600 in a 0700 folder', (t) => {
  const file = learnedFilePath(tempState(t));
  ensureLearnedFolder(file);
  const spellings = { literatur: 'literature', protein: 'proteins' };
  writeLearnedFile(file, [example], spellings);
  assert.equal(statSync(file).mode & 0o777, 0o600);
  assert.deepEqual(readLearnedFile(file), { examples: [example], dropped: 0, spellings });
});

test('a spelling that is not one word is left out: its term shows as it is', (t) => {
  const file = learnedFilePath(tempState(t));
  ensureLearnedFolder(file);
  const spellings = { literatur: 'literature', protein: 'two words', fold: 7, x: 'y'.repeat(500) };
  writeFileSync(file, JSON.stringify({ format: 1, examples: [example], spellings }), { mode: 0o600 });
  assert.deepEqual(readLearnedFile(file), { examples: [example], dropped: 0, spellings: { literatur: 'literature' } });
  // A file written before spellings were kept reads as one without any.
  writeFileSync(file, JSON.stringify({ format: 1, examples: [example] }), { mode: 0o600 });
  assert.deepEqual(readLearnedFile(file), { examples: [example], dropped: 0, spellings: {} });
});

test('damaged entries are dropped one by one; a file not ours is refused whole', (t) => {
  const file = learnedFilePath(tempState(t));
  ensureLearnedFolder(file);
  const bad = [
    { ...example, fingerprint: 'not-hex' },
    { ...example, terms: [] },
    { ...example, terms: ['x'.repeat(500)] },
    { ...example, weight: 'heavy' },
    { ...example, key: '' },
    null,
  ];
  writeFileSync(file, JSON.stringify({ format: 1, examples: [example, ...bad] }), { mode: 0o600 });
  assert.deepEqual(readLearnedFile(file), { examples: [example], dropped: bad.length, spellings: {} });
  writeFileSync(file, '{ not json', { mode: 0o600 });
  assert.deepEqual(readLearnedFile(file), { refused: 'it is not valid JSON' });
  writeFileSync(file, JSON.stringify({ format: 2, examples: [] }), { mode: 0o600 });
  assert.match((readLearnedFile(file) as { refused: string }).refused, /not a format 1/);
  // A file a checkout or another user could have written (readable by others) is not ours.
  writeFileSync(file, JSON.stringify({ format: 1, examples: [example] }));
  chmodSync(file, 0o644);
  assert.match((readLearnedFile(file) as { refused: string }).refused, /mode is 644/);
  rmSync(file);
  assert.deepEqual(readLearnedFile(file), { missing: true });
});
