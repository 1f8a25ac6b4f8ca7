/**
 * A catalog's tokens (catalogTokens.ts) kept between runs. Reading a catalog is most of the
 * keyword index's build — run once per start, while nothing is compiled yet — and the catalog rarely changes
 * from one start to the next, so the start-up reads back what the last run read (adapters/
 * catalogTokensFile.ts keeps it beside the catalog cache).
 *
 * The key names everything the reading depends on: each tool's fields as tokenizeCatalog reads
 * them (server, name, title, description, input schema), in catalog order, the settings that
 * change the reading, and the build of MCP Lens that read them (`CatalogTokensCache.build`), so
 * a new tokenizer never meets old tokens. What comes back is checked for shape and range before
 * use; anything else is a miss and the catalog is read again.
 */
import { createHash } from 'node:crypto';
import type { CatalogTool } from '../catalog';
import type { Postings } from './bm25fPostings';
import type { CatalogTokens } from './catalogTokens';
import { OWN_FIELD_COUNT, TermTable, type DocTokens } from './docTokens';
import type { CandidateConfig } from './candidateConfig';

/** Where a catalog's tokens are kept between runs. */
export interface CatalogTokensCache {
  /** Names the code that reads catalogs (e.g. the bundle's version and file): part of every key. */
  readonly build: string;
  /** Larger catalogs are not kept (their key alone would cost a pass over every schema). */
  readonly maxTools: number;
  /** The tokens stored under `key`, if any (decodeCatalogTokens checks them). */
  get(key: string, tools: number): CatalogTokens | undefined;
  /** Keeps these tokens under `key` (may write later, off the answer's path). */
  set(key: string, tokens: CatalogTokens): void;
  /** Writes what `set` left waiting (the index is closing). */
  flush(): void;
}

/** Bumped when the stored form changes (2: BM25F's postings kept with the tokens). */
const FORMAT = 2;

/** The key of a catalog's reading: sha256 over what tokenizeCatalog reads, the config that shapes it, and the build. */
export function catalogTokensKey(tools: readonly CatalogTool[], config: CandidateConfig, build: string): string {
  const hash = createHash('sha256');
  const reading = {
    stem: config.stem,
    exact: config.exact > 0,
    bigrams: config.bigrams > 0,
    shapes: (config.shapes ?? 0) > 0,
    negation: config.negation ?? 0,
    contextMaxTools: config.contextMaxTools,
  };
  hash.update(JSON.stringify([FORMAT, build, reading]));
  // Tool by tool: one catalog-sized string would be a second copy of the catalog.
  for (const t of tools)
    hash.update('\n').update(JSON.stringify([t.server, t.originalName, t.title ?? null, t.description, t.inputSchema]));
  return hash.digest('base64url');
}

/** The stored form, as JSON text in pieces (one catalog-sized string would cost its size again in memory). */
export function* encodeCatalogTokens(key: string, t: CatalogTokens): Generator<string> {
  const nameOffsets = new Int32Array(t.nameTerms.length + 1);
  const nameIds: number[] = [];
  t.nameTerms.forEach((terms, i) => {
    for (const term of terms) nameIds.push(t.tokens.table.ids.get(term)!);
    nameOffsets[i + 1] = nameIds.length;
  });
  yield `{"format":${FORMAT},"key":${JSON.stringify(key)},"strings":[`;
  const strings = t.tokens.table.strings;
  for (let i = 0; i < strings.length; i += 4096)
    yield (
      (i > 0 ? ',' : '') +
      strings
        .slice(i, i + 4096)
        .map((s) => JSON.stringify(s))
        .join(',')
    );
  yield `],"nameOffsets":"${base64(nameOffsets)}","nameIds":"${base64(Int32Array.from(nameIds))}"`;
  yield ',"tokens":';
  yield* docTokensJson(t.tokens);
  yield ',"words":';
  yield* docTokensJson(t.words);
  if (t.bm25) {
    yield `,"bm25":{"fields":${JSON.stringify(t.bm25.fields)}`;
    for (const name of POSTING_ARRAYS) yield* arrayJson(name, t.bm25.postings[name]);
    yield '}';
  }
  yield '}';
}

