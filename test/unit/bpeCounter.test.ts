// The compact o200k counter MCP Lens runs with counts exactly what gpt-tokenizer counts, on the
// recorded 19-server catalog and on edge cases; its serialized table round-trips; a
// pathological megabyte-long piece is counted in bounded time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countTokens as gptCount, decode, encode } from 'gpt-tokenizer/encoding/o200k_base';
import { countO200kTokens, o200kTokenizer, ranksFromGptTokenizer } from '../../server/src/adapters/tokens/o200kCounter';
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
    ...catalogTexts(),
  ];
  let total = 0;
  for (const text of samples) {
    assert.equal(countO200kTokens(text), exact(text), text.slice(0, 80));
    total += exact(text);
  }
  assert.ok(total > 100, `${total} tokens compared`);
});

test('the first n tokens are what decoding the first n tokens of gpt-tokenizer gives', () => {
  const texts = ['naïve café — 日本語のテキスト, emoji 🚀🔥 and mixed CASEWords123456789', ...catalogTexts().slice(0, 40)];
  for (const text of texts) {
    const tokens = encode(text);
    for (const n of [0, 1, 2, 7, 50, Math.floor(tokens.length / 2), tokens.length, tokens.length + 5]) {
      const expected = decode(tokens.slice(0, n)).replace(/\uFFFD+$/, '');
      assert.equal(o200kTokenizer.prefix(text, n), expected, `${text.slice(0, 40)} @ ${n}`);
    }
  }
});

test('the serialized table round-trips', () => {
  const tokens = ranksFromGptTokenizer();
  const table = RankTable.fromTokens(tokens);
  const again = RankTable.fromBinary(table.serialize());
  const counter = new BpeCounter(again, new RegExp(O200K_TOKEN_SPLIT_REGEX.source, 'gu'));
  const text = JSON.stringify({ name: 'search_repositories', description: 'Search for GitHub repositories by name and topic' });
  assert.equal(counter.count(text), exact(text));
  assert.equal(again.size, tokens.length);
});

test('a megabyte-long piece is counted in bounded time', () => {
  const started = performance.now();
  const n = countO200kTokens('x'.repeat(1024 * 1024));
  assert.ok(n > 0);
  assert.ok(performance.now() - started < 20_000, `${performance.now() - started} ms`);
});
