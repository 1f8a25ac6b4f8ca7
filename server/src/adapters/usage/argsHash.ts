/**
 * The salted argument hash: HMAC-SHA256 over a canonical JSON of the arguments, keyed by a
 * random per-store salt kept in the store folder. It lets two identical calls be recognized
 * without the values ever being stored, and differs between stores so it cannot be looked
 * up in a table of known values.
 *
 * The salt is generated here and nowhere else: a salt file that is not 64 hex digits, or that
 * MCP Lens did not write (a link, mode other than 0600, another user's: a repository can ship
 * `.mcp-lens/usage/salt`), is replaced with a fresh one and a warning. Known hashes are then
 * not comparable with the old ones, which only costs de-duplication of older calls.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { Logger } from '../../core/logger';
import { rmSync } from 'node:fs';
import { createPrivateFile, readPrivateFile, writePrivateFile } from '../privateFiles';

const SALT = /^[0-9a-f]{64}$/;

/** Reads the store's salt, creating it (exclusively, mode 0600) on first use, replacing an invalid one. */
export async function loadSalt(path: string, log: Logger): Promise<Buffer> {
  const read = readPrivateFile(path);
  if ('text' in read) {
    const hex = read.text.trim();
    if (SALT.test(hex)) return Buffer.from(hex, 'hex');
    return replaceSalt(path, 'it is not 64 hex digits', log);
  }
  if ('refused' in read) return replaceSalt(path, read.refused, log);
  const salt = randomBytes(32);
  try {
    await createPrivateFile(path, salt.toString('hex'));
    return salt;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    // Another process created it at the same moment: use theirs, once (a second race is not waited on).
    const again = readPrivateFile(path);
    if ('text' in again && SALT.test(again.text.trim())) return Buffer.from(again.text.trim(), 'hex');
    return replaceSalt(path, 'it changed while it was being created', log);
  }
}

function replaceSalt(path: string, why: string, log: Logger): Buffer {
  const salt = randomBytes(32);
  // writePrivateFile refuses a link: whatever is there (a link, someone's file) is removed first.
  rmSync(path, { force: true });
  writePrivateFile(path, salt.toString('hex'));
  log.warn(`usage: replaced the salt in ${path} with a new one: ${why}`);
  return salt;
}

export function hashArgs(salt: Buffer, args: unknown): string {
  return createHmac('sha256', salt).update(canonicalJson(args)).digest('hex');
}

/** JSON with object keys sorted, so `{a,b}` and `{b,a}` hash alike. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
