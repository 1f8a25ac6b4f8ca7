// Search learning's tool fingerprints (core/usage/toolFingerprint.ts) are kept in the learned
// file: hashing the text piece by piece must give exactly what hashing the whole text gave, or
// every user's learned requests would be forgotten at the next start. The reference below is
// the definition the kept fingerprints were made with.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { toolFingerprint } from '../../server/src/core/usage/toolFingerprint';
import { recordedCatalogFile } from '../../bench/src/benchFiles';

function referenceFingerprint(tool: { description: string; inputSchema: unknown }): string {
  const fnv1a = (text: string, seed: number) => {
    let h = seed >>> 0;
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
    return h >>> 0;
  };
  const canonicalJson = (value: unknown, depth = 0): string => {
    if (depth > 32) return '"…"';
    if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v, depth + 1)).join(',')}]`;
    if (value && typeof value === 'object') {
      const entries = Object.keys(value as Record<string, unknown>)
        .sort()
        .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k], depth + 1)}`);
      return `{${entries.join(',')}}`;
    }
    return JSON.stringify(value) ?? 'null';
  };
  const text = `${tool.description}\u0000${canonicalJson(tool.inputSchema)}`;
  const hex = (n: number) => n.toString(16).padStart(8, '0');
  return hex(fnv1a(text, 0x811c9dc5)) + hex(fnv1a(text, 0x01000193));
}

test('every tool of the recorded 19-server catalog keeps the fingerprint the whole text gave', () => {
  const raw = JSON.parse(readFileSync(recordedCatalogFile(), 'utf8')) as {
    servers: Record<string, { tools: { description?: string; inputSchema: unknown }[] }>;
  };
  const tools = Object.values(raw.servers).flatMap((s) =>
    s.tools.map((t) => ({ description: t.description ?? '', inputSchema: t.inputSchema })),
  );
  assert.ok(tools.length > 300);
  for (const t of tools) assert.equal(toolFingerprint(t as never), referenceFingerprint(t));
});

test('odd schemas too: undefined values, holes, deep nesting past the cut, non-ASCII text', () => {
  let deep: unknown = { type: 'string' };
  for (let i = 0; i < 40; i++) deep = { properties: { x: deep }, items: [deep] };
  const odd = [
    { description: '', inputSchema: {} },
    {
      description: 'Ünïcödé — 工具 🙂',
      inputSchema: { type: 'object', properties: { 'ä"b': { enum: ['x', null, 1.5, true] } } },
    },
    { description: 'undefined', inputSchema: { a: undefined, b: [undefined, 1] } },
    // eslint-disable-next-line no-sparse-arrays
    { description: 'holes', inputSchema: { a: [, 1], b: [1, ,], c: new Array(3) } },
    { description: 'deep', inputSchema: deep },
  ];
  for (const t of odd) assert.equal(toolFingerprint(t as never), referenceFingerprint(t), t.description);
});
