/**
 * The direct calls' shortcut past the SDK's CallToolResultSchema (adapters/upstream/
 * directCalls.ts plainTextResult) takes only results the schema would give back unchanged, and
 * leaves every other shape to the schema.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { plainTextResult } from '../../server/src/adapters/upstream/directCalls';

describe('plain text results skip the schema only when it would change nothing', () => {
  it('takes text content, with or without isError, as the schema would give it back', () => {
    for (const result of [
      { content: [{ type: 'text', text: 'The sum of 1 and 2 is 3.' }] },
      { content: [] },
      {
        content: [
          { type: 'text', text: '' },
          { type: 'text', text: 'two' },
        ],
        isError: true,
      },
      { content: [{ type: 'text', text: 'x' }], isError: false },
    ]) {
      assert.equal(plainTextResult(result), result);
      assert.deepEqual(CallToolResultSchema.parse(result), result);
    }
  });

  it('leaves everything else to the schema', () => {
    const others: [string, unknown][] = [
      ['no content (the schema supplies [])', {}],
      ['structuredContent', { content: [{ type: 'text', text: 'x' }], structuredContent: { a: 1 } }],
      ['_meta', { content: [], _meta: { a: 1 } }],
      ['an unknown member (kept by the schema: ResultSchema is loose)', { content: [], extra: 1 }],
      ['isError not a boolean', { content: [], isError: 'yes' }],
      ['an image', { content: [{ type: 'image', data: 'AA==', mimeType: 'image/png' }] }],
      ['text with annotations', { content: [{ type: 'text', text: 'x', annotations: { priority: 1 } }] }],
      [
        'a text block with an unknown member (stripped by the schema)',
        { content: [{ type: 'text', text: 'x', colour: 'red' }] },
      ],
      ['text not a string', { content: [{ type: 'text', text: 3 }] }],
      ['a null block', { content: [null] }],
      ['content not an array', { content: 'text' }],
    ];
    for (const [why, result] of others) assert.equal(plainTextResult(result), undefined, why);
  });
});
