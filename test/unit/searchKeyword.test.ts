import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CatalogTool } from '../../server/src/core/catalog';
import { Bm25fIndex, type FieldConfig } from '../../server/src/core/search/bm25f';
import { docTokensOf, type FieldTerms } from '../fixtures/fieldTerms';
import { DEFAULT_KEYWORD_CONFIG } from '../../server/src/core/search/keywordConfig';
import { KeywordIndex } from '../../server/src/core/search/keywordIndex';
import { describedTool, SMALL_CATALOG } from '../fixtures/catalogRows';

const OFF = { weight: 0, b: 0 };

function doc(partial: Partial<FieldTerms>): FieldTerms {
  return { name: [], server: [], description: [], params: [], group: '', shared: [], ...partial };
}

test('Bm25fIndex: field weights and length normalisation follow the BM25F formula exactly', () => {
  const fields: FieldConfig = {
    name: { weight: 2, b: 0 },
    server: OFF,
    description: { weight: 1, b: 1 },
    params: OFF,
    context: OFF,
  };
  // description lengths 1 and 3 → avg 2 → norms 0.5 and 1.5
  const index = new Bm25fIndex(
    docTokensOf([doc({ name: ['a'], description: ['x'] }), doc({ description: ['a', 'y', 'z'] })]),
    fields,
    1,
  );
  const idfA = Math.log(1 + (2 - 2 + 0.5) / (2 + 0.5));
  const a = index.termId('a')!;
  assert.ok(Math.abs(index.idf(a) - idfA) < 1e-12);
  const { docs, scores } = index.score([{ id: a, weight: 1 }]);
  // d0: tf~ = 2·1/1 = 2 → idf·2·2/3; d1: tf~ = 1·1/1.5 = 2/3 → idf·(2/3)·2/(5/3)
  const expected = [(idfA * 2 * 2) / 3, (idfA * (2 / 3) * 2) / (1 + 2 / 3)];
  assert.deepEqual([...docs], [0, 1]);
  for (const d of [0, 1])
    assert.ok(Math.abs(scores[d] - expected[d]) < 1e-6, `doc ${d}: ${scores[d]} vs ${expected[d]}`);
  assert.equal(index.termId('missing'), undefined);
});

const CATALOG = SMALL_CATALOG;
const tool = describedTool;

const keys = (hits: { key: string }[]) => hits.map((h) => h.key);

test('KeywordIndex ranks a tiny catalog in the expected order', () => {
  const index = new KeywordIndex(CATALOG);
  assert.deepEqual(keys(index.searchSync('take screenshot of the page', { limit: 3 })), [
    'playwright/browser_take_screenshot',
    'playwright/browser_navigate',
  ]);
  assert.deepEqual(keys(index.searchSync('read file contents', { limit: 2 })), [
    'filesystem/read_file',
    'filesystem/delete_file',
  ]);
  // stemming: "forecasts" meets "forecast"; camelCase split: getForecast
  assert.deepEqual(keys(index.searchSync('weather forecasts', { limit: 1 })), ['weather/getForecast']);
  // synonym: "erase" is not in the catalog but means remove/delete
  assert.deepEqual(keys(index.searchSync('erase a file', { limit: 1 })), ['filesystem/delete_file']);
  // abbreviation: repo → repository, name words beat description words
  assert.deepEqual(keys(index.searchSync('create repo', { limit: 1 })), ['github/create_repository']);
});

test('KeywordIndex: server filter, keywords, limit, why and mode', async () => {
  const index = new KeywordIndex(CATALOG);
  assert.deepEqual(keys(index.searchSync('file', { limit: 10, server: 'playwright' })), []);
  assert.deepEqual(keys(index.searchSync('path', { limit: 10, server: 'filesystem' })).sort(), [
    'filesystem/delete_file',
    'filesystem/read_file',
  ]);
  // keywords count like the query; the sibling tool follows through the server-context field
  assert.deepEqual(keys(index.searchSync('', { limit: 5, keywords: ['screenshot'] })), [
    'playwright/browser_take_screenshot',
    'playwright/browser_navigate',
  ]);
  assert.equal(index.searchSync('repository', { limit: 1 }).length, 1);
  assert.deepEqual(index.searchSync('the of and', { limit: 5 }), []);
  const [hit] = index.searchSync('screenshot page', { limit: 1 });
  assert.equal(hit.why, 'matched: screenshot, page');
  assert.deepEqual(hit.signals, ['keyword']);
  const list = await index.search('screenshot', { limit: 1 });
  assert.deepEqual(list.mode, { kind: 'keyword', label: 'keyword only' });
});

