/**
 * Compact TypeScript-style signatures from JSON Schema: `{ path: string; head?: number }`
 * instead of the 150-token schema object, so an agent can write a call (or a run_code
 * script) from a search hit alone. Pure and deterministic: the same schema always gives the
 * same text, byte for byte (prompt caches stay warm).
 *
 * What it keeps: types, required vs optional (`?`), enums and consts as literal unions,
 * nullability, arrays and tuples, records (`additionalProperties`), unions (anyOf/oneOf),
 * intersections (allOf) and local `$ref`s (`#/$defs/X`, `#/definitions/X`). What it drops:
 * formats, patterns, bounds. Descriptions and defaults come as short comments when asked.
 * Schemas are third-party text: names are quoted when not plain identifiers, and comments
 * cannot close early or carry control characters.
 */
import { oneLine } from '../../../protocol/untrustedText';

export interface SignatureOptions {
  /** Longest description kept per property, in characters (0, the default: none). */
  descriptions?: number;
  /** Nesting depth rendered in full; deeper objects become `object` (default 4). */
  maxDepth?: number;
  /** Longest signature; deeper levels collapse until it fits (default 2,000 characters). */
  maxLength?: number;
}

type Schema = Record<string, unknown>;

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** The TypeScript-style type of a JSON Schema, e.g. `{ a: number; b?: "x" | "y" }`. */
export function schemaSignature(schema: unknown, options: SignatureOptions = {}): string {
  const maxLength = options.maxLength ?? 2000;
  let depth = options.maxDepth ?? 4;
  let text = render(schema, options, depth);
  // Collapse from the bottom up: the top-level parameters matter most for writing a call.
  while (text.length > maxLength && depth > 1) text = render(schema, options, --depth);
  if (text.length > maxLength && options.descriptions) text = render(schema, { ...options, descriptions: 0 }, depth);
  return text;
}

/** A call signature: `name(args: { ... }): Promise<{ ... }>` (the result type only with an output schema). */
export function toolSignature(
  name: string,
  inputSchema: unknown,
  outputSchema?: unknown,
  options: SignatureOptions = {},
): string {
  const out = outputSchema === undefined ? 'unknown' : schemaSignature(outputSchema, { ...options, descriptions: 0 });
  return `${name}(args: ${schemaSignature(inputSchema, options)}): Promise<${out}>`;
}

function render(schema: unknown, options: SignatureOptions, maxDepth: number): string {
  const root = isSchema(schema) ? schema : {};
  return new Renderer(root, options.descriptions ?? 0, maxDepth).type(root, 0, new Set());
}

class Renderer {
  constructor(
    private readonly root: Schema,
    private readonly descriptionChars: number,
    private readonly maxDepth: number,
  ) {}

  type(schema: unknown, depth: number, refs: Set<string>): string {
    if (schema === true || schema === undefined) return 'unknown';
    if (schema === false) return 'never';
    if (!isSchema(schema)) return 'unknown';
    const base = this.baseType(schema, depth, refs);
    return schema.nullable === true && !/\bnull$/.test(base) ? `${base} | null` : base;
  }

  private baseType(s: Schema, depth: number, refs: Set<string>): string {
    if (typeof s.$ref === 'string') return this.ref(s.$ref, depth, refs);
    if ('const' in s) return literal(s.const);
    if (Array.isArray(s.enum)) return s.enum.length ? unique(s.enum.map(literal)).join(' | ') : 'never';
    const variants = (Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined) as
      unknown[] | undefined;
    if (variants?.length) return unique(variants.map((v) => this.type(v, depth, refs))).join(' | ');
    if (Array.isArray(s.allOf) && s.allOf.length) {
      const parts = unique(s.allOf.map((v) => this.type(v, depth, refs)).filter((t) => t !== 'unknown'));
      return parts.length ? parts.map(wrapUnionMember).join(' & ') : 'unknown';
    }
    const types = Array.isArray(s.type)
      ? s.type.filter((t): t is string => typeof t === 'string')
      : typeof s.type === 'string'
        ? [s.type]
        : [];
    if (types.length === 0)
      return s.properties || s.additionalProperties
        ? this.object(s, depth, refs)
        : s.items
          ? this.array(s, depth, refs)
          : 'unknown';
    return unique(types.map((t) => this.named(t, s, depth, refs))).join(' | ');
  }

