/**
 * The one rule for which tools/call requests the stdio front door answers itself
 * (gateway/directToolCalls.ts `direct`): call_tool with plain arguments and nothing the SDK's
 * Protocol must handle (a progress token, a task, a related task, members its strict schema
 * refuses). Everything else goes to the SDK, which answers or refuses it as before.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { direct } from '../../server/src/gateway/directToolCalls';

const call = (params: unknown, extra: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id: 7,
  method: 'tools/call',
  params,
  ...extra,
});
const args = { tool_name: 'everything_get-sum', arguments: { a: 1, b: 2 } };

describe('which tools/call requests take the direct path', () => {
  it('takes call_tool with or without arguments, string or integer ids, and _meta without a progress token', () => {
    for (const message of [
      call({ name: 'call_tool', arguments: args }),
      call({ name: 'call_tool' }),
      { ...call({ name: 'call_tool', arguments: args }), id: 'abc' },
      call({ name: 'call_tool', arguments: args, _meta: { 'example.com/trace': 'x' } }),
    ]) {
      assert.deepEqual(direct(message), message.params, JSON.stringify(message));
    }
  });

  it('leaves everything else to the SDK', () => {
    const cases: [string, Record<string, unknown>][] = [
      ['another meta-tool', call({ name: 'find_tools', arguments: { query: 'x' } })],
      ['a direct tool (pinned, all)', call({ name: 'everything_get-sum', arguments: { a: 1, b: 2 } })],
      ['another method', { ...call({ name: 'call_tool' }), method: 'tools/list' }],
      ['a progress token', call({ name: 'call_tool', arguments: args, _meta: { progressToken: 1 } })],
      [
        'a related task',
        call({
          name: 'call_tool',
          arguments: args,
          _meta: { 'io.modelcontextprotocol/related-task': { taskId: 't' } },
        }),
      ],
      ['a task', call({ name: 'call_tool', arguments: args, task: { ttl: 1000 } })],
      ['arguments not an object', call({ name: 'call_tool', arguments: [1, 2] })],
      ['null arguments', call({ name: 'call_tool', arguments: null })],
      ['_meta not an object', call({ name: 'call_tool', arguments: args, _meta: 'x' })],
      ['no params', call(undefined)],
      ['params an array', call([])],
      ['a fractional id', { ...call({ name: 'call_tool' }), id: 1.5 }],
      ['a null id (a notification-like request)', { ...call({ name: 'call_tool' }), id: null }],
      ['no id', { jsonrpc: '2.0', method: 'tools/call', params: { name: 'call_tool' } }],
      ['an old jsonrpc', { ...call({ name: 'call_tool' }), jsonrpc: '1.0' }],
      ['a member the strict schema refuses', call({ name: 'call_tool' }, { extra: true })],
    ];
    for (const [why, message] of cases) assert.equal(direct(message), undefined, why);
  });
});