test('KeywordIndex.setTools replaces the document set', () => {
  const index = new KeywordIndex();
  assert.deepEqual(index.searchSync('file', { limit: 5 }), []);
  index.setTools(CATALOG);
  assert.equal(index.searchSync('forecast', { limit: 5 })[0]?.key, 'weather/getForecast');
  index.setTools([tool('other', 'ping', 'Check the server is alive')]);
  assert.deepEqual(keys(index.searchSync('forecast', { limit: 5 })), []);
  assert.deepEqual(keys(index.searchSync('alive', { limit: 5 })), ['other/ping']);
});

test('KeywordIndex keys with slashes stay whole', () => {
  const index = new KeywordIndex([tool('api', 'v1/users/list', 'List users')]);
  assert.deepEqual(keys(index.searchSync('users', { limit: 5 })), ['api/v1/users/list']);
});

test('Bm25fIndex: postings of interleaved terms keep every document, in order', () => {
  const fields: FieldConfig = { name: { weight: 1, b: 0 }, server: OFF, description: OFF, params: OFF, context: OFF };
  const index = new Bm25fIndex(
    docTokensOf([
      doc({ name: ['x', 'y'] }),
      doc({ name: ['z'] }),
      doc({ name: ['y', 'x', 'x'] }),
      doc({ name: ['y'] }),
    ]),
    fields,
    1.2,
  );
  const df = (t: string) => index.docFrequency(index.termId(t)!);
  assert.deepEqual([df('x'), df('y'), df('z')], [2, 3, 1]);
  const { docs, scores } = index.score([{ id: index.termId('x')!, weight: 1 }]);
  assert.deepEqual([...docs], [0, 2]);
  // tf 1 vs 2 with b 0: (k1+1)·tf/(k1+tf) → 1 vs 2.2·2/3.2
  assert.ok(Math.abs(scores[2] / scores[0] - (2.2 * 2) / 3.2) < 1e-9);
});

const PRICES: CatalogTool[] = [
  tool('stocks', 'get_quote', 'Stock quote with price history'),
  tool('crypto', 'coin_price', 'Current price of a coin'),
  tool('maps', 'geocode', 'Address to coordinates'),
];
const PLAIN = { ...DEFAULT_KEYWORD_CONFIG, synonyms: 0, bigrams: 0, nameBonus: 0, coverage: 0, queryK3: 0 };
const scoreOf = (index: KeywordIndex, query: string, key: string) =>
  index.searchSync(query, { limit: 10 }).find((h) => h.key === key)!.score;

test('KeywordIndex query-coverage boost multiplies by 1 + the idf-weighted share of query words held', () => {
  const plain = new KeywordIndex(PRICES, PLAIN);
  const covered = new KeywordIndex(PRICES, { ...PLAIN, coverage: 1 });
  const idf = (df: number) => Math.log(1 + (3 - df + 0.5) / (df + 0.5));
  // "price" is in two tools (df 2), "history" in one (df 1)
  const share = idf(2) / (idf(2) + idf(1));
  const ratio = (key: string) => scoreOf(covered, 'price history', key) / scoreOf(plain, 'price history', key);
  assert.ok(Math.abs(ratio('stocks/get_quote') - 2) < 1e-9, 'holds every query word');
  assert.ok(Math.abs(ratio('crypto/coin_price') - (1 + share)) < 1e-9, 'holds only "price"');
});

test('KeywordIndex query-term frequency: a word typed twice weighs 2(k3+1)/(k3+2)', () => {
  const once = new KeywordIndex(PRICES, PLAIN);
  const k3 = new KeywordIndex(PRICES, { ...PLAIN, queryK3: 3 });
  assert.equal(scoreOf(once, 'price price', 'crypto/coin_price'), scoreOf(once, 'price', 'crypto/coin_price'));
  assert.ok(
    Math.abs(scoreOf(k3, 'price price', 'crypto/coin_price') / scoreOf(k3, 'price', 'crypto/coin_price') - 1.6) < 1e-9,
  );
});
