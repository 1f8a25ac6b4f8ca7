// The stdio reader (adapters/upstream/stdioReader.ts) on bytes alone, no process: lines within
// the limit become messages; a line over it is skipped and names the request it answered,
// wherever its id is, however the bytes are cut into chunks; when it cannot be read, only the
// requests sent before its first byte came fail.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import {
  OversizedMessageError,
  StdioReader,
  TopLevelScan,
  type DroppedMessage,
} from '../../server/src/adapters/upstream/stdioReader';

const LIMIT = 200;

function reader(limit = LIMIT) {
  const messages: JSONRPCMessage[] = [];
  const errors: Error[] = [];
  const dropped: DroppedMessage[] = [];
  const r = new StdioReader(
    { message: (m) => messages.push(m), error: (e) => errors.push(e), oversized: (d) => dropped.push(d) },
    limit,
  );
  const request = (id: number) => r.sent({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 't' } });
  return { r, messages, errors, dropped, request };
}

const big = (n = 1000) => 'x'.repeat(n);
/** A response as the TypeScript SDK writes it (id last) and as others do (id first). */
const sdkResponse = (id: number | string, text = big()) =>
  JSON.stringify({ result: { content: [{ type: 'text', text }] }, jsonrpc: '2.0', id });
const idFirstResponse = (id: number | string, text = big()) =>
  JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }] } });
const pong = (id: number) =>
  JSON.stringify({ result: { content: [{ type: 'text', text: 'pong' }] }, jsonrpc: '2.0', id });

/** Feeds `text` to the reader in pieces of `size` bytes. */
function feed(r: StdioReader, text: string, size = Infinity): void {
  const bytes = Buffer.from(text);
  for (let i = 0; i < bytes.length; i += size) r.push(bytes.subarray(i, Math.min(bytes.length, i + size)));
}

for (const size of [Infinity, 64, 7, 1]) {
  test(`an oversized response fails only the request it answers, id last or first (chunks of ${size} bytes)`, () => {
    const { r, messages, dropped, request } = reader();
    request(1);
    request(2);
    request(3);
    feed(r, `${sdkResponse(2)}\n${pong(1)}\n${idFirstResponse('3')}\n${pong(3)}\n`, size);
    assert.deepEqual(
      dropped.map((d) => [d.kind, d.failed]),
      [
        ['response', [2]],
        ['response', [3]],
      ],
    );
    assert.equal(dropped[0]!.bytes, Buffer.byteLength(sdkResponse(2)));
    // The stream is in step after each skipped line: the messages behind them are read.
    assert.deepEqual(
      messages.map((m) => ('id' in m ? m.id : undefined)),
      [1, 3],
    );
  });
}

test('a message exactly at the limit is read; one byte more is dropped; a \\r\\n line ending is fine', () => {
  const { r, messages, dropped, request } = reader();
  request(1);
  request(2);
  const exact = sdkResponse(1, big(LIMIT - sdkResponse(1, '').length));
  assert.equal(exact.length, LIMIT);
  request(3);
  feed(r, `${exact}\n${sdkResponse(2, big(LIMIT - sdkResponse(2, '').length + 1))}\n${pong(3)}\r\n`);
  assert.deepEqual(
    messages.map((m) => ('id' in m ? m.id : undefined)),
    [1, 3],
  );
  assert.deepEqual(
    dropped.map((d) => d.failed),
    [[2]],
  );
});

test('the reply to a request that already ended (timed out, cancelled) fails nothing', () => {
  const { r, dropped, request } = reader();
  request(1);
  request(2);
  r.sent({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'timed out' } });
  feed(r, `${sdkResponse(1)}\n`);
  assert.deepEqual(
    dropped.map((d) => [d.kind, d.failed]),
    [['response', []]],
  );
  // A later unreadable line cannot blame 1 either: it was cancelled.
  feed(r, `{"result": ${big()}\n`);
  assert.deepEqual(dropped[1]!.failed, [2]);
});

test('an unreadable oversized line fails only the requests sent before its first byte came', () => {
  const { r, dropped, request, messages } = reader();
  request(1);
  request(2);
  feed(r, `${pong(1)}\n{"result":{"content":"${big(100)}`); // the line begins with the chunk that answered 1
  request(3); // sent after: cannot be the one it answers
  feed(r, `${big()}"}}\n`); // no id at all
  assert.deepEqual(
    messages.map((m) => ('id' in m ? m.id : undefined)),
    [1],
  );
  assert.deepEqual(
    dropped.map((d) => [d.kind, d.failed]),
    [['unreadable', [2]]],
  );
  // 3 still waits for its own answer, which is read as usual.
  feed(r, `${pong(3)}\n`);
  assert.deepEqual(
    messages.map((m) => ('id' in m ? m.id : undefined)),
    [1, 3],
  );
  // The failed call is told it may not be its answer.
  assert.match(
    new OversizedMessageError(dropped[0]!).reason,
    /^the server sent a 0\.0 MB message, larger than MCP Lens's 10 MB limit for one message, while this call was waiting \(which call it answered could not be read\), so it was dropped/,
  );
});

test('oversized notifications fail nothing; an oversized request from the server is to be answered', () => {
  const { r, dropped, request } = reader();
  request(1);
  feed(r, `${JSON.stringify({ method: 'notifications/message', params: { data: big() }, jsonrpc: '2.0' })}\n`);
  feed(
    r,
    `${JSON.stringify({ method: 'sampling/createMessage', params: { messages: [big()] }, jsonrpc: '2.0', id: 7 })}\n`,
  );
  assert.deepEqual(
    dropped.map((d) => [d.kind, d.failed, d.serverRequestId]),
    [
      ['notification', [], undefined],
      ['request', [], 7],
    ],
  );
});

test('garbage lines are errors and reading goes on; blank lines are skipped', () => {
  const { r, messages, errors, request } = reader();
  request(1);
  feed(r, `not json\n\n${pong(1)}\n`);
  assert.equal(errors.length, 1);
  assert.equal(messages.length, 1);
});

test('TopLevelScan finds the top-level id past nested ids, escaped quotes and unicode', () => {
  const scan = (text: string) => {
    const s = new TopLevelScan();
    const bytes = Buffer.from(text);
    for (let i = 0; i < bytes.length; i += 3) s.feed(bytes, i, Math.min(bytes.length, i + 3));
    return s.result();
  };
  const tricky = JSON.stringify({
    result: { id: 99, text: '"id":5 \\"id\\": 6 é 名前 }', items: [{ id: 4 }, [1, { id: 'x' }]] },
    jsonrpc: '2.0',
    id: 3,
  });
  assert.deepEqual(scan(tricky), { id: 3, method: false, answer: true });
  assert.deepEqual(scan(`  {"jsonrpc" : "2.0" , "id" : "a\\"b" , "error" : {"code":1,"message":"m"} }  `), {
    id: 'a"b',
    method: false,
    answer: true,
  });
  assert.deepEqual(scan('{"jsonrpc":"2.0","method":"x","params":{"id":1}}'), { method: true, answer: false });
  // Not one complete object, or an id that is none of ours: undefined (the caller falls back).
  for (const bad of [
    '[{"id":1,"result":{}}]',
    '{"id":1,"result":{}',
    '{"id":1,"result":{}} x',
    '{"id":null,"error":{}}',
    '{"id":1.5,"result":1}',
    `{"id":"${big(300)}","result":1}`,
  ]) {
    assert.equal(scan(bad), undefined, bad.slice(0, 40));
  }
});
