// Requests and tools in other languages and scripts (wordRuns.ts, tokenize.ts): accents fold
// for matching, unspaced scripts become character pairs, Latin words inside them stand on
// their own, and spaced scripts' words stay whole.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KeywordIndex } from '../../server/src/core/search/keywordIndex';
import { camelCaseParts, joinedCamelWords, splitRequestWords, splitWords } from '../../server/src/core/search/tokenize';
import { foldForMatching, unspacedTerms, wordRuns } from '../../server/src/core/search/wordRuns';
import { embeddingText } from '../../server/src/core/search/documentText';
import { describedTool, SMALL_CATALOG } from '../fixtures/catalogRows';

test('accents fold for matching in Latin, Greek, Arabic and Hebrew; letters NFKD keeps whole fold by hand', () => {
  const cases: [string, string[]][] = [
    ['Lösche die Datei', ['losche', 'die', 'datei']],
    ['Créer un événement', ['creer', 'un', 'evenement']],
    ['Straße, Ærø, Łódź, Œuvre', ['strasse', 'aero', 'lodz', 'oeuvre']],
    ['Αναζήτηση στο διαδίκτυο', ['αναζητηση', 'στο', 'διαδικτυο']],
    // Precomposed and decomposed forms meet.
    ['Re\u0301sume\u0301 résumé', ['resume', 'resume']],
  ];
  for (const [input, expected] of cases) assert.deepEqual(splitWords(input), expected, input);
});

test('marks that make another letter stay: Cyrillic й, Devanagari vowel signs, Japanese dakuten; ё folds to е', () => {
  assert.deepEqual(splitWords('Удалить файл'), ['удалить', 'файл']);
  assert.deepEqual(splitWords('Ёлка'), ['елка']);
  assert.deepEqual(splitWords('हिन्दी में खोजें'), ['हिन्दी', 'में', 'खोजें']);
  // NFKD splits が into か + U+3099; NFC puts it back, so が and か stay apart.
  assert.deepEqual(splitWords('ガイド'), ['ガイ', 'イド']);
  assert.notDeepEqual(splitWords('ガイド'), splitWords('カイド'));
  // Hangul syllables come back whole after NFKD took them into jamo.
  assert.deepEqual(splitWords('목록'), ['목록']);
});

test('compatibility forms become plain: full-width Latin and punctuation, half-width kana, ligatures', () => {
  assert.deepEqual(splitWords('ＧｉｔＨｕｂ'), ['git', 'hub']);
  assert.deepEqual(joinedCamelWords('ＧｉｔＨｕｂ'), ['github']);
  assert.deepEqual(splitWords('ｶﾞｲﾄﾞ'), splitWords('ガイド'));
  assert.deepEqual(splitWords('ﬁle'), ['file']);
  assert.equal(foldForMatching('查询！'), '查询!');
  // Display text is not what is folded: only the copy the terms are made from.
  const text = 'Lösche';
  foldForMatching(text);
  assert.equal(text, 'Lösche');
});

test('unspaced scripts become overlapping character pairs; a run of one stays one', () => {
  assert.deepEqual(splitWords('截取网页截图'), ['截取', '取网', '网页', '页截', '截图']);
  assert.deepEqual(splitWords('表'), ['表']);
  // Characters outside the BMP (CJK Extension B) are one character each, not two halves.
  assert.deepEqual(splitWords('𠀀𠀁𠀂'), ['𠀀𠀁', '𠀁𠀂']);
  assert.deepEqual(unspacedTerms('ภาษา'), ['ภา', 'าษ', 'ษา']);
  // A character with its marks counts as one.
  assert.deepEqual(unspacedTerms('กินข้าว'), ['กิน', 'นข้', 'ข้า', 'าว'], 'a Thai vowel or tone mark stays on its letter');
  assert.deepEqual(
    wordRuns('데이터베이스 테이블').map((r) => r.unspaced),
    [true, true],
  );
});