/** Tokens decoded from `text` when it is well-formed, for `key` and a catalog of `tools` tools; undefined otherwise. */
export function decodeCatalogTokens(text: string, key: string, tools: number): CatalogTokens | undefined {
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (
    raw.format !== FORMAT ||
    raw.key !== key ||
    !Array.isArray(raw.strings) ||
    !raw.strings.every((s) => typeof s === 'string')
  )
    return undefined;
  const table = new TermTable();
  for (const s of raw.strings as string[]) if (table.intern(s) !== table.size - 1) return undefined; // a repeated term
  const tokens = docTokens(raw.tokens, table, tools);
  const words = docTokens(raw.words, table, tools);
  const nameOffsets = int32(raw.nameOffsets);
  const nameIds = int32(raw.nameIds);
  if (
    !tokens ||
    !words ||
    !nameOffsets ||
    !nameIds ||
    !runs(nameOffsets, tools, nameIds.length) ||
    !inRange(nameIds, table.size)
  )
    return undefined;
  const nameTerms: string[][] = [];
  for (let d = 0; d < tools; d++)
    nameTerms.push(Array.from(nameIds.subarray(nameOffsets[d]!, nameOffsets[d + 1]!), (id) => table.strings[id]!));
  if (raw.bm25 === undefined) return { tokens, words, nameTerms };
  // Postings that are there but do not check out make the whole file a miss, as tokens do.
  const bm25 = storedPostings(raw.bm25, table.size, tools, tokens.groupCount);
  return bm25 && { tokens, words, nameTerms, bm25 };
}

/** The arrays of Postings as stored, in this order. */
const POSTING_ARRAYS = [
  'offsets',
  'inside',
  'docs',
  'tf',
  'insideStart',
  'insideDirect',
  'insideOwn',
  'groupOffsets',
  'groups',
  'groupCounts',
  'df',
] as const satisfies readonly (keyof Postings)[];

/**
 * Stored postings over `terms` terms, `count` documents and `groupCount` groups, with every
 * offset, id, count and frequency checked against the layout bm25fPostings.ts builds; undefined
 * when any is off.
 */
function storedPostings(raw: unknown, terms: number, count: number, groupCount: number): CatalogTokens['bm25'] {
  const r = raw as Record<string, unknown> | null;
  if (!r || typeof r.fields !== 'string') return undefined;
  const [offsets, inside, docs, insideStart, insideOwn, groupOffsets, groups, groupCounts, df] = (
    ['offsets', 'inside', 'docs', 'insideStart', 'insideOwn', 'groupOffsets', 'groups', 'groupCounts', 'df'] as const
  ).map((name) => int32(r[name]));
  const tf = float32(r.tf);
  const insideDirect = float64(r.insideDirect);
  if (
    !offsets ||
    !inside ||
    !docs ||
    !tf ||
    !insideStart ||
    !insideDirect ||
    !insideOwn ||
    !groupOffsets ||
    !groups ||
    !groupCounts ||
    !df
  )
    return undefined;
  if (
    !runs(offsets, terms, docs.length) ||
    !inRange(docs, count) ||
    tf.length !== docs.length ||
    inside.length !== terms ||
    df.length !== terms
  )
    return undefined;
  if (!runs(insideStart, terms, insideDirect.length) || insideOwn.length !== insideDirect.length) return undefined;
  if (!runs(groupOffsets, terms, groups.length) || !inRange(groups, groupCount) || groupCounts.length !== groups.length)
    return undefined;
  for (let t = 0; t < terms; t++) {
    if (inside[t]! < offsets[t]! || inside[t]! > offsets[t + 1]!) return undefined;
    if (insideStart[t + 1]! - insideStart[t]! !== offsets[t + 1]! - inside[t]!) return undefined;
    if (df[t]! < 0 || df[t]! > count) return undefined;
  }
  if (!inRange(insideOwn, 2 ** 31 - 1) || !inRange(groupCounts, 2 ** 31 - 1)) return undefined;
  if (!tf.every((x) => Number.isFinite(x) && x >= 0) || !insideDirect.every((x) => Number.isFinite(x)))
    return undefined;
  return {
    fields: r.fields,
    postings: {
      offsets,
      inside,
      docs,
      tf,
      insideStart,
      insideDirect,
      insideOwn,
      groupOffsets,
      groups,
      groupCounts,
      df,
    },
  };
}

