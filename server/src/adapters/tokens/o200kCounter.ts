/**
 * The o200k_base token counter MCP Lens runs with: the ranks as one compact table (core/bpe),
 * loaded on the first count. The bundles carry them as dist/o200k.ranks (written by
 * esbuild.mjs from gpt-tokenizer's data); run from source, they are read from gpt-tokenizer's
 * own file. Either way the counts equal gpt-tokenizer's (test/unit/bpeCounter.test.ts) at a
 * fraction of its memory (~5 MB instead of ~70 MB).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';
import { BpeCounter } from '../../core/bpe/bpeCounter';
import { RankTable } from '../../core/bpe/rankTable';
import type { TokenCounter } from '../../core/tokens';

/** Name of the serialized table beside the bundle. */
export const O200K_RANKS_FILE = 'o200k.ranks';

let counter: BpeCounter | undefined;

function bpe(): BpeCounter {
  // Special-token markers in third-party text are ordinary text here, as they are to a model API.
  counter ??= new BpeCounter(loadRanks(), new RegExp(O200K_TOKEN_SPLIT_REGEX.source, 'gu'));
  return counter;
}

/** The o200k_base tokenizer; its table loads on the first use. */
export const o200kTokenizer: TokenCounter = {
  count: (text) => bpe().count(text),
  prefix: (text, n) => bpe().prefix(text, n),
};

/** Counts o200k_base tokens. */
export function countO200kTokens(text: string): number {
  return bpe().count(text);
}

function loadRanks(): RankTable {
  const bundled = join(__dirname, O200K_RANKS_FILE);
  if (existsSync(bundled)) return RankTable.fromBinary(readFileSync(bundled));
  return RankTable.fromTokens(ranksFromGptTokenizer());
}

/**
 * Every rank's bytes, from gpt-tokenizer's bpeRanks/o200k_base.js: its two array literals
 * (strings, and byte arrays for the tokens that are not UTF-8) are evaluated one at a time and
 * dropped once encoded; requiring the module would keep its 200,000 strings for good.
 */
export function ranksFromGptTokenizer(): Uint8Array[] {
  const text = readFileSync(require.resolve('gpt-tokenizer/bpeRanks/o200k_base'), 'utf8');
  const encoder = new TextEncoder();
  const out: Uint8Array[] = [];
  for (const m of text.matchAll(/^const c\d+ = \[\n([\s\S]*?)\n\];$/gm)) {
    // A JavaScript array literal (JS escapes such as \v are not JSON), from an installed package.
    const items = new Function(`return [${m[1]!}];`)() as (string | number[])[];
    for (const item of items) out.push(typeof item === 'string' ? encoder.encode(item) : Uint8Array.from(item));
  }
  if (out.length < 199_000) throw new Error(`gpt-tokenizer's o200k ranks: read ${out.length}, expected ~200,000`);
  return out;
}

/** The compact table as the bundles carry it (esbuild.mjs writes it next to dist/cli.js). */
export function o200kRanksFile(): Uint8Array {
  return RankTable.fromTokens(ranksFromGptTokenizer()).serialize();
}