test('Latin words inside a Chinese or Japanese sentence stand on their own (camel-case names too)', () => {
  assert.deepEqual(splitRequestWords('帮我在GitHub上创建一个新的issue'), [
    '帮我',
    '我在',
    'github',
    '上创',
    '创建',
    '建一',
    '一个',
    '个新',
    '新的',
    'issue',
  ]);
  assert.deepEqual(splitWords('在GitHub上'), ['在', 'git', 'hub', '上']);
  assert.deepEqual(camelCaseParts('用GitHub和HubSpot'), ['git', 'hub', 'hub', 'spot']);
  assert.deepEqual(splitWords('GitHubのリポジトリ'), ['git', 'hub', 'のリ', 'リポ', 'ポジ', 'ジト', 'トリ']);
  assert.deepEqual(splitWords('第2页'), ['第', '2', '页']);
});

test('spaced scripts keep their words whole: German compounds, Cyrillic, Greek', () => {
  assert.deepEqual(splitWords('Datenbanktabellen auflisten'), ['datenbanktabellen', 'auflisten']);
  assert.deepEqual(splitWords('Показать список задач'), ['показать', 'список', 'задач']);
  assert.deepEqual(splitWords('λίστα αρχείων'), ['λιστα', 'αρχειων']);
});

test('the same text gives the same terms every time: no dictionary, no locale', () => {
  const text = '把这个网页截图保存下来，然后在Slack里发给团队';
  const first = splitRequestWords(text);
  for (let i = 0; i < 3; i++) assert.deepEqual(splitRequestWords(text), first);
  assert.ok(first.includes('截图') && first.includes('slack'), first.join('|'));
});

test('English identifiers split exactly as before (embedding text is not folded)', () => {
  assert.deepEqual(splitWords('getHTTPResponse v2Items base64encode'), [
    'get',
    'http',
    'response',
    'v',
    '2',
    'items',
    'base',
    '64',
    'encode',
  ]);
  const tool = describedTool('files', 'résumé_parser', 'Parses a résumé');
  assert.match(embeddingText(tool), /^résumé parser: Parses a résumé/);
});

const keys = (hits: { key: string }[]) => hits.map((h) => h.key);

test('a Chinese request finds the tool described in Chinese; a German one matches without its umlauts', () => {
  const index = new KeywordIndex([
    ...SMALL_CATALOG,
    describedTool('tianqi', 'forecast', '查询城市未来几天的天气预报', { city: '城市名称' }),
    describedTool('tianqi', 'air_quality', '查询城市的空气质量指数'),
    // Listed first and shorter, so that "Datei" alone would put it first.
    describedTool('dateien', 'lesen', 'Datei lesen', { pfad: 'Pfad der Datei' }),
    describedTool('dateien', 'entfernen', 'Eine Datei dauerhaft löschen', { pfad: 'Pfad der Datei' }),
  ]);
  assert.equal(keys(index.searchSync('明天北京的天气预报怎么样', { limit: 3 }))[0], 'tianqi/forecast');
  assert.equal(keys(index.searchSync('北京的空气质量', { limit: 3 }))[0], 'tianqi/air_quality');
  // Typed without the umlaut, and in full-width capitals.
  assert.equal(keys(index.searchSync('Datei loschen', { limit: 3 }))[0], 'dateien/entfernen');
  assert.equal(keys(index.searchSync('ＤＡＴＥＩ LÖSCHEN', { limit: 3 }))[0], 'dateien/entfernen');
});

test('a Chinese request with an English product name and object finds the English tool', () => {
  const index = new KeywordIndex(SMALL_CATALOG);
  // Before: 在github上列出所有issue was one word that matched nothing.
  assert.equal(keys(index.searchSync('在GitHub上列出所有issues', { limit: 3 }))[0], 'github/list_issues');
  assert.equal(keys(index.searchSync('GitHubで新しいrepositoryを作成', { limit: 3 }))[0], 'github/create_repository');
});
