import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lightStem, splitWords, stemWord, termsOf } from '../../server/src/core/search/tokenize';

test('splitWords splits identifiers of every common shape', () => {
  const cases: [string, string[]][] = [
    ['browser_take_screenshot', ['browser', 'take', 'screenshot']],
    ['getFileInfo', ['get', 'file', 'info']],
    ['kebab-case-name', ['kebab', 'case', 'name']],
    ['github.repos/list', ['github', 'repos', 'list']],
    ['getHTTPResponse', ['get', 'http', 'response']],
    ['v2Items', ['v', '2', 'items']],
    ['base64encode', ['base', '64', 'encode']],
    ['Résumé parser', ['resume', 'parser']],
    ['  ', []],
  ];
  for (const [input, expected] of cases) assert.deepEqual(splitWords(input), expected, input);
});

test('stemWord applies Porter2 to ASCII words and leaves others alone', () => {
  assert.equal(stemWord('screenshots'), 'screenshot');
  assert.equal(stemWord('creating'), 'creat');
  assert.equal(stemWord('create'), 'creat');
  assert.equal(stemWord('résumé'), 'résumé');
  assert.equal(stemWord('64'), '64');
});

test('lightStem removes plurals and -ing/-ed only', () => {
  const cases: [string, string][] = [
    ['repositories', 'repository'],
    ['boxes', 'box'],
    ['files', 'file'],
    ['status', 'status'],
    ['address', 'address'],
    ['searching', 'search'],
    ['created', 'creat'],
    ['general', 'general'],
    ['bus', 'bus'],
  ];
  for (const [input, expected] of cases) assert.equal(lightStem(input), expected, input);
});

test('termsOf drops stop words, keeps order, stems on request', () => {
  assert.deepEqual(termsOf('Take a screenshot of the page', { stem: false, stopWords: true }), [
    'take',
    'screenshot',
    'page',
  ]);
  assert.deepEqual(termsOf('Take a screenshot of the pages', { stem: true, stopWords: true }), [
    'take',
    'screenshot',
    'page',
  ]);
  assert.deepEqual(termsOf('list all new files', { stem: false, stopWords: true }), ['list', 'all', 'new', 'files']);
  assert.deepEqual(termsOf('the of', { stem: false, stopWords: false }), ['the', 'of']);
});
