/**
 * The o200k_base token counter MCP Lens runs with: the ranks as one compact table (core/bpe),
 * loaded on the first count. The bundles carry them as dist/o200k.ranks (written by
 * esbuild.mjs); run from source, they are read from the rank file gpt-tokenizer publishes,
 * `gpt-tokenizer/data/o200k_base.tiktoken` (tiktoken's own format: one base64 token and its
 * rank per line). When neither is there, the first count fails with an error that says so:
 * there is no second tokenizer to fall back on. The counts equal gpt-tokenizer's
 * (test/unit/bpeCounter.test.ts) in a fraction of its memory (the table is a few typed arrays;
 * gpt-tokenizer keeps 200,000 strings and a map of them).
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

/** The published rank file: an export of gpt-tokenizer's package.json (`./data/*`). */
export const O200K_TIKTOKEN = 'gpt-tokenizer/data/o200k_base.tiktoken';
/** o200k_base's ordinary tokens (ranks 0–199,997; its special tokens are counted as text). */
const O200K_RANKS = 199_998;

/**
 * The table from `bundled` when it is there, else from the published rank file; an error
 * naming both when neither is. `resolve` finds the published file (a parameter for the test).
 */
export function loadRanks(
  bundled = join(__dirname, O200K_RANKS_FILE),
  resolve: (id: string) => string = require.resolve,
): RankTable {
  if (existsSync(bundled)) return RankTable.fromBinary(readFileSync(bundled));
  let file: string;
  try {
    file = resolve(O200K_TIKTOKEN);
  } catch {
    throw new Error(
      `MCP Lens cannot count tokens: neither ${bundled} (the build writes it beside the bundle) nor ${O200K_TIKTOKEN} (a source checkout's npm install) is there`,
    );
  }
  return RankTable.fromTokens(ranksFromTiktokenFile(readFileSync(file, 'latin1'), file));
}

/** Every rank's bytes from tiktoken's format (`<base64 token> <rank>` per line, ranks in order); throws naming the file and line on anything else. */
export function ranksFromTiktokenFile(text: string, file: string): Uint8Array[] {
  const out: Uint8Array[] = [];
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end);
    start = end + 1;
    if (line === '') continue;
    const space = line.indexOf(' ');
    if (space < 1 || Number(line.slice(space + 1)) !== out.length)
      throw new Error(`${file} line ${out.length + 1}: expected "<base64 token> ${out.length}"`);
    out.push(Uint8Array.from(Buffer.from(line.slice(0, space), 'base64')));
  }
  if (out.length !== O200K_RANKS) throw new Error(`${file}: ${out.length} ranks, expected ${O200K_RANKS}`);
  return out;
}

/** Every rank's bytes, from gpt-tokenizer's published rank file. */
export function ranksFromGptTokenizer(): Uint8Array[] {
  const file = require.resolve(O200K_TIKTOKEN);
  return ranksFromTiktokenFile(readFileSync(file, 'latin1'), file);
}

/** The compact table as the bundles carry it (esbuild.mjs writes it next to dist/cli.js). */
export function o200kRanksFile(): Uint8Array {
  return RankTable.fromTokens(ranksFromGptTokenizer()).serialize();
}