  private named(type: string, s: Schema, depth: number, refs: Set<string>): string {
    switch (type) {
      case 'string':
      case 'number':
      case 'boolean':
      case 'null':
        return type;
      case 'integer':
        return 'number';
      case 'array':
        return this.array(s, depth, refs);
      case 'object':
        return this.object(s, depth, refs);
      default:
        return 'unknown';
    }
  }

  private array(s: Schema, depth: number, refs: Set<string>): string {
    if (Array.isArray(s.prefixItems)) return `[${s.prefixItems.map((t) => this.type(t, depth + 1, refs)).join(', ')}]`;
    if (Array.isArray(s.items)) return `[${s.items.map((t) => this.type(t, depth + 1, refs)).join(', ')}]`;
    const item = wrapUnionMember(this.type(s.items, depth + 1, refs));
    return `${item}[]`;
  }

  private object(s: Schema, depth: number, refs: Set<string>): string {
    const props = isSchema(s.properties) ? Object.entries(s.properties) : [];
    const extra = s.additionalProperties;
    if (props.length === 0) {
      if (isSchema(extra)) return `{ [key: string]: ${this.type(extra, depth + 1, refs)} }`;
      // At the top an object with no properties means "no arguments"; deeper, "some object".
      return depth === 0 ? '{}' : 'object';
    }
    if (depth >= this.maxDepth) return 'object';
    const required = new Set(
      Array.isArray(s.required) ? s.required.filter((r): r is string => typeof r === 'string') : [],
    );
    const members = props.map(([name, prop]) => {
      const key = IDENTIFIER.test(name) ? name : JSON.stringify(name);
      return `${key}${required.has(name) ? '' : '?'}: ${this.type(prop, depth + 1, refs)}${this.comment(prop)}`;
    });
    if (isSchema(extra)) members.push(`[key: string]: ${this.type(extra, depth + 1, refs)}`);
    return `{ ${members.join('; ')} }`;
  }

  private ref(ref: string, depth: number, refs: Set<string>): string {
    const name = ref.split('/').pop() ?? ref;
    const target = resolvePointer(this.root, ref);
    // A recursive schema (a tree of nodes) is named, not expanded forever.
    if (target === undefined || refs.has(ref)) return IDENTIFIER.test(name) ? name : 'unknown';
    const inner = new Set(refs).add(ref);
    return this.type(target, depth, inner);
  }

  private comment(prop: unknown): string {
    if (this.descriptionChars <= 0 || !isSchema(prop)) return '';
    const parts: string[] = [];
    if (typeof prop.description === 'string' && prop.description.trim())
      parts.push(cut(cleanText(prop.description), this.descriptionChars));
    if ('default' in prop && prop.default !== undefined)
      parts.push(`default ${cut(JSON.stringify(prop.default) ?? '', 40)}`);
    return parts.length ? ` /* ${parts.join('; ').replace(/\*\//g, '* /')} */` : '';
  }
}

function isSchema(v: unknown): v is Schema {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `#/$defs/Node` or `#/definitions/Node` inside the root schema; other refs stay unresolved. */
function resolvePointer(root: Schema, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let at: unknown = root;
  for (const raw of ref.slice(1).split('/').filter(Boolean)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isSchema(at) || !Object.prototype.hasOwnProperty.call(at, key)) return undefined;
    at = at[key];
  }
  return at;
}

function literal(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(cleanText(v).slice(0, 80));
  if (typeof v === 'number' || typeof v === 'boolean' || v === null) return String(v);
  return 'unknown';
}

/** A union or intersection inside an intersection, or under `[]`, keeps its meaning with parentheses. */
function wrapUnionMember(t: string): string {
  let depth = 0;
  for (const ch of t) {
    if (ch === '{' || ch === '[' || ch === '(' || ch === '<') depth++;
    else if (ch === '}' || ch === ']' || ch === ')' || ch === '>') depth--;
    else if (depth === 0 && (ch === '|' || ch === '&')) return `(${t})`;
  }
  return t;
}

function unique(items: string[]): string[] {
  return [...new Set(items)];
}

/** One line of plain text: no escapes, control or bidi characters, no runs of whitespace. */
function cleanText(s: string): string {
  return oneLine(s).replace(/\s+/g, ' ');
}

function cut(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, Math.max(0, max - 1)).trimEnd()}…`;
}
