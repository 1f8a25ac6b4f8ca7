/**
 * The tools the user allowed "always" (core/consent.ts), per principal (core/principal.ts: the
 * workspace's user, a signed-in person), one JSON file per workspace in the
 * workspace's state folder (`<storageDir>/consent.json`: the CLI's state folder, the editor's
 * workspace storage; never the workspace itself, which the agent can write). It is ours: read
 * only when it is a regular 0600 file of this user (adapters/privateFiles.ts refuses links and
 * anything a repository could ship), replaced whole (temp file + rename), bounded (entries and
 * bytes), and checked entry by entry on the way in. A file that cannot be trusted reads as
 * "nothing allowed": the user is asked again, which is the safe side. Read again whenever it
 * changed (`stamp`), so a revoke from another process applies to the next call.
 */
import { lstatSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readPrivateFile, writePrivateFile } from './privateFiles';

export const CONSENT_FILE = 'consent.json';

/** At most this many tools are remembered; the oldest choice goes first. */
export const MAX_REMEMBERED_CONSENTS = 500;
/** Larger than any file of MAX_REMEMBERED_CONSENTS entries: a bigger one is not ours. */
const MAX_FILE_BYTES = 512 * 1024;
const MAX_KEY_CHARS = 1024;
const FORMAT = 1;

/** One tool a principal's user allowed always, for the definition it had then. */
export interface RememberedConsent {
  /** core/principal.ts Principal.id of whom the answer was given for (never a secret). */
  principal: string;
  /** The catalog key (`server/originalName`). */
  key: string;
  server: string;
  /** The tool's name on its server. */
  tool: string;
  /** core/usage/toolFingerprint.ts definitionFingerprint of the definition allowed. */
  fingerprint: string;
  /** When it was allowed (epoch ms). */
  at: number;
}

export function consentFilePath(storageDir: string): string {
  return join(storageDir, CONSENT_FILE);
}

export class ConsentFile {
  private cached: { stamp: string | undefined; entries: RememberedConsent[] } | undefined;

  constructor(
    readonly file: string,
    private readonly warn: (message: string) => void,
  ) {}

  /** The remembered choices, oldest first. */
  read(): RememberedConsent[] {
    const stamp = this.stamp();
    if (this.cached && this.cached.stamp === stamp) return this.cached.entries;
    const entries = stamp === undefined ? [] : this.load();
    this.cached = { stamp, entries };
    return entries;
  }

  /** Remembers `entry` (replacing one for the same tool and principal); throws, naming the file, when it cannot be written. */
  add(entry: RememberedConsent): void {
    const kept = this.read().filter((e) => !sameChoice(e, entry));
    kept.push(entry);
    this.write(kept.slice(-MAX_REMEMBERED_CONSENTS));
  }

  /** Forgets `principal`'s choice for the tool `key`; false when there was none. */
  remove(principal: string, key: string): boolean {
    const entries = this.read();
    const kept = entries.filter((e) => !sameChoice(e, { principal, key }));
    if (kept.length === entries.length) return false;
    this.write(kept);
    return true;
  }

  private write(entries: RememberedConsent[]): void {
    mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
    writePrivateFile(this.file, JSON.stringify({ format: FORMAT, allowed: entries }));
    this.cached = { stamp: this.stamp(), entries };
  }

  private load(): RememberedConsent[] {
    const read = readPrivateFile(this.file, MAX_FILE_BYTES);
    if ('missing' in read) return [];
    if ('refused' in read) {
      this.warn(`consent: not reading ${this.file}: ${read.refused}; every tool is asked about again`);
      return [];
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(read.text);
    } catch {
      this.warn(`consent: ${this.file} is not valid JSON; every tool is asked about again`);
      return [];
    }
    const allowed = (parsed as { format?: unknown; allowed?: unknown } | null)?.allowed;
    if ((parsed as { format?: unknown } | null)?.format !== FORMAT || !Array.isArray(allowed)) {
      this.warn(`consent: ${this.file} is not a format ${FORMAT} consent file; every tool is asked about again`);
      return [];
    }
    return allowed.flatMap((e) => validEntry(e) ?? []).slice(-MAX_REMEMBERED_CONSENTS);
  }

  private stamp(): string | undefined {
    try {
      const st = lstatSync(this.file);
      return `${st.ino}:${st.size}:${st.mtimeMs}`;
    } catch {
      return undefined;
    }
  }
}

function sameChoice(a: Pick<RememberedConsent, 'principal' | 'key'>, b: typeof a): boolean {
  return a.principal === b.principal && a.key === b.key;
}

function validEntry(raw: unknown): RememberedConsent | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const e = raw as Record<string, unknown>;
  if (!short(e.principal)) return undefined;
  if (!short(e.key) || !short(e.server) || !short(e.tool) || e.key !== `${e.server}/${e.tool}`) return undefined;
  if (typeof e.fingerprint !== 'string' || !/^[0-9a-f]{16}$/.test(e.fingerprint)) return undefined;
  if (typeof e.at !== 'number' || !Number.isFinite(e.at)) return undefined;
  return {
    principal: e.principal,
    key: e.key,
    server: e.server,
    tool: e.tool,
    fingerprint: e.fingerprint,
    at: e.at,
  } as RememberedConsent;
}

function short(v: unknown): v is string {
  return typeof v === 'string' && v.length > 0 && v.length <= MAX_KEY_CHARS;
}
