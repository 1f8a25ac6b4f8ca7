/**
 * The catalog's reading for the keyword index (core/search/catalogTokensCodec.ts), kept beside
 * the catalog cache in the same private state folder and under the same rules: written whole
 * (temp file + rename), 0600, never through a link, and read back only when it is a regular
 * file of this user that no one else can read (adapters/privateFiles.ts). Its key names the
 * catalog and the build that read it; a stale or damaged file is a miss, never an error.
 * Writes wait until the catalog has been quiet for a moment (twenty servers connecting change
 * it twenty times) and happen at the latest when the index closes.
 */
import { statSync } from 'node:fs';
import { endianness } from 'node:os';
import type { Logger } from '../core/logger';
import type { CatalogTokens } from '../core/search/catalogTokens';
import { decodeCatalogTokens, encodeCatalogTokens, type CatalogTokensCache } from '../core/search/catalogTokensCodec';
import { LENS_VERSION } from '../core/version';
import { errorMessage } from '../core/errorMessage';
import { readPrivateFile, writePrivateFile } from './privateFiles';

/** How long the catalog must stay unchanged before its reading is written. */
const WRITE_DELAY_MS = 1000;
/**
 * Catalogs of more tools are read at every start: at organisation scale the stored form is tens
 * of MB, whose writing and reading would weigh on the gateway's peak memory (bench --scale).
 */
const MAX_TOOLS = 20_000;
const MAX_FILE_BYTES = 256 * 1024 * 1024;

export class CatalogTokensFile implements CatalogTokensCache {
  readonly build: string;
  readonly maxTools = MAX_TOOLS;
  private pending: { key: string; tokens: CatalogTokens } | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly file: string,
    private readonly log: Logger,
  ) {
    this.build = buildIdentity();
  }

  get(key: string, tools: number): CatalogTokens | undefined {
    // Its own list of name terms: the index empties the one it is given once built.
    if (this.pending?.key === key) return { ...this.pending.tokens, nameTerms: this.pending.tokens.nameTerms.slice() };
    const read = readPrivateFile(this.file, MAX_FILE_BYTES);
    if ('refused' in read) this.log.debug(`keyword index: not reading ${this.file}: ${read.refused}`);
    if (!('text' in read)) return undefined;
    // The key is near the start: another catalog's file is not parsed.
    if (!read.text.slice(0, 200).includes(JSON.stringify(key))) return undefined;
    return decodeCatalogTokens(read.text, key, tools);
  }

  set(key: string, tokens: CatalogTokens): void {
    this.pending = { key, tokens };
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), WRITE_DELAY_MS);
    this.timer.unref();
  }

  /** Writes what is waiting now (the index is closing). */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const pending = this.pending;
    this.pending = undefined;
    if (!pending) return;
    try {
      writePrivateFile(this.file, encodeCatalogTokens(pending.key, pending.tokens));
    } catch (err) {
      this.log.debug(`keyword index: ${this.file} not written (${errorMessage(err)})`);
    }
  }
}

/**
 * This build of MCP Lens: its version and the file its code runs from (size and time), so
 * tokens read by another build, whose tokenizer may differ, are never taken for this one's.
 */
function buildIdentity(): string {
  let file = '';
  try {
    const st = statSync(__filename);
    file = `${st.size}:${st.mtimeMs}`;
  } catch {
    // No file to name (an embedding runtime): the version alone.
  }
  return `${LENS_VERSION}|${endianness()}|${file}`;
}
