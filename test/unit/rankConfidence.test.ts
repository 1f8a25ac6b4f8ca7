// When find_tools trusts its first hit enough to inline its schema: a relative score margin,
// the same on any score scale.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  CLOSE_SHARE,
  CONFIDENT_MARGIN,
  closeCount,
  isConfident,
  scoreMargin,
} from '../../server/src/core/rankConfidence';

test('the margin is relative: the same ranking at any scale gives the same answer', () => {
  for (const scale of [0.01, 1, 250]) {
    assert.ok(Math.abs(scoreMargin([10 * scale, 6 * scale]) - 0.4) < 1e-12);
    assert.equal(isConfident([10 * scale, 6 * scale, 5 * scale]), true);
    assert.equal(isConfident([10 * scale, 9 * scale]), false);
  }
});

test('the threshold: 25 % above the runner-up is confident, just under it is not', () => {
  assert.equal(CONFIDENT_MARGIN, 0.2);
  assert.equal(isConfident([1.25, 1]), true);
  assert.equal(isConfident([1.24, 1]), false);
  assert.equal(isConfident([1, 0.85], 0.1), true, 'the threshold can be given');
});

test('edge cases: one hit is confident; none, ties, non-positive or non-finite top scores are not', () => {
  assert.equal(isConfident([3]), true);
  assert.equal(scoreMargin([3]), 1);
  assert.equal(isConfident([]), false);
  assert.equal(isConfident([2, 2]), false);
  assert.equal(isConfident([0, 0]), false);
  assert.equal(isConfident([-1, -3]), false);
  assert.equal(isConfident([Number.NaN, 1]), false);
  assert.equal(isConfident([Infinity, 1]), false);
  // A negative runner-up counts as 0: the first hit is all the evidence there is.
  assert.equal(scoreMargin([2, -1]), 1);
});

test('close hits: the leading ones scoring at least CLOSE_SHARE of the first, on any scale', () => {
  assert.equal(CLOSE_SHARE, 0.5);
  for (const scale of [1, 0.01, 1000]) {
    assert.equal(closeCount([10 * scale, 6 * scale, 5 * scale, 4.9 * scale, 4 * scale]), 3);
    assert.equal(closeCount([10 * scale]), 1);
  }
  assert.equal(closeCount([10, 8, 3], 0.9), 1, 'the share can be given');
  assert.equal(closeCount([]), 0);
  assert.equal(closeCount([0, 0]), 0);
  assert.equal(closeCount([-1, -2]), 0);
  assert.equal(closeCount([Number.NaN, 1]), 0);
});
