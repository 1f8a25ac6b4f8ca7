/**
 * Slow input: the query analysis reads an agent's query and `keywords` (find_tools; and the same
 * `Lens.search` the CLI and the dashboard call) on the event loop, with no length cap of its
 * own — caps on the meta-tools' arguments are another layer, and these searches do not pass
 * through them. Every step must be linear in the text's length: no regex that re-reads a run
 * from each of its characters (nested or overlapping quantifiers), and no library call that
 * does. Each input below is 128 KB, shaped to trigger the backtracking one of the quadratic
 * steps had (a run of closing punctuation, of sentence marks, one long word for the Porter2
 * library; runs of other scripts, combining marks and compatibility forms, which are folded and
 * cut into character pairs) or drawn from a seeded generator, and is analysed and searched within a generous
 * budget. Measured through MemoryToolIndex.search on 2 loaded cores: at most 0.7 s a step now; before
 * the fix a run of ")" took 27 s, of "!" 64 s, one long word over 5 minutes.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CatalogTool } from '../../server/src/core/catalog';
import { requestAction } from '../../server/src/core/search/actions';
import { mentionedServers, serverNames } from '../../server/src/core/search/productMentions';
import { splitLiterals, trimProsePunctuation } from '../../server/src/core/search/queryLiterals';
import { splitRequestWords, splitSentences, splitWords, stemWord } from '../../server/src/core/search/tokenize';
import { MemoryToolIndex } from '../../server/src/index/memoryIndex';
import { readRecordedCatalog } from '../fixtures/catalog/recordedCatalog';

const SIZE = 128 * 1024;
/** Generous: 14× the slowest step measured on a loaded machine (2 cores, load 16 while other suites run), under half the fastest quadratic one before the fix. */
const BUDGET_MS = 10_000;

function recordedTools(): CatalogTool[] {
  const rec = readRecordedCatalog();
  return Object.entries(rec.servers).flatMap(([server, s]) =>
    s.tools.map((t) => ({
      key: `${server}/${t.name}`,
      name: `${server}_${t.name}`,
      server,
      originalName: t.name,
      description: t.description ?? '',
      inputSchema: t.inputSchema,
    })),
  );
}

const repeat = (unit: string, tail = '') => unit.repeat(Math.ceil(SIZE / unit.length)) + tail;

/** Each shape is what made one step quadratic before (named), or a plain request made long. */
const ADVERSARIAL: [string, string][] = [
  ['a run of closing punctuation (the literal trimmer)', repeat(')', 'a')],
  ['a run of commas before a word (the literal trimmer)', repeat(',', 'x')],
  ['mixed closers (the literal trimmer)', repeat('?]', '_')],
  ['a run of exclamation marks (the sentence split)', repeat('!', 'x')],
  ['a run of full stops (the sentence split)', repeat('.', 'a')],
  ['alternating marks (the sentence split)', repeat('?.', 'Z')],
  ['one long lowercase word (Porter2)', repeat('a')],
  ['one long capitalised word (Porter2 after lowercasing)', repeat('A')],
  ['one long word ending in a suffix (Porter2)', repeat('sses')],
  ['unclosed curly quotes', repeat('\u2018')],
  ['a dotted e-mail-like token', `a@${repeat('b.', '1')}`],
  ['a long request of ordinary words', repeat('please list the open files and close them. ')],
  // Other scripts (wordRuns.ts): folding, runs cut at script changes, character pairs.
  ['one long run of Chinese (character pairs)', repeat('截取网页的屏幕截图')],
  ['Chinese with Latin names inside (script boundaries, product mentions)', repeat('在GitHub上创建issue')],
  ['scripts alternating at every character', repeat('a中')],
  ['capitals after Chinese characters (product mentions)', repeat('上G')],
  ['Japanese kana with voiced marks (NFKD then NFC)', repeat('ガイドを\u3099')],
  ['combining accents piled on one letter (folding)', `e${'\u0301'.repeat(SIZE)}`],
  ['full-width letters and half-width kana (compatibility forms)', repeat('ＧｉｔＨｕｂｶﾞｲﾄﾞ')],
  ['German with umlauts and sharp s', repeat('Lösche die Datei Straße ')],
  ['Thai, an unspaced script with vowel marks', repeat('ภาษาไทย')],
];

/** A seeded LCG: the same fuzz every run, so a failure names an input that can be replayed. */
function generator(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
}

