/**
 * Tokens of each server's own tools/list (its tools under their original names, as JSON),
 * counted tool by tool: each tool is tokenized once, and a server's figure is a sum. Counting
 * whole lists would mean JSON of the whole catalog on every ask and, in an organisation's
 * catalog, seconds of tokenizing in one go on the main thread.
 *
 * The sums are exact, not estimates. o200k cuts a text into pre-tokens with a regex before BPE,
 * and no token crosses a pre-token's end. In a list `[{"name":…},{"name":…}]` every `name` key
 * follows a run of punctuation (`[{"`, or `…},{"` between two tools) that the regex takes whole
 * as one pre-token and that ends right before `name`. So the list splits exactly before each
 * `name`: a tool's piece is its JSON without the leading `{"`, plus what follows it (`,{"`, or
 * `]` for a server's last tool), and the list's count is count('[{"') plus its pieces' counts.
 * (definitionOf puts `name` first; test/unit/toolListTokens.test.ts checks the sums against
 * whole-list counts on the 19 recorded servers.)
 *
 * Counts are kept per catalog tool object (the same catalog asked again costs lookups only) and
 * per piece text by content hash (countTokensRemembered: a rebuilt catalog, or one read back from
 * the cache of an earlier run, costs JSON and hashing but no tokenizing).
 */
import { createHash } from 'node:crypto';
import type { CatalogTool } from './catalog';
import { contentHash, countTokens, countTokensRemembered, definitionOf } from './tokens';

/** Each server's tools/list cost, and a short hash that changes exactly when one of them can. */
export interface CatalogTokens {
  version: string;
  /** Servers with tools here, in the order of their first tool in the catalog. */
  perServer: Map<string, { tools: number; tokens: number }>;
}

/** How a count in the background gives the turn back. */
export interface CountPacing {
  /** Resolves on a later turn of the event loop. */
  pause(): Promise<void>;
  /** Stop early (the catalog was replaced, the app closes): the count resolves undefined. */
  stopped(): boolean;
  /** Longest run of counting between pauses, ms. */
  sliceMs?: number;
}

interface Piece {
  /** Content hash of the piece text (`…,{"`): the tool's fingerprint, and its remembered count's key. */
  key: string;
  tokens: number;
  /** The same with `]` after it, for a server's last tool; counted when a tool is last. */
  lastTokens?: number;
}

const LIST_START = '[{"';
const BETWEEN = ',{"';
const LIST_END = ']';
/** A request that arrives while a count runs waits for the rest of one slice at most. */
const DEFAULT_SLICE_MS = 2;

const pieces = new WeakMap<CatalogTool, Piece>();
let startTokens: number | undefined;
/** Counts under way, by the tools array counted. */
const running = new WeakMap<
  readonly CatalogTool[],
  { askers: (() => boolean)[]; count: Promise<CatalogTokens | undefined> }
>();

/** The costs if every tool's piece is counted already (lookups only: no JSON, no tokenizing); else undefined. */
export function knownCatalogTokens(
  tools: readonly CatalogTool[],
  servers?: Map<string, CatalogTool>,
): CatalogTokens | undefined {
  // Most asks come before the count is done: find that out before grouping 100,000 tools.
  if (!servers && tools.some((t) => !pieces.has(t))) return undefined;
  servers ??= lastToolPerServer(tools);
  const perServer = new Map<string, { tools: number; tokens: number }>();
  // Hashed once at the end: an update per tool is a native call each (a third of a second at 100,000).
  const fingerprints: string[] = [];
  for (const t of tools) {
    const piece = pieces.get(t);
    const last = servers.get(t.server) === t;
    const tokens = last ? piece?.lastTokens : piece?.tokens;
    if (tokens === undefined) return undefined;
    const row = perServer.get(t.server);
    if (row) ((row.tools += 1), (row.tokens += tokens));
    else perServer.set(t.server, { tools: 1, tokens: (startTokens ??= countTokens(LIST_START)) + tokens });
    fingerprints.push(t.server, piece!.key);
  }
  return { version: createHash('sha256').update(fingerprints.join('\0')).digest('hex').slice(0, 16), perServer };
}

/** Counts what is not counted yet, all at once: for small catalogs and for tests. */
export function countCatalogTokens(tools: readonly CatalogTool[]): CatalogTokens {
  const servers = lastToolPerServer(tools);
  countPieces(tools, servers, 0, () => false);
  return knownCatalogTokens(tools, servers)!;
}

