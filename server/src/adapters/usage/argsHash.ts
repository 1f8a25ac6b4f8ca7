/**
 * The salted argument hash: HMAC-SHA256 over a canonical JSON of the arguments, keyed by a
 * random per-store salt kept in the store folder. It lets two identical calls be recognized
 * without the values ever being stored, and differs between stores so it cannot be looked
 * up in a table of known values.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';

/** Reads the store's salt, creating it (exclusively, mode 0600) on first use. */
export async function loadSalt(path: string): Promise<Buffer> {
  try {
    const hex = (await readFile(path, 'utf8')).trim();
    if (/^[0-9a-f]{64}$/.test(hex)) return Buffer.from(hex, 'hex');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const salt = randomBytes(32);
  try {
    await writeFile(path, salt.toString('hex'), { flag: 'wx', mode: 0o600 });
    return salt;
  } catch (err) {
    // Another process created it first: use theirs.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return loadSalt(path);
    throw err;
  }
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