const FUZZ_CHARS = [
  ...'aAzZ19 .!?,;:-_/\\#@"\'`()[]{}<>*~+=|^$%&\n\t',
  ...['\u2018', '\u2019', '\u201c', '\u201d', 'é', 'ß'],
  ...['中', '文', 'ー', 'カ', '\u3099', '\u0301', 'Ｇ', '한', 'ไ', '\u0e34', 'ё'],
];

function fuzzInputs(count: number): [string, string][] {
  const rnd = generator(20_231_121);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
  return Array.from({ length: count }, (_, i) => {
    const alphabet = Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => pick(FUZZ_CHARS));
    const unit = Array.from({ length: 1 + Math.floor(rnd() * 5) }, () => pick(alphabet)).join('');
    return [`fuzz #${i} (${JSON.stringify(unit)} repeated)`, repeat(unit, pick(FUZZ_CHARS))];
  });
}

function within(label: string, run: () => unknown): void {
  const start = performance.now();
  run();
  const ms = performance.now() - start;
  assert.ok(ms < BUDGET_MS, `${label}: ${Math.round(ms)} ms (budget ${BUDGET_MS} ms)`);
}

const tools = recordedTools();
const names = serverNames(tools, stemWord, []);

/** Every analysis step on its own, then the whole search with the text as the query and as keywords. */
async function analyseAndSearch(index: MemoryToolIndex, label: string, text: string): Promise<void> {
  within(`${label}: literals`, () => splitLiterals(text));
  within(`${label}: sentences`, () => splitSentences(text));
  within(`${label}: words and stems`, () => splitWords(text).map(stemWord));
  within(`${label}: action`, () => requestAction(text, stemWord));
  within(`${label}: product mentions`, () => mentionedServers(names, text, splitRequestWords(text), stemWord));
  for (const [how, query, keywords] of [
    ['query', text, undefined],
    ['keywords', 'find', [text]],
  ] as const) {
    const start = performance.now();
    await index.search(query, { limit: 10, ...(keywords ? { keywords: [...keywords] } : {}) });
    const ms = performance.now() - start;
    assert.ok(ms < BUDGET_MS, `${label}: search with it as the ${how}: ${Math.round(ms)} ms (budget ${BUDGET_MS} ms)`);
  }
}

test('slow input: 128 KB shaped to trigger backtracking is analysed and searched in linear time', async () => {
  const index = new MemoryToolIndex('keyword only');
  await index.sync(tools);
  for (const [label, text] of ADVERSARIAL) await analyseAndSearch(index, label, text);
});

test('slow input: seeded random 128 KB inputs are analysed and searched in linear time', async () => {
  const index = new MemoryToolIndex('keyword only');
  await index.sync(tools);
  for (const [label, text] of fuzzInputs(16)) await analyseAndSearch(index, label, text);
});

test('slow input: a tool whose description is one 128 KB word is indexed in linear time', async () => {
  const index = new MemoryToolIndex('keyword only');
  const hostile: CatalogTool = {
    key: 'x/t',
    name: 'x_t',
    server: 'x',
    originalName: 't',
    description: repeat('a'),
    inputSchema: { type: 'object' },
  };
  within('indexing', () => void index.sync([...tools, hostile]));
});

test('the linear rewrites answer exactly as the regexes they replace, on short text', () => {
  const OLD_TRIM = /^[([{<"'`]+|[)\]}>"'`,;:!?]+$|(?<=\w)\.$/g;
  const OLD_SENTENCES = /[.!?]+(?:\s|$)/;
  const rnd = generator(42);
  const chars = [...'([{<"\'`)]}>,;:!?.a1_- é\n'];
  for (let i = 0; i < 20_000; i++) {
    const text = Array.from({ length: Math.floor(rnd() * 9) }, () => chars[Math.floor(rnd() * chars.length)]).join('');
    assert.equal(trimProsePunctuation(text), text.replace(OLD_TRIM, ''), JSON.stringify(text));
    assert.deepEqual(splitSentences(text), text.split(OLD_SENTENCES), JSON.stringify(text));
  }
  // Porter2 as before up to 64 letters (the longest word in the bench datasets has 37); longer stays whole.
  assert.equal(stemWord('screenshots'), 'screenshot');
  assert.equal(stemWord(`${'ba'.repeat(29)}ations`), 'ba'.repeat(29));
  assert.equal(stemWord(`${'ba'.repeat(30)}ations`), `${'ba'.repeat(30)}ations`);
});