/**
 * Counts what is not counted yet, at most `maxPieces` tools now; the costs if that was enough,
 * else undefined (what was counted stays counted).
 */
export function countCatalogTokensUpTo(tools: readonly CatalogTool[], maxPieces: number): CatalogTokens | undefined {
  let counted = 0;
  const servers = lastToolPerServer(tools);
  const done = countPieces(tools, servers, 0, () => ++counted > maxPieces) === tools.length;
  return done ? knownCatalogTokens(tools, servers) : undefined;
}

/**
 * Counts what is not counted yet, in slices of at most `sliceMs` with a pause between them. The
 * server rows and the gateway's accounting ask for the same catalog: they share one count (two
 * would take turns, and a request would wait for a slice of each), which stops only when every
 * asker has stopped.
 */
export function countCatalogTokensPaced(
  tools: readonly CatalogTool[],
  pacing: CountPacing,
): Promise<CatalogTokens | undefined> {
  const shared = running.get(tools);
  if (shared) {
    shared.askers.push(pacing.stopped);
    return shared.count;
  }
  const askers = [pacing.stopped];
  const count = paced(tools, pacing, () => askers.every((stopped) => stopped())).finally(() => running.delete(tools));
  running.set(tools, { askers, count });
  return count;
}

async function paced(
  tools: readonly CatalogTool[],
  pacing: CountPacing,
  stopped: () => boolean,
): Promise<CatalogTokens | undefined> {
  const sliceMs = pacing.sliceMs ?? DEFAULT_SLICE_MS;
  const servers = lastToolPerServer(tools);
  // Each slice goes on where the last one stopped: starting over cost a pass over every tool per slice.
  for (let next = 0; ;) {
    if (stopped()) return undefined;
    const until = Date.now() + sliceMs;
    next = countPieces(tools, servers, next, () => Date.now() > until);
    if (next === tools.length) return knownCatalogTokens(tools, servers);
    await pacing.pause();
  }
}

/** The remembered counts of these tools' pieces (content hash → tokens), for the catalog cache to keep. */
export function pieceCounts(tools: readonly CatalogTool[]): Record<string, number> {
  const servers = lastToolPerServer(tools);
  const out: Record<string, number> = {};
  for (const t of tools) {
    const piece = pieces.get(t);
    if (!piece) continue;
    out[piece.key] = piece.tokens;
    if (piece.lastTokens !== undefined && servers.get(t.server) === t) out[lastKey(piece)] = piece.lastTokens;
  }
  return out;
}

/**
 * Counts the pieces missing from `from` on, in catalog order, asking `enough()` before each tool
 * that needs JSON; the index it stopped at (`tools.length` once every piece is there).
 */
function countPieces(
  tools: readonly CatalogTool[],
  servers: Map<string, CatalogTool>,
  from: number,
  enough: () => boolean,
): number {
  for (let i = from; i < tools.length; i++) {
    const t = tools[i]!;
    const piece = pieces.get(t);
    const last = servers.get(t.server) === t;
    if (piece && (!last || piece.lastTokens !== undefined)) continue;
    if (enough()) return i;
    const core = pieceText(t);
    const counted = piece ?? remembered(core + BETWEEN);
    if (last) counted.lastTokens = countTokensRemembered(core + LIST_END, lastKey(counted));
    pieces.set(t, counted);
  }
  return tools.length;
}

function remembered(text: string): Piece {
  const key = contentHash(text);
  return { key, tokens: countTokensRemembered(text, key) };
}

/** The remembered count's key of a last piece: its own text hashed would cost the JSON again. */
function lastKey(piece: Piece): string {
  return `${piece.key}]`;
}

/** The tool's definition as its server lists it, as JSON without the leading `{"`. */
function pieceText(t: CatalogTool): string {
  return JSON.stringify(definitionOf({ ...t, name: t.originalName })).slice(2);
}

/** Each server's last tool in catalog order (its list ends with `]` after it). */
function lastToolPerServer(tools: readonly CatalogTool[]): Map<string, CatalogTool> {
  const last = new Map<string, CatalogTool>();
  for (const t of tools) last.set(t.server, t);
  return last;
}