function* docTokensJson(d: DocTokens): Generator<string> {
  yield `{"count":${d.count},"groupCount":${d.groupCount}`;
  for (const [name, a] of [
    ['ids', d.ids],
    ['fieldStart', d.fieldStart],
    ['groups', d.groups],
    ['lends', d.lends],
  ] as const)
    yield* arrayJson(name, a);
  yield '}';
}

/** `,"name":"<base64 of the array's bytes>"`. */
function* arrayJson(name: string, a: Int32Array | Uint8Array | Float32Array | Float64Array): Generator<string> {
  yield `,"${name}":"`;
  // In pieces of whole 3-byte groups, so they join into the array's base64: a catalog of
  // 20,000 tools has tens of MB of ids, never one string.
  const bytes = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  for (let i = 0; i < bytes.length; i += BASE64_PIECE) yield base64(bytes.subarray(i, i + BASE64_PIECE));
  yield '"';
}

const BASE64_PIECE = 3 * 65536;

/** A stored DocTokens of `count` documents over `table`, every offset and id checked; undefined when any is off. */
function docTokens(raw: unknown, table: TermTable, count: number): DocTokens | undefined {
  const r = raw as Record<string, unknown> | null;
  if (
    !r ||
    r.count !== count ||
    typeof r.groupCount !== 'number' ||
    !Number.isInteger(r.groupCount) ||
    r.groupCount < 0
  )
    return undefined;
  const ids = int32(r.ids);
  const fieldStart = int32(r.fieldStart);
  const groups = int32(r.groups);
  const lends = bytes(r.lends);
  if (!ids || !fieldStart || !groups || !lends || groups.length !== count || lends.length !== count) return undefined;
  if (
    !runs(fieldStart, count * OWN_FIELD_COUNT, ids.length) ||
    !inRange(ids, table.size) ||
    !inRange(groups, r.groupCount)
  )
    return undefined;
  return { table, count, ids, fieldStart, groups, groupCount: r.groupCount, lends: lends.map((l) => (l ? 1 : 0)) };
}

/** Offsets of `n` runs: n + 1 of them, from 0, never decreasing, ending at `length`. */
function runs(offsets: Int32Array, n: number, length: number): boolean {
  if (offsets.length !== n + 1 || offsets[0] !== 0 || offsets[n] !== length) return false;
  for (let i = 0; i < n; i++) if (offsets[i + 1]! < offsets[i]!) return false;
  return true;
}

function inRange(ids: Int32Array, size: number): boolean {
  for (let i = 0; i < ids.length; i++) if (ids[i]! < 0 || ids[i]! >= size) return false;
  return true;
}

/** Typed arrays are stored little-endian, as every platform MCP Lens ships for holds them. */
function base64(a: Int32Array | Uint8Array): string {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');
}

function bytes(raw: unknown): Uint8Array | undefined {
  return typeof raw === 'string' ? new Uint8Array(Buffer.from(raw, 'base64')) : undefined;
}

function int32(raw: unknown): Int32Array | undefined {
  const b = bytes(raw);
  // A copy made by Uint8Array above: its buffer starts at 0, as an Int32Array's view needs.
  return b && b.length % 4 === 0 ? new Int32Array(b.buffer, 0, b.length / 4) : undefined;
}

function float32(raw: unknown): Float32Array | undefined {
  const b = bytes(raw);
  return b && b.length % 4 === 0 ? new Float32Array(b.buffer, 0, b.length / 4) : undefined;
}

/** Float64 sums kept bit for bit, so scores from stored postings are the scores of built ones. */
function float64(raw: unknown): Float64Array | undefined {
  const b = bytes(raw);
  return b && b.length % 8 === 0 ? new Float64Array(b.buffer, 0, b.length / 8) : undefined;
}
