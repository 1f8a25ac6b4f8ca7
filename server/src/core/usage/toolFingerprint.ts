/**
 * What search learning keys a tool's lessons by besides its key: a hash of what the tool says
 * about itself (its description and input schema). When an upstream changes a tool's
 * description or schema, the words that used to lead to it may no longer fit, so what was
 * learned for it is forgotten (learnedExamples.ts). Pure: two 32-bit FNV-1a hashes over the
 * text, with the schema's keys in sorted order so a re-ordered but equal schema is the same tool.
 */
import type { CatalogTool } from '../catalog';

/** A short stable hash of a tool's description and input schema (16 hex digits). */
export function toolFingerprint(tool: Pick<CatalogTool, 'description' | 'inputSchema'>): string {
  const text = `${tool.description}\u0000${canonicalJson(tool.inputSchema)}`;
  return hex32(fnv1a(text, 0x811c9dc5)) + hex32(fnv1a(text, 0x01000193));
}

function fnv1a(text: string, seed: number): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

function hex32(n: number): string {
  return n.toString(16).padStart(8, '0');
}

/** Deeper levels of a schema are hashed as a marker: a hostile schema nested 100,000 deep must not overflow the stack. */
const MAX_DEPTH = 32;

/** JSON with object keys sorted, at every level (to MAX_DEPTH). */
function canonicalJson(value: unknown, depth = 0): string {
  if (depth > MAX_DEPTH) return '"…"';
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v, depth + 1)).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value as Record<string, unknown>)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k], depth + 1)}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
