/**
 * The gateway's stdio transport (gateway/stdioTransport.ts) reads what the SDK's
 * StdioServerTransport reads: the same messages and the same errors for the same bytes
 * (framing across chunks, CRLF, blank and garbage lines, members a strict schema refuses), it
 * closes as the SDK's does when a client overfills the read buffer, and what `take` takes never
 * reaches the Protocol.
 */
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { GatewayStdioTransport } from '../../server/src/gateway/stdioTransport';

interface Seen {
  messages: unknown[];
  errors: string[];
  closed: boolean;
}

async function feed(
  make: (stdin: PassThrough, stdout: PassThrough) => Transport,
  chunks: (string | Buffer)[],
): Promise<Seen> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const transport = make(stdin, stdout);
  const seen: Seen = { messages: [], errors: [], closed: false };
  transport.onmessage = (m) => seen.messages.push(m);
  transport.onerror = (e) => seen.errors.push(e.message.split('\n')[0]!);
  transport.onclose = () => (seen.closed = true);
  await transport.start();
  for (const chunk of chunks) stdin.write(chunk);
  // PassThrough delivers written chunks on the next ticks.
  await new Promise((r) => setImmediate(r));
  await transport.close();
  return seen;
}

const sdk = (chunks: (string | Buffer)[], max?: number) =>
  feed((i, o) => new StdioServerTransport(i, o, max === undefined ? undefined : { maxBufferSize: max }), chunks);
const ours = (chunks: (string | Buffer)[], max?: number) =>
  feed((i, o) => new GatewayStdioTransport(i, o, max), chunks);

/** The bytes of `text` in three chunks: the second cut ends inside the UTF-8 bytes of `char`. */
function splitInside(text: string, char: string): Buffer[] {
  const bytes = Buffer.from(text);
  const at = bytes.indexOf(Buffer.from(char)) + 1;
  return [bytes.subarray(0, 10), bytes.subarray(10, at), bytes.subarray(at)];
}

describe("the gateway's stdio transport reads as the SDK's does", () => {
  const request = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'call_tool', arguments: { tool_name: 'x' } },
  });
  const accented =
    JSON.stringify({
      jsonrpc: '2.0',
      id: 4,
      method: 'tools/call',
      params: { name: 'call_tool', arguments: { tool_name: 'café_tool' } },
    }) + '\n';
  const inputs: [string, (string | Buffer)[]][] = [
    ['one message', [request + '\n']],
    ['split across chunks, with a multi-byte character cut in two', splitInside(accented, 'é')],
    ['CRLF', [request + '\r\n']],
    ['two in one chunk and a partial third', [request + '\n' + request + '\n' + request.slice(0, 10)]],
    ['garbage, then a message', ['not json\n', request + '\n']],
    [
      'a member the strict schema refuses',
      [JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping', extra: 1 }) + '\n'],
    ],
    [
      'a response and a notification',
      [
        JSON.stringify({ jsonrpc: '2.0', id: 3, result: {} }) +
          '\n' +
          JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) +
          '\n',
      ],
    ],
    ['an empty line', ['\n', request + '\n']],
  ];
  for (const [name, chunks] of inputs) {
    it(name, async () => {
      // The garbage error's wording comes from JSON.parse or zod alike: compared as the SDK gives it.
      assert.deepEqual(await ours(chunks), await sdk(chunks));
    });
  }

  it('closes when a client overfills the read buffer, as the SDK does', async () => {
    const chunks = [request.slice(0, 60), 'x'.repeat(100)];
    const theirs = await sdk(chunks, 128);
    const mine = await ours(chunks, 128);
    assert.deepEqual(mine, theirs);
    assert.equal(mine.errors.length, 1);
  });

  it('hands what `take` takes to it alone', async () => {
    const stdin = new PassThrough();
    const transport = new GatewayStdioTransport(stdin, new PassThrough());
    const taken: unknown[] = [];
    const messages: unknown[] = [];
    transport.take = (value) => ((value as { id?: unknown }).id === 1 ? (taken.push(value), true) : false);
    transport.onmessage = (m) => messages.push(m);
    await transport.start();
    stdin.write(request + '\n' + JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }) + '\n');
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(taken, [JSON.parse(request)]);
    assert.deepEqual(messages, [{ jsonrpc: '2.0', id: 2, method: 'ping' }]);
    await transport.close();
  });
});
