// The compact o200k counter MCP Lens runs with counts exactly what gpt-tokenizer counts, on the
// recorded 19-server catalog and on a varied text set; its table, read from the rank file
// gpt-tokenizer publishes, is gpt-tokenizer's own; it round-trips serialized; a missing table is
// a clear error, never a second tokenizer; a pathological megabyte-long piece is counted in
// bounded time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countTokens as gptCount, decode, encode } from 'gpt-tokenizer/encoding/o200k_base';
import bpeRanks from 'gpt-tokenizer/bpeRanks/o200k_base';
import {
  O200K_TIKTOKEN,
  loadRanks,
  o200kTokenizer,
  ranksFromGptTokenizer,
  ranksFromTiktokenFile,
} from '../../server/src/adapters/tokens/o200kCounter';
import { countTokens, useTokenCounter } from '../../server/src/core/tokens';
import { RankTable } from '../../server/src/core/bpe/rankTable';
import { BpeCounter } from '../../server/src/core/bpe/bpeCounter';
import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';
import { readRecordedCatalog } from '../fixtures/catalog/recordedCatalog';

const exact = (text: string) => gptCount(text, { allowedSpecial: 'all' } as never);

function catalogTexts(): string[] {
  const servers = readRecordedCatalog().servers;
  return Object.values(servers).flatMap((s) => [JSON.stringify(s.tools), ...s.tools.map((t) => JSON.stringify(t))]);
}

test('counts what gpt-tokenizer counts', () => {
  const samples = [
    'hello world',
    'Create an issue in a GitHub repository',
    '{"type":"object","properties":{"owner":{"type":"string"}},"required":["owner"]}',
    'naïve café — 日本語のテキスト, emoji 🚀🔥 and mixed CASEWords123456789',
    "it's they're we'll I'd  \n\n\t tabs   and spaces\r\n",
    'special <|endoftext|> markers <|im_start|>count<|im_end|> once',
    '\ud800 lone surrogate',
    '',
    'Добрый день! Как дела? Ελληνικά κείμενα. עברית מימין לשמאל. العربية أيضاً. हिन्दी पाठ। 한국어 텍스트. ไทย',
    'function f(a, b) {\n  return a?.b ?? [1, 2, 3].map((x) => x ** 2);\n}\n// comment\n#include <stdio.h>',
    '    indented\n\n\n\t\t\tmany\u00a0kinds\u2003of  \u3000space   \n',
    '3.14159 1,000,000 0x1F 1e-9 2024-06-01T12:00:00Z +1 (555) 010-9999',
    'https://example.com/path?q=a%20b&x=1#frag user@example.org C:\\Users\\me\\file.txt',
    'Supercalifragilisticexpialidocious pneumonoultramicroscopicsilicovolcanoconiosis ' + 'ab'.repeat(300),
    '👨‍👩‍👧‍👦 🏳️‍🌈 ✔️ 👍🏽 🇯🇵 ∑∫∂ ∞ ≠ ≤ ← → ★ ♥ ©®™',
    "I'M DON'T you've THEY'LL o'clock rock'n'roll",
    '\u0000\u001b[31mred\u001b[0m\u200b\u202e bidi',
    ...catalogTexts(),
  ];
  let total = 0;
  for (const text of samples) {
    assert.equal(o200kTokenizer.count(text), exact(text), text.slice(0, 80));
    total += exact(text);
  }
  assert.ok(total > 100, `${total} tokens compared`);
});

test('the first n tokens are what decoding the first n tokens of gpt-tokenizer gives', () => {
  const texts = [
    'naïve café — 日本語のテキスト, emoji 🚀🔥 and mixed CASEWords123456789',
    ...catalogTexts().slice(0, 40),
  ];
  for (const text of texts) {
    const tokens = encode(text);
    for (const n of [0, 1, 2, 7, 50, Math.floor(tokens.length / 2), tokens.length, tokens.length + 5]) {
      const expected = decode(tokens.slice(0, n)).replace(/\uFFFD+$/, '');
      assert.equal(o200kTokenizer.prefix(text, n), expected, `${text.slice(0, 40)} @ ${n}`);
    }
  }
});

test("the table from the published rank file is gpt-tokenizer's own, rank for rank", () => {
  const ours = ranksFromGptTokenizer();
  const theirs = bpeRanks as (string | number[])[];
  assert.equal(ours.length, theirs.length);
  const encoder = new TextEncoder();
  for (let r = 0; r < theirs.length; r++) {
    const t = theirs[r]!;
    const bytes = typeof t === 'string' ? encoder.encode(t) : Uint8Array.from(t);
    if (Buffer.compare(Buffer.from(ours[r]!), Buffer.from(bytes)) !== 0) assert.fail(`rank ${r} differs`);
  }
});

test('no table is a clear error, and a malformed rank file names its line; nothing falls back', () => {
  const missing = (): never => {
    throw Object.assign(new Error('Cannot find module'), { code: 'MODULE_NOT_FOUND' });
  };
  assert.throws(
    () => loadRanks('/nonexistent/o200k.ranks', missing),
    new RegExp(`MCP Lens cannot count tokens: neither /nonexistent/o200k.ranks .* nor ${O200K_TIKTOKEN}`),
  );
  assert.throws(
    () => ranksFromTiktokenFile('IQ== 0\nIg== 2\n', 'x.tiktoken'),
    /x.tiktoken line 2: expected "<base64 token> 1"/,
  );
  assert.throws(() => ranksFromTiktokenFile('IQ== 0\n', 'x.tiktoken'), /x.tiktoken: 1 ranks, expected 199998/);
});

test('core/tokens counts with the installed counter only', () => {
  // No gpt-tokenizer behind it: before a counter is installed (nothing in this file installs
  // one earlier), counting is a bug that says so.
  assert.throws(() => countTokens('x'), /^Error: no token counter: call useTokenCounter/);
  useTokenCounter(o200kTokenizer);
  assert.equal(countTokens('hello world'), exact('hello world'));
});

test('the serialized table round-trips', () => {
  const tokens = ranksFromGptTokenizer();
  const table = RankTable.fromTokens(tokens);
  const again = RankTable.fromBinary(table.serialize());
  const counter = new BpeCounter(again, new RegExp(O200K_TOKEN_SPLIT_REGEX.source, 'gu'));
  const text = JSON.stringify({
    name: 'search_repositories',
    description: 'Search for GitHub repositories by name and topic',
  });
  assert.equal(counter.count(text), exact(text));
  assert.equal(again.size, tokens.length);
});

test('a megabyte-long piece is counted in bounded time', () => {
  const started = performance.now();
  const n = o200kTokenizer.count('x'.repeat(1024 * 1024));
  assert.ok(n > 0);
  assert.ok(performance.now() - started < 20_000, `${performance.now() - started} ms`);
});
