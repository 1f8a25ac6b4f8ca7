// Untrusted text made safe (protocol/untrustedText.ts) and names compared as people read them
// (core/nameSkeleton.ts, core/config/toolFilter.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  cleanReplyInPlace,
  cleanReplyText,
  escapeForDisplay,
  hasHiddenCharacters,
  normalizeName,
  oneLine,
  quotedForDisplay,
  stripControls,
} from '../../protocol/untrustedText';
import { nameSkeleton, patternSkeleton } from '../../server/src/core/nameSkeleton';
import { createToolFilter } from '../../server/src/core/config/toolFilter';

test('stripControls removes escapes, controls, bidi and invisible characters, and keeps letters and lines', () => {
  assert.equal(stripControls('a\u001b[31mred\u001b[0m\u0000b\u202ec\u200bd\ufeffe\u00adf\u2028g'), 'aredbcdef\ng');
  assert.equal(stripControls('日本語 ünï\ttab\nline'), '日本語 ünï\ttab\nline');
  assert.equal(oneLine('a\nb\u2029c\u0007'), 'a b c');
});

test('escapeForDisplay writes every hidden character out, so a prompt line stays one line', () => {
  assert.equal(escapeForDisplay('x\ny\r\u001b[8m\u202e\u200b\\'), 'x\\ny\\r\\e[8m\\u{202e}\\u{200b}\\\\');
  assert.equal(quotedForDisplay('say "hi"\n'), '"say \\"hi\\"\\n"');
  assert.doesNotMatch(escapeForDisplay('\u0000\u0085\u2028\ufe0f'), /[\u0000-\u001f\u0085\u2028]|\ufe0f/);
});

test('hasHiddenCharacters: exactly what escapeForDisplay would write out (backslashes aside)', () => {
  for (const name of ['github', 'my.server', 'ünïcødé 名前', 'a\\b', 'say "hi"'])
    assert.equal(hasHiddenCharacters(name), false, name);
  for (const name of [
    'evil\u202etxt',
    'git\u200bhub',
    'a\nb',
    'tab\tx',
    'x\u001b[31m',
    'v\ufe0f',
    'c1\u0085',
    'ls\u2028',
    'tag\udb40\udc41',
  ]) {
    assert.equal(hasHiddenCharacters(name), true, JSON.stringify(name));
  }
});

test('cleanReplyText: escapes, controls but tab/LF/CR, bidi controls and tag characters go; data stays', () => {
  assert.equal(
    cleanReplyText(
      'a\u001b[31mred\u001b[0m b\u001b]0;title\u0007c \u0000\u0085\u009b \u202eX\u2066y\u2069 \udb40\udc48\udb40\udc49!',
    ),
    'ared bc  Xy !',
  );
  const kept = 'tab\tcr\r\nline \u{1f468}\u200d\u{1f4bb} \u200fRTL\u2028next \u0627\u200c\u0628 ✔\ufe0f';
  assert.equal(cleanReplyText(kept), kept);
  assert.equal(
    cleanReplyText('keep \u001b]no terminator, so only ESC ] goes'),
    'keep no terminator, so only ESC ] goes',
  );
});

test('cleanReplyInPlace: every string and key at any depth, nothing else; a key never becomes a prototype', () => {
  const reply = JSON.parse(
    '{"a\\u202eb": ["x\\u0007", {"n": 1, "t": true, "z": null, "s": "y\\u2066"}], "__pro\\u202eto__": {"polluted": 1}}',
  ) as Record<string, unknown>;
  assert.equal(cleanReplyInPlace(reply), reply);
  assert.deepEqual(reply, { ab: ['x', { n: 1, t: true, z: null, s: 'y' }], ['__proto__']: { polluted: 1 } });
  assert.equal(Object.getPrototypeOf(reply), Object.prototype);
  assert.equal(Object.prototype.hasOwnProperty.call(reply, '__proto__'), true);
  let deep: unknown = 'bottom\u202e';
  for (let i = 0; i < 100_000; i++) deep = { d: [deep] };
  cleanReplyInPlace(deep);
  let at = deep as { d: unknown[] } | string;
  while (typeof at !== 'string') at = at.d[0] as typeof at;
  assert.equal(at, 'bottom', 'no depth escapes it');
});

