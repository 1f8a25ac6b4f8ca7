/**
 * Negation scope (core/search/negationScope.ts): which words of a description say what the tool
 * does not do, and the keyword index's use of it — those words count against nothing and for
 * nothing but a request that negates them too, and a deprecated tool yields to the tool it names.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deprecatedFor, negatedSpans, splitNegation } from '../../server/src/core/search/negationScope';
import { DEFAULT_KEYWORD_CONFIG, type KeywordConfig } from '../../server/src/core/search/keywordConfig';
import { KeywordIndex } from '../../server/src/core/search/keywordIndex';
import { describedTool } from '../fixtures/catalogRows';

const negated = (text: string, window = 5) => negatedSpans(text, window).map(([a, b]) => text.slice(a, b));

test('negatedSpans: what a trigger opens, up to the end of the clause or the window', () => {
  const cases: [string, string[]][] = [
    [
      'Returns metadata without reading the actual content. Only works in allowed folders.',
      ['without reading the actual content'],
    ],
    ['This does not create the application; it returns a URL.', ['not create the application']],
    ["Doesn't follow redirects, but keeps cookies.", ["Doesn't follow redirects"]],
    ['Never deletes files or folders from the disk at all, ever', ['Never deletes files or folders from']],
    ['Returns the id rather than the full object.', ['rather than the full object']],
    ['Lists tasks. Use this instead of search_tasks when you need one project.', ['instead of search_tasks']],
    ['Read the complete contents of a file. DEPRECATED: Use read_text_file instead.', ['Use read_text_file instead']],
    ['Use project files, not for remote URLs.', ['not for remote URLs']],
    // A list after a colon is what the tool is not for.
    [
      '**Not recommended for:** multiple pages, unknown locations. Best for one page.',
      ['Not recommended for:** multiple pages, unknown locations'],
    ],
    // German, French, Spanish triggers that come before what they negate.
    ['Liest die Datei ohne den Inhalt zu ändern.', ['ohne den Inhalt zu ändern']],
    ['Lit le fichier sans le modifier.', ['sans le modifier']],
    ['Lee el archivo, nunca lo borra.', ['nunca lo borra']],
  ];
  for (const [text, want] of cases) assert.deepEqual(negated(text), want, text);
});

test('negatedSpans: no scope in a condition, a passive, "not only", or with the window 0', () => {
  for (const text of [
    'Provides detailed error messages if the file cannot be read.',
    'Great for finding files when you do not know their location.',
    'If not provided, the default database is used.',
    'The last open page cannot be closed.',
    'Members will not be ranked by points.',
    'Not only reads but also writes files.',
    'Whether or not it exists, it is created.',
  ])
    assert.deepEqual(negated(text), [], text);
  assert.deepEqual(negatedSpans('without reading', 0), []);
});

test('negatedSpans: linear in the text, whatever it holds', () => {
  const text = 'not '.repeat(50_000) + 'without, '.repeat(50_000);
  const started = process.hrtime.bigint();
  negatedSpans(text, 8);
  // A quadratic scan of 100,000 words would take minutes; this bound only catches that.
  assert.ok(Number(process.hrtime.bigint() - started) / 1e9 < 20);
});

test('splitNegation keeps the rest of the text and hands the negated words apart', () => {
  const { affirmed, negated: words } = splitNegation('Get file info without reading the content.', 5);
  assert.equal(affirmed.replace(/\s+/g, ' '), 'Get file info .');
  assert.equal(words, 'without reading the content');
  assert.deepEqual(splitNegation('Reads a file.', 5), { affirmed: 'Reads a file.', negated: '' });
});

test('deprecatedFor: the names a deprecated tool points to, none when it points to none', () => {
  assert.deepEqual(deprecatedFor('Read a file. DEPRECATED: Use read_text_file instead.'), [
    'read_text_file',
    'instead',
  ]);
  assert.deepEqual(deprecatedFor('Deprecated in favor of `search_v2`.'), ['search_v2']);
  assert.deepEqual(deprecatedFor('This server is deprecated and no longer receives feature work.'), []);
  assert.deepEqual(deprecatedFor('Use read_text_file instead.'), []);
});

const CATALOG = [
  describedTool(
    'files',
    'get_file_info',
    'Retrieve metadata about a file: size and times. Perfect for understanding a file without reading its content.',
  ),
  describedTool('files', 'read_file', 'Read the contents of a file. DEPRECATED: Use read_text_file instead.'),
  describedTool('files', 'read_text_file', 'Read the complete contents of a file from the file system as text.'),
  describedTool('files', 'write_file', 'Write a file.'),
  describedTool('recorder', 'clear_session', 'Clear a recording session without generating a test.'),
  describedTool('recorder', 'generate_test', 'Generate a test from the recording session.'),
];

function ranked(query: string, config: Partial<KeywordConfig>): string[] {
  const index = new KeywordIndex(CATALOG, { ...DEFAULT_KEYWORD_CONFIG, ...config } as KeywordConfig);
  return index.searchSync(query, { limit: 4 }).map((h) => h.key.split('/')[1]!);
}

test('keyword index: negated description words do not count for the tool; a deprecated tool yields', () => {
  const off = { negation: 0, deprecatedYield: 0 };
  const on = { negation: 5, deprecatedYield: 0.5 };
  // Without the scope, "reading" in get_file_info's description counts as reading.
  assert.notEqual(ranked('read a file', off)[0], 'read_text_file');
  const now = ranked('read a file', on);
  assert.equal(now[0], 'read_text_file', now.join(', '));
  assert.ok(now.indexOf('read_file') > now.indexOf('read_text_file'), now.join(', '));
  // A request that says what it does not want meets a description that says the same.
  assert.equal(ranked("clear the recording, don't generate a test", on)[0], 'clear_session');
});
