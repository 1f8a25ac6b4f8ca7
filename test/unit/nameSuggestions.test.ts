// "Did you mean" (core/nameSuggestions.ts): the bit-parallel edit distance that makes a no-match
// answer over an organisation's 200,000 names cheap must be exactly the textbook distance, and
// the suggestions it picks the same as with the full table.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bitParallelDistance, closestNames } from '../../server/src/core/nameSuggestions';
import { seededRandom } from '../../bench/src/seededRandom';

/** The textbook Levenshtein table. */
function tableDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++)
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length]!;
}

/** Deterministic, so a failure can be replayed. */
const rng = seededRandom;

test('the bit-parallel distance equals the table for patterns of 1 to 32 characters against any length', () => {
  const random = rng(7);
  const word = (max: number, letters: string) =>
    Array.from({ length: Math.floor(random() * (max + 1)) }, () => letters[Math.floor(random() * letters.length)]).join(
      '',
    );
  for (let k = 0; k < 20000; k++) {
    const letters = k % 2 ? 'ab0' : 'abcdefghijklmnopqrstuvwxyz0123456789';
    const a = word(32, letters) || 'x';
    const b = word(48, letters);
    assert.equal(bitParallelDistance(a, b), tableDistance(a, b), `"${a}" vs "${b}"`);
  }
  assert.equal(bitParallelDistance('a'.repeat(32), 'b'.repeat(32)), 32);
  assert.equal(bitParallelDistance('getissue', ''), 8);
});

test('suggestions: close names, names with the server prefix dropped, nothing for a far name', () => {
  const names = [
    'github_create_issue',
    'github_get_issue',
    'slack_post_message',
    'everything_get-sum',
    'Memory_Store_Observations',
  ];
  assert.deepEqual(closestNames('create_isue', names), ['github_create_issue']);
  assert.deepEqual(closestNames('get_sum', names), ['everything_get-sum']);
  assert.deepEqual(
    closestNames('memory store observation plus a good deal of words', names),
    ['Memory_Store_Observations'],
    'over 32 characters: the table',
  );
  assert.deepEqual(closestNames('zzqxv', names), []);
});