test('cleanReplyText: a lone surrogate becomes U+FFFD, so removing what stands between two cannot join them into a character', () => {
  // \udb40 + \udc41 is U+E0041, a tag character: removing only the BEL or the escape would make it.
  assert.equal(cleanReplyText('split \udb40\u0007\udc41 pair'), 'split \ufffd\ufffd pair');
  assert.equal(cleanReplyText('a\udb40\u001b[31m\udc41b'), 'a\ufffd\ufffdb');
  assert.equal(cleanReplyText('lone \ud83d end'), 'lone \ufffd end');
  const pairs = 'eye \u{1f441} vs17 \u{e0100} rat \u{1f400}';
  assert.equal(cleanReplyText(pairs), pairs, 'characters outside the BMP are pairs, not lone halves');
});

test('cleanReplyInPlace: a string is returned cleaned; shared objects are cleaned once, however many paths reach them', () => {
  assert.equal(cleanReplyInPlace('x\u001b[31my\u202e'), 'xy');
  const leaf = { 'k\u202e': 'v\u0007' };
  let shared: unknown = leaf;
  // 2^60 paths to the leaf: a walk per path would never end.
  for (let i = 0; i < 60; i++) shared = { a: shared, b: [shared] };
  assert.equal(cleanReplyInPlace(shared, { shared: true }), shared);
  assert.deepEqual(leaf, { k: 'v' });
});

test('normalizeName: NFKC, no invisible characters', () => {
  assert.equal(normalizeName('ｄｅｌｅｔｅ_repo'), 'delete_repo');
  assert.equal(normalizeName('delete\u200b_re\u00adpo'), 'delete_repo');
  assert.equal(normalizeName('\ud835\udc1d\ud835\udc1e\ud835\udc25'), 'del');
});

test('nameSkeleton folds look-alikes (TR39) and case; patternSkeleton keeps glob syntax', () => {
  assert.equal(nameSkeleton('d\u0435lete_repo'), nameSkeleton('delete_repo'));
  assert.equal(nameSkeleton('DELETE_REPO'), nameSkeleton('delete_repo'));
  assert.equal(nameSkeleton('de1ete'), nameSkeleton('delete'));
  assert.notEqual(nameSkeleton('create_repo'), nameSkeleton('delete_repo'));
  assert.equal(patternSkeleton('*/del|ete_*'), `*/${nameSkeleton('del')}|${nameSkeleton('ete_')}*`);
});

test('exclude meets the raw, normalized and look-alike name; include only the normalized one', () => {
  const f = createToolFilter(['gh/*'], ['*/delete_*']);
  for (const t of ['delete_repo', 'delete\u200b_repo', 'd\u0435lete_repo', 'ｄｅｌｅｔｅ_x', 'Delete_Repo'])
    assert.equal(f('gh', t), false, t);
  assert.equal(f('gh', 'list_repos'), true);
  assert.equal(f('ｇｈ', 'list_repos'), true, 'fullwidth is the same name');
  assert.equal(f('g\u0068\u200b', 'list_repos'), true, 'an invisible character changes nothing');
  assert.equal(f('gһ', 'list_repos'), false, 'a Cyrillic look-alike is another server: include does not let it in');
});

const SHOWN = { stripControls, oneLine, normalizeName };
const ALL = { ...SHOWN, cleanReplyText };

