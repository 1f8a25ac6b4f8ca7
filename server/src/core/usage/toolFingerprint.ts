/**
 * What search learning keys a tool's lessons by besides its key: a hash of what the tool says
 * about itself (its description and input schema). When an upstream changes a tool's
 * description or schema, the words that led to it before may not fit any more, so what was
 * learned for it is forgotten (learnedExamples.ts). Pure: two 32-bit FNV-1a hashes over the
 * text, with the schema's keys in sorted order so a re-ordered but equal schema is the same tool.
 */
import type { CatalogTool } from '../catalog';

/**
 * A short stable hash of a tool's description and input schema (16 hex digits). The text is
 * hashed as it is made, piece by piece, never built: a catalog's first search hashes every tool,
 * and building each schema's canonical JSON would be most of a start's garbage. The hashes are
 * those of the whole text (FNV-1a folds one
 * character at a time): fingerprints kept in the learned file stay valid.
 */
export function toolFingerprint(tool: Pick<CatalogTool, 'description' | 'inputSchema'>): string {
  const h = new TwoHashes();
  h.feed(tool.description);
  h.feed('\u0000');
  feedCanonicalJson(tool.inputSchema, 0, h);
  return hex32(h.a >>> 0) + hex32(h.b >>> 0);
}

/**
 * The same hash over everything a tool says about itself that a person judges it by: title,
 * description, input and output schema, annotations. What the user allowed for a tool
 * (core/consent.ts) holds for this definition only: a server that changes what the tool says it
 * does, or drops its destructive hint, is asked about again.
 */
export function definitionFingerprint(
  tool: Pick<CatalogTool, 'title' | 'description' | 'inputSchema' | 'outputSchema' | 'annotations'>,
): string {
  const h = new TwoHashes();
  feedCanonicalJson(
    {
      title: tool.title ?? null,
      description: tool.description,
      inputSchema: tool.inputSchema,
      outputSchema: tool.outputSchema ?? null,
      annotations: tool.annotations ?? null,
    },
    0,
    h,
  );
  return hex32(h.a >>> 0) + hex32(h.b >>> 0);
}

/** Two 32-bit FNV-1a hashes (seeds 0x811c9dc5 and 0x01000193) over the text fed so far. */
class TwoHashes {
  a = 0x811c9dc5;
  b = 0x01000193;

  feed(text: string): void {
    let a = this.a;
    let b = this.b;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      a = Math.imul(a ^ c, 16777619);
      b = Math.imul(b ^ c, 16777619);
    }
    this.a = a;
    this.b = b;
  }
}

function hex32(n: number): string {
  return n.toString(16).padStart(8, '0');
}

/** Deeper levels of a schema are hashed as a marker: a hostile schema nested 100,000 deep must not overflow the stack. */
const MAX_DEPTH = 32;

/**
 * Feeds the JSON of `value` with object keys sorted, at every level (to MAX_DEPTH): an
 * undefined value is `null`, an array's hole nothing (as `[…].map(…).join(',')` writes them).
 */
function feedCanonicalJson(value: unknown, depth: number, h: TwoHashes): void {
  if (depth > MAX_DEPTH) return h.feed('"…"');
  if (Array.isArray(value)) {
    h.feed('[');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) h.feed(',');
      if (i in value) feedCanonicalJson(value[i], depth + 1, h);
    }
    return h.feed(']');
  }
  if (value && typeof value === 'object') {
    h.feed('{');
    const keys = Object.keys(value as Record<string, unknown>).sort();
    for (let i = 0; i < keys.length; i++) {
      if (i > 0) h.feed(',');
      h.feed(JSON.stringify(keys[i]));
      h.feed(':');
      feedCanonicalJson((value as Record<string, unknown>)[keys[i]!], depth + 1, h);
    }
    return h.feed('}');
  }
  h.feed(JSON.stringify(value) ?? 'null');
}
