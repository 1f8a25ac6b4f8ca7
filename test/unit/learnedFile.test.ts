import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  ensureLearnedFolder,
  learnedFilePath,
  MAX_LEARNED_FILE_BYTES,
  readLearnedFile,
  setLearnedFileAside,
  writeLearnedFile,
} from '../../server/src/adapters/usage/learnedFile';
import { LEGACY_TEACHER, MAX_LEARNED_DEPTH, nestingDepth } from '../../server/src/adapters/usage/learnedFileCheck';
import type { LearnedExample } from '../../server/src/core/usage/learnedExamples';

function tempState(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-lens-learned-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const example: LearnedExample = {
  terms: ['literatur', 'protein'],
  words: ['literature', 'protein'],
  key: 'papers/search',
  server: 'papers',
  fingerprint: '0123456789abcdef',
  weight: 1,
  count: 1,
  at: 5,
  by: '00112233aabbccdd',
};

const write = (file: string, value: unknown) => writeFileSync(file, JSON.stringify(value), { mode: 0o600 });
const bad = (file: string) => (readLearnedFile(file) as { bad?: string }).bad ?? '';

test('the learned file round-trips, 0600 in a 0700 folder, with who taught each example', (t) => {
  const file = learnedFilePath(tempState(t));
  ensureLearnedFolder(file);
  writeLearnedFile(file, [example, { ...example, key: 'papers/other', shared: true }]);
  assert.equal(statSync(file).mode & 0o777, 0o600);
  assert.deepEqual(readLearnedFile(file), { examples: [example, { ...example, key: 'papers/other', shared: true }] });
});

test('one entry MCP Lens could not have written and the whole file is not trusted', (t) => {
  const file = learnedFilePath(tempState(t));
  ensureLearnedFolder(file);
  const forged: [string, unknown][] = [
    ['a weight past one past request', { ...example, weight: 50 }],
    ['a weight of zero', { ...example, weight: 0 }],
    ['no teacher', { ...example, by: undefined }],
    ['a teacher id not as recorded', { ...example, by: 'session-1' }],
    ['a field it does not write', { ...example, boost: 9 }],
    ['markup in a term', { ...example, terms: ['<img'], words: ['<img'] }],
    ['words not one per term', { ...example, words: ['literature'] }],
    ['a key of another server', { ...example, key: 'other/search' }],
    ['a time in the future', { ...example, at: Date.now() + 7 * 86_400_000 }],
    ['a fingerprint not hex', { ...example, fingerprint: 'not-hex' }],
    ['repeated terms', { ...example, terms: ['a1', 'a1'], words: ['a1', 'a1'] }],
    ['shared other than true', { ...example, shared: 'yes' }],
    ['not an object', null],
  ];
  for (const [what, entry] of forged) {
    write(file, { format: 2, examples: [example, entry] });
    assert.match(bad(file), /^its example 2 is not one MCP Lens writes: /, what);
  }
  writeFileSync(file, '{ not json', { mode: 0o600 });
  assert.equal(bad(file), 'it is not valid JSON');
  write(file, { format: 3, examples: [] });
  assert.match(bad(file), /not a format 2/);
  write(file, { format: 2, examples: Array.from({ length: 4001 }, () => example) });
  assert.match(bad(file), /holds 4001 examples, more than the 4000/);
  // A file a checkout or another user could have written (readable by others) is not ours: refused, left there.
  write(file, { format: 2, examples: [example] });
  chmodSync(file, 0o644);
  assert.match((readLearnedFile(file) as { refused: string }).refused, /mode is 644/);
  rmSync(file);
  assert.deepEqual(readLearnedFile(file), { missing: true });
});

test('too big or too deep is refused before it is parsed', (t) => {
  const file = learnedFilePath(tempState(t));
  ensureLearnedFolder(file);
  writeFileSync(file, Buffer.alloc(MAX_LEARNED_FILE_BYTES + 1, ' '), { mode: 0o600 });
  assert.match(bad(file), /larger than 4 MB/);
  const deep = 1_000_000;
  writeFileSync(file, `{"format":2,"examples":${'['.repeat(deep)}${']'.repeat(deep)}}`, { mode: 0o600 });
  assert.match(bad(file), /nests deeper than 4 levels/);
  assert.equal(nestingDepth('{"a":"[[[[[[[[[","b":[{"c":["x"]}]}', 9), 4, 'brackets inside strings do not count');
  assert.equal(nestingDepth('"\\"[[[[[["', 9), 0);
  assert.equal(nestingDepth('[[[[[[[[[[[[[[[[', MAX_LEARNED_DEPTH), MAX_LEARNED_DEPTH + 1, 'stops past the limit');
});

test('the writer never writes more than the reader reads: the oldest examples are left out', (t) => {
  const file = learnedFilePath(tempState(t));
  ensureLearnedFolder(file);
  const long = (i: number): LearnedExample => ({
    ...example,
    key: `papers/${'t'.repeat(900)}${i}`,
    terms: Array.from({ length: 24 }, (_, j) => `${'w'.repeat(36)}${String(j).padStart(2, '0')}`),
    words: Array.from({ length: 24 }, (_, j) => `${'w'.repeat(36)}${String(j).padStart(2, '0')}`),
    at: i,
  });
  writeLearnedFile(
    file,
    Array.from({ length: 4000 }, (_, i) => long(i)),
  );
  assert.ok(statSync(file).size <= MAX_LEARNED_FILE_BYTES);
  const read = readLearnedFile(file) as { examples: LearnedExample[] };
  assert.ok(read.examples.length > 1000 && read.examples.length < 4000, String(read.examples.length));
  assert.equal(read.examples.at(-1)!.at, 3999, 'the newest are kept');
});

test('a format 1 file (before provenance) is read as taught by one earlier teacher, weights as one request', (t) => {
  const file = learnedFilePath(tempState(t));
  ensureLearnedFolder(file);
  const { words: _w, by: _b, ...old } = example;
  write(file, { format: 1, examples: [{ ...old, weight: 3 }] });
  assert.deepEqual(readLearnedFile(file), {
    examples: [{ ...old, weight: 1, words: old.terms, by: LEGACY_TEACHER }],
  });
  write(file, { format: 1, examples: [{ ...old, weight: 5 }] });
  assert.match(bad(file), /weight is not a number from -4 to 4/);
});

test('a format 1 file with its spellings (term → word as typed) reads them into its examples; a bad one is not trusted', (t) => {
  const file = learnedFilePath(tempState(t));
  ensureLearnedFolder(file);
  const { words: _w, by: _b, ...old } = example;
  write(file, { format: 1, examples: [old], spellings: { literatur: 'literature' } });
  assert.deepEqual(readLearnedFile(file), {
    examples: [{ ...old, words: ['literature', 'protein'], by: LEGACY_TEACHER }],
  });
  const forged: [string, unknown][] = [
    ['not one word', { literatur: 'two words' }],
    ['markup', { literatur: '<img' }],
    ['not a string', { literatur: 7 }],
    ['too long', { literatur: 'y'.repeat(41) }],
    ['a term no example holds', { fold: 'folding' }],
    ['not an object', ['literature']],
  ];
  for (const [what, spellings] of forged) {
    write(file, { format: 1, examples: [old], spellings });
    assert.match(bad(file), /^its spellings are not what MCP Lens writes: /, what);
  }
  write(file, { format: 2, examples: [example], spellings: {} });
  assert.match(bad(file), /format 2 file keeps in its examples/);
});

test('a file set aside is renamed beside it, never deleted; only the latest three are kept', (t) => {
  const file = learnedFilePath(tempState(t));
  ensureLearnedFolder(file);
  for (let i = 0; i < 5; i++) {
    writeFileSync(file, `{ not json ${i}`, { mode: 0o600 });
    const read = readLearnedFile(file) as { bad: string; stamp: string };
    const moved = setLearnedFileAside(file, read.stamp, Date.UTC(2030, 0, 1, 0, 0, i))!;
    assert.equal(existsSync(file), false);
    assert.equal(readFileSync(moved.to, 'utf8'), `{ not json ${i}`);
    assert.equal(moved.removed.length, i >= 3 ? 1 : 0);
  }
  assert.deepEqual(
    readdirSync(dirname(file))
      .filter((n) => n.includes('set-aside'))
      .map((n) => readFileSync(join(dirname(file), n), 'utf8')),
    ['{ not json 2', '{ not json 3', '{ not json 4'],
  );
  // A file replaced since it was read is not the one to move.
  writeFileSync(file, '{ not json', { mode: 0o600 });
  const read = readLearnedFile(file) as { stamp: string };
  write(file, { format: 2, examples: [example, example] });
  assert.equal(setLearnedFileAside(file, read.stamp), undefined);
  assert.equal(existsSync(file), true);
});