test('terminal escapes go whole, 7-bit and 8-bit (C1 CSI U+009B, OSC U+009D, DCS), everywhere', () => {
  const cases: [string, string][] = [
    ['a\u009b31mred\u009b0m!', 'ared!'],
    ['a\u001b[1;31mred\u001b[0m!', 'ared!'],
    ['\u009b2J\u009bHtop', 'top'],
    ['\u009d0;title\u0007x', 'x'],
    ['\u001b]8;;https://evil.example\u001b\\link\u001b]8;;\u001b\\', 'link'],
    ['\u001bPq#0;2;0;0;0\u001b\\x', 'x'],
    ['\u001b7saved\u001b8', 'saved'],
  ];
  for (const [name, clean] of Object.entries(ALL)) {
    for (const [input, want] of cases) assert.equal(clean(input), want, `${name}(${JSON.stringify(input)})`);
  }
  assert.equal(
    cleanReplyText('keep \u009d unterminated OSC'),
    'keep  unterminated OSC',
    'an unterminated OSC swallows nothing',
  );
});

test('bidi controls, tag characters and zero-width characters: gone from what is shown; replies keep what text needs', () => {
  const text = 'a\u202eb\u2066c\u2069 \u200fR\u061c \u200bz\u200cw\u2060j \udb40\udc41\udb40\udc42t';
  for (const [name, clean] of Object.entries(SHOWN)) assert.equal(clean(text), 'abc R zwj t', name);
  // Replies lose bidi embeddings/overrides/isolates and tags; LRM/RLM/ALM and zero-width (non-)joiners are text.
  assert.equal(cleanReplyText(text), 'abc \u200fR\u061c \u200bz\u200cw\u2060j t');
  for (const ch of [
    '\u202e',
    '\u2066',
    '\u200f',
    '\u061c',
    '\u200b',
    '\u200c',
    '\u2060',
    '\u{e0041}',
    '\u0600',
    '\u{1d173}',
  ]) {
    assert.equal(hasHiddenCharacters(`x${ch}y`), true, `U+${ch.codePointAt(0)!.toString(16)}`);
  }
});

test('emoji survive what is shown and replies; names lose variation selectors and joiners', () => {
  const emoji = 'done ✔️ by 👨‍💻 👍🏽 🏳️‍🌈 ❤️‍🔥 and 1️⃣';
  assert.equal(stripControls(emoji), emoji);
  assert.equal(oneLine(emoji), emoji);
  assert.equal(cleanReplyText(emoji), emoji);
  assert.equal(normalizeName('ok✔️'), 'ok✔');
  // A joiner between letters is not an emoji's: it only makes two names look alike.
  assert.equal(stripControls('git\u200dhub'), 'github');
  assert.equal(oneLine('\u200d👍'), '👍');
  assert.equal(hasHiddenCharacters('✔️'), true, 'a name with VS16 is shown escaped in an approval prompt');
  assert.equal(escapeForDisplay('👨‍💻'), '👨\\u{200d}💻');
});

test('long adversarial input is cleaned in linear time', () => {
  const n = 200_000;
  const inputs = [
    '\u001b['.repeat(n),
    '\u001b[' + '1;'.repeat(n),
    '\u009b'.repeat(n) + 'x',
    '\u001b]'.repeat(n),
    '\u001b]' + 'a'.repeat(n),
    '\u001bP' + ' '.repeat(n),
    '\u001b' + ' '.repeat(n),
    '\u200d'.repeat(n),
    '👍\u200d'.repeat(n / 2),
    '\u202e\u{e0041}'.repeat(n / 2),
  ];
  for (const input of inputs) {
    const started = performance.now();
    for (const clean of Object.values(ALL)) clean(input);
    const ms = performance.now() - started;
    // Quadratic would be minutes at this size; linear is a few hundred milliseconds, and the
    // budget leaves room for a machine loaded by other suites (2.3 s was seen at load 16).
    assert.ok(ms < 10_000, `${JSON.stringify(input.slice(0, 6))}… took ${Math.round(ms)} ms`);
  }
});
