import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { schemaSignature, toolSignature } from '../../server/src/core/schemaSignature';

describe('schemaSignature', () => {
  const cases: [string, unknown, string][] = [
    ['no schema', undefined, 'unknown'],
    ['no arguments', { type: 'object', properties: {} }, '{}'],
    [
      'a nested object with no properties',
      { type: 'object', properties: { opts: { type: 'object' } } },
      '{ opts?: object }',
    ],
    [
      'required and optional',
      { type: 'object', properties: { path: { type: 'string' }, head: { type: 'integer' } }, required: ['path'] },
      '{ path: string; head?: number }',
    ],
    [
      'enum of strings',
      { type: 'object', properties: { mode: { enum: ['a', 'b'] } }, required: ['mode'] },
      '{ mode: "a" | "b" }',
    ],
    ['const', { const: 42 }, '42'],
    ['type array with null', { type: ['string', 'null'] }, 'string | null'],
    ['OpenAPI nullable', { type: 'number', nullable: true }, 'number | null'],
    [
      'array of objects',
      { type: 'array', items: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } },
      '{ id: string }[]',
    ],
    [
      'array of a union',
      { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'number' }] } },
      '(string | number)[]',
    ],
    ['tuple', { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }] }, '[string, number]'],
    ['record', { type: 'object', additionalProperties: { type: 'string' } }, '{ [key: string]: string }'],
    [
      'oneOf',
      { oneOf: [{ type: 'string' }, { type: 'object', properties: { x: { type: 'number' } } }] },
      'string | { x?: number }',
    ],
    [
      'allOf',
      {
        allOf: [
          { type: 'object', properties: { a: { type: 'string' } } },
          { type: 'object', properties: { b: { type: 'string' } } },
        ],
      },
      '{ a?: string } & { b?: string }',
    ],
    [
      'odd property names are quoted',
      { type: 'object', properties: { 'my-key': { type: 'boolean' }, '1st': { type: 'string' } } },
      '{ "my-key"?: boolean; "1st"?: string }',
    ],
    [
      'untyped property',
      { type: 'object', properties: { anything: {} }, required: ['anything'] },
      '{ anything: unknown }',
    ],
    ['object without type keyword', { properties: { q: { type: 'string' } }, required: ['q'] }, '{ q: string }'],
  ];
  for (const [name, schema, expected] of cases) {
    test(name, () => assert.equal(schemaSignature(schema), expected));
  }

  test('local $refs resolve; a recursive one is named instead of expanded forever', () => {
    const schema = {
      type: 'object',
      properties: { root: { $ref: '#/$defs/Node' }, legacy: { $ref: '#/definitions/Leaf' } },
      required: ['root'],
      $defs: {
        Node: {
          type: 'object',
          properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/Node' } } },
          required: ['name'],
        },
      },
      definitions: { Leaf: { type: 'string' } },
    };
    assert.equal(schemaSignature(schema), '{ root: { name: string; children?: Node[] }; legacy?: string }');
  });

  test('descriptions and defaults become short, closed comments when asked', () => {
    const schema = {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'File to read.\nAbsolute */ or relative\u202e' },
        head: { type: 'number', description: 'First N lines of a very long file that keeps on going', default: 10 },
      },
      required: ['path'],
    };
    assert.equal(schemaSignature(schema), '{ path: string; head?: number }');
    const withDocs = schemaSignature(schema, { descriptions: 30 });
    assert.equal(
      withDocs,
      '{ path: string /* File to read. Absolute * / or… */; head?: number /* First N lines of a very long…; default 10 */ }',
    );
  });

  test('enum strings and names from a hostile schema cannot break out of the type', () => {
    const schema = { type: 'object', properties: { 'a"; b: c': { enum: ['x" | y', 'line\nbreak'] } } };
    const sig = schemaSignature(schema);
    assert.equal(sig, '{ "a\\"; b: c"?: "x\\" | y" | "line break" }');
  });

  test('deep or huge schemas collapse from the bottom until they fit', () => {
    const deep = {
      type: 'object',
      properties: {
        a: {
          type: 'object',
          properties: {
            b: {
              type: 'object',
              properties: {
                c: { type: 'object', properties: { d: { type: 'object', properties: { e: { type: 'string' } } } } },
              },
            },
          },
        },
      },
    };
    assert.equal(schemaSignature(deep), '{ a?: { b?: { c?: { d?: object } } } }');
    const wide = {
      type: 'object',
      properties: Object.fromEntries(
        Array.from({ length: 200 }, (_, i) => [`p${i}`, { type: 'object', properties: { x: { type: 'string' } } }]),
      ),
    };
    const sig = schemaSignature(wide, { maxLength: 2000 });
    assert.ok(sig.startsWith('{ p0?: object; p1?: object;'), sig.slice(0, 60));
  });

  test('deterministic: same schema, same bytes', () => {
    const schema = { type: 'object', properties: { b: { type: 'string' }, a: { type: 'number' } }, required: ['a'] };
    assert.equal(schemaSignature(schema), schemaSignature(JSON.parse(JSON.stringify(schema))));
  });

  test('toolSignature names the call and its result type', () => {
    const input = {
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
    };
    assert.equal(
      toolSignature('everything_get-sum', input),
      'everything_get-sum(args: { a: number; b: number }): Promise<unknown>',
    );
    const output = { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] };
    assert.equal(toolSignature('add', input, output), 'add(args: { a: number; b: number }): Promise<{ sum: number }>');
  });
});
