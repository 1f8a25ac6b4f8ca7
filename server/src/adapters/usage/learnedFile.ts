/**
 * Search learning on disk: one JSON file per workspace, `<state folder>/learned/search.json`,
 * in the same user state folder as the usage log (never the workspace). It is ours: read only
 * when it is a regular 0600 file of this user (adapters/privateFiles.ts refuses links and
 * anything a repository could ship), replaced whole (temp file + rename), and checked field by
 * field on the way in, so a damaged or hand-edited file loses its bad entries, not the rest.
 * A `lock` beside it says which process writes; the others read, and re-read when the file
 * changes (`stamp`), which is also how a `mcp-lens forget` in another terminal reaches a
 * running gateway.
 */
import { lstatSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { LearnedExample } from '../../core/usage/learnedExamples';
import { MAX_SPELLINGS } from '../../core/usage/learnedSpellings';
import { MAX_LEARNED_TERMS, MAX_LEARNED_TERM_LENGTH } from '../../core/usage/learnedTerms';
import { ensurePrivateDir, readPrivateFile, writePrivateFile } from '../privateFiles';

export const LEARNED_FOLDER = 'learned';
export const LEARNED_FILE = 'search.json';

/** The learned file of a state folder (the one the usage log lives in: LensAppOptions.storageDir). */
export function learnedFilePath(storageDir: string): string {
  return join(storageDir, LEARNED_FOLDER, LEARNED_FILE);
}

/** Creates the file's folder (0700, never a link) under an existing or new state folder. */
export function ensureLearnedFolder(file: string): void {
  mkdirSync(dirname(dirname(file)), { recursive: true, mode: 0o700 });
  ensurePrivateDir(dirname(file));
}

const FORMAT = 1;
const MAX_KEY_LENGTH = 1024;

interface StoredFile {
  format: number;
  examples: unknown[];
  /** How each term was written (core/usage/learnedSpellings.ts); absent in files written before there were any. */
  spellings?: unknown;
}

export type LearnedRead =
  | { examples: LearnedExample[]; dropped: number; spellings: Record<string, string> }
  | { missing: true }
  | { refused: string };

/** Reads the file: its valid examples (oldest first), how many entries were not, and the terms' spellings. */
export function readLearnedFile(file: string): LearnedRead {
  const read = readPrivateFile(file);
  if (!('text' in read)) return read;
  let parsed: StoredFile;
  try {
    parsed = JSON.parse(read.text) as StoredFile;
  } catch {
    return { refused: 'it is not valid JSON' };
  }
  if (!parsed || typeof parsed !== 'object' || parsed.format !== FORMAT || !Array.isArray(parsed.examples))
    return { refused: `it is not a format ${FORMAT} learned-search file` };
  const examples = parsed.examples.flatMap((e) => validExample(e) ?? []);
  return { examples, dropped: parsed.examples.length - examples.length, spellings: validSpellings(parsed.spellings) };
}

/** Replaces the file with these examples and their terms' spellings (0600). */
export function writeLearnedFile(
  file: string,
  examples: Iterable<LearnedExample>,
  spellings: Record<string, string> = {},
): void {
  const out: StoredFile = { format: FORMAT, examples: [...examples].map((e) => ({ ...e })), spellings };
  writePrivateFile(file, JSON.stringify(out));
}

/** Deletes the file (never through a link: rm removes the link itself). */
export function removeLearnedFile(file: string): void {
  rmSync(file, { force: true });
}

/** What changes when anyone rewrites or deletes the file; undefined when there is none. */
export function learnedFileStamp(file: string): string | undefined {
  try {
    const st = lstatSync(file);
    return `${st.ino}:${st.size}:${st.mtimeMs}`;
  } catch {
    return undefined;
  }
}

function validExample(raw: unknown): LearnedExample | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const e = raw as Record<string, unknown>;
  const terms = e.terms;
  if (!Array.isArray(terms) || terms.length === 0 || terms.length > MAX_LEARNED_TERMS * 2) return undefined;
  if (!terms.every((t) => typeof t === 'string' && t.length > 0 && t.length <= MAX_LEARNED_TERM_LENGTH * 2))
    return undefined;
  if (
    !shortString(e.key) ||
    !shortString(e.server) ||
    typeof e.fingerprint !== 'string' ||
    !/^[0-9a-f]{16}$/.test(e.fingerprint)
  )
    return undefined;
  if (!finite(e.weight) || !finite(e.count) || !finite(e.at) || (e.count as number) < 0) return undefined;
  return {
    terms: terms as string[],
    key: e.key as string,
    server: e.server as string,
    fingerprint: e.fingerprint,
    weight: e.weight as number,
    count: Math.floor(e.count as number),
    at: e.at as number,
  };
}

/** The spellings that are one word each (a bad one is left out: its term shows as the stem). */
function validSpellings(raw: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return out;
  for (const [term, word] of Object.entries(raw as Record<string, unknown>).slice(0, MAX_SPELLINGS)) {
    if (term.length === 0 || term.length > MAX_LEARNED_TERM_LENGTH * 2) continue;
    if (typeof word !== 'string' || word.length === 0 || word.length > MAX_LEARNED_TERM_LENGTH) continue;
    if (/[\s\p{C}]/u.test(word)) continue;
    out[term] = word;
  }
  return out;
}

function shortString(v: unknown): boolean {
  return typeof v === 'string' && v.length > 0 && v.length <= MAX_KEY_LENGTH;
}

function finite(v: unknown): boolean {
  return typeof v === 'number' && Number.isFinite(v);
}
