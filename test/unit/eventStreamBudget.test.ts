import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  EventStreamBudget,
  MAX_MESSAGE_BYTES,
  SSE_WINDOW_BYTES,
  SSE_WINDOW_MS,
} from '../../server/src/adapters/upstream/boundedFetch';

const bytes = (s: string) => new TextEncoder().encode(s);
const MB = 1024 * 1024;

test('an event ends at a blank line, whichever line ending the server uses', () => {
  for (const end of ['\n', '\r\n', '\r']) {
    const budget = new EventStreamBudget();
    const event = `event: message${end}data: ${'x'.repeat(6 * MB)}${end}${end}`;
    // Two 6 MB events: each is under the limit, together they are over it.
    assert.equal(budget.add(bytes(event), 0), undefined, JSON.stringify(end));
    assert.equal(budget.add(bytes(event), 0), undefined, JSON.stringify(end));
  }
});

test('a CRLF split across chunks is one line ending, and a lone line ending does not end an event', () => {
  const budget = new EventStreamBudget();
  assert.equal(budget.add(bytes(`data: ${'x'.repeat(6 * MB)}\r`), 0), undefined);
  assert.equal(
    budget.add(bytes(`\ndata: ${'y'.repeat(5 * MB)}\r\n`), 0),
    'sent an event of more than 10 MB, the limit for one message',
  );
});

/** `count` copies of a small event in one chunk. */
function events(count: number): Uint8Array {
  const event = bytes(`data: ${'x'.repeat(1000)}\n\n`);
  const out = new Uint8Array(count * event.length);
  for (let i = 0; i < count; i++) out.set(event, i * event.length);
  return out;
}

test("many small events over hours pass; more than the window's bytes at once do not", () => {
  const busy = events(100);
  const slow = new EventStreamBudget();
  // A hundred events every window, for an hour.
  for (let now = 0; now < 3600_000; now += SSE_WINDOW_MS) assert.equal(slow.add(busy, now), undefined);
  const fast = new EventStreamBudget();
  const full = events(Math.floor(SSE_WINDOW_BYTES / busy.length) * 100);
  assert.equal(fast.add(full, 0), undefined);
  assert.equal(fast.add(busy, SSE_WINDOW_MS - 1), 'streamed more than 100 MB in 10 s, the limit for an event stream');
  assert.equal(fast.add(busy, SSE_WINDOW_MS), undefined, 'a new window');
  assert.equal(MAX_MESSAGE_BYTES, 10 * MB);
});
