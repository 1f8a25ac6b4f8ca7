/**
 * Search learning on disk: one JSON file per workspace, `<state folder>/learned/search.json`,
 * in the same user state folder as the usage log (never the workspace). It is ours: read only
 * when it is a regular 0600 file of this user (adapters/privateFiles.ts refuses links and
 * anything a repository could ship), replaced whole (temp file + rename). A `lock` beside it
 * says which process writes; the others read, and re-read when the file changes (`stamp`), which
 * is also how a `mcp-lens forget` in another terminal reaches a running gateway.
 *
 * An agent's write tool may reach the state folder, so what is read is checked before anything
 * of it is believed (learnedFileCheck.ts): at most MAX_LEARNED_FILE_BYTES (the writer never
 * writes more), nested at most MAX_LEARNED_DEPTH deep (checked before it is parsed: a file of
 * nested brackets held the parser for seconds), and every entry exactly what MCP Lens writes,
 * each value in its range. A file that fails any of it is not trusted at all: it is set aside
 * (renamed beside, never deleted silently) and the caller warns, naming both names. The read
 * runs on a worker thread (learnedFileReader.ts), never on the gateway's.
 */
import { lstatSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { LearnedExample } from '../../core/usage/learnedExamples';
import { ensurePrivateDir, readPrivateBytes, writePrivateFile } from '../privateFiles';
import { checkLearnedText, LEARNED_FORMAT, type LearnedCheck } from './learnedFileCheck';

export const LEARNED_FOLDER = 'learned';
export const LEARNED_FILE = 'search.json';
/**
 * The most the file may hold. 4,000 examples (LEARNED_BOUNDS) of a typical request (six words, a
 * 40-character tool key) are about 1 MB; the writer leaves out the oldest examples rather than
 * write more than this, so a larger file was not written by MCP Lens.
 */
export const MAX_LEARNED_FILE_BYTES = 4 * 1024 * 1024;
/** Files set aside that are kept (the oldest beyond this go, with a line in the log naming each). */
const SET_ASIDE_KEPT = 3;

/** The learned file of a state folder (the one the usage log lives in: LensAppOptions.storageDir). */
export function learnedFilePath(storageDir: string): string {
  return join(storageDir, LEARNED_FOLDER, LEARNED_FILE);
}

/** Creates the file's folder (0700, never a link) under an existing or new state folder. */
export function ensureLearnedFolder(file: string): void {
  mkdirSync(dirname(dirname(file)), { recursive: true, mode: 0o700 });
  ensurePrivateDir(dirname(file));
}

/**
 * What reading found: its examples (oldest first); nothing; a file that is not ours (a link,
 * another user's, readable by others: left where it is); or a file of ours whose content cannot
 * be trusted (`bad`: to be set aside).
 */
export type LearnedRead =
  { examples: LearnedExample[] } | { missing: true } | { refused: string } | { bad: string; stamp: string | undefined };

/** Reads and checks the file (synchronously: the worker's job, and the CLI's). `now` bounds the times it may hold. */
export function readLearnedFile(file: string, now = Date.now()): LearnedRead {
  const stamp = learnedFileStamp(file);
  const read = readPrivateBytes(file, MAX_LEARNED_FILE_BYTES);
  if ('missing' in read) return read;
  if ('refused' in read) {
    return /larger than/.test(read.refused)
      ? { bad: `it is larger than ${MAX_LEARNED_FILE_BYTES / (1024 * 1024)} MB, more than MCP Lens writes`, stamp }
      : read;
  }
  const checked: LearnedCheck = checkLearnedText(read.bytes.toString('utf8'), now);
  return 'bad' in checked ? { bad: checked.bad, stamp } : checked;
}

/** Replaces the file with these examples (0600), leaving out the oldest past MAX_LEARNED_FILE_BYTES. */
export function writeLearnedFile(file: string, examples: Iterable<LearnedExample>): void {
  const entries = [...examples].map((e) => JSON.stringify(e));
  const head = `{"format":${LEARNED_FORMAT},"examples":[`;
  let size = head.length + 2;
  let first = entries.length;
  // Newest last: keep from the end while they fit.
  while (first > 0 && size + Buffer.byteLength(entries[first - 1]!) + 1 <= MAX_LEARNED_FILE_BYTES)
    size += Buffer.byteLength(entries[--first]!) + 1;
  writePrivateFile(file, `${head}${entries.slice(first).join(',')}]}`);
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

/**
 * Moves a file that cannot be trusted beside it (`search.json.set-aside-<time>`), if it is still
 * the file that was read (`stamp`: a writer may have replaced it since). Returns the new name,
 * and the older set-aside files it removed to keep SET_ASIDE_KEPT; undefined when nothing moved.
 */
export function setLearnedFileAside(
  file: string,
  stamp: string | undefined,
  now = Date.now(),
): { to: string; removed: string[] } | undefined {
  if (stamp === undefined || learnedFileStamp(file) !== stamp) return undefined;
  const to = `${file}.set-aside-${new Date(now).toISOString().replace(/[:.]/g, '-')}`;
  renameSync(file, to);
  const prefix = `${basename(file)}.set-aside-`;
  const aside = readdirSync(dirname(file))
    .filter((n) => n.startsWith(prefix))
    .sort();
  const removed = aside.slice(0, Math.max(0, aside.length - SET_ASIDE_KEPT)).map((n) => join(dirname(file), n));
  for (const old of removed) rmSync(old, { force: true });
  return { to, removed };
}
